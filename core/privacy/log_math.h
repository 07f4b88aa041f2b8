#pragma once
// Log-space special functions for the privacy calibrations. The calibrations compare tiny
// probabilities (δ down to 1e-12) and products such as e^ε·Φ(−x) whose factors overflow or
// underflow on their own, so they are evaluated as logarithms. Pure functions, thread-safe.

#include <limits>

namespace dpstudio::privacy {

// log(erfc(x)) for every finite x. Accurate to a few ulp of the result where erfc does not
// underflow, and by the asymptotic series (relative error < 1e-16) for x ≥ 26, where
// erfc(x) < 1e-295 is no longer representable. Returns log 2 for x → −∞.
double logErfc(double x);

// The scaled complementary error function erfcx(x) = e^{x²}·erfc(x), to ~1e-15 relative for
// x ≥ 0 (Laplace's continued fraction from x = 5 on, where e^{x²} alone would lose digits
// and erfc underflows). Negative x: 2e^{x²} − erfcx(−x) (overflows to +∞ below ~−26).
double erfcx(double x);

// The Mills ratio M(t) = Φ(−t)/φ(t) = √(π/2)·erfcx(t/√2) (φ the standard normal density).
double millsRatio(double t);

// log Φ(x), Φ the standard normal CDF; Φ(x) = erfc(−x/√2)/2, so large negative x is exact.
double logPhi(double x);

// log(e^a + e^b) without overflow; either argument may be −∞.
double logAddExp(double a, double b);

// log(e^a − e^b) for a ≥ b (−∞ when a == b), computed as a + log(−expm1(b − a)).
double logSubExp(double a, double b);

// A sum of signed terms each given as (log|t|, sign), kept as (log|S|, sign of S). Used for
// the alternating series of the fractional-order RDP, whose terms span hundreds of orders
// of magnitude.
class SignedLogSum {
 public:
  void add(double logAbs, int sign);
  double logAbs() const { return logAbs_; }
  int sign() const { return sign_; }

 private:
  double logAbs_ = -std::numeric_limits<double>::infinity();  // the empty sum is 0
  int sign_ = 0;
};

}  // namespace dpstudio::privacy
