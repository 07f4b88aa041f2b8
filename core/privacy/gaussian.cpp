#include "core/privacy/gaussian.h"

#include <cmath>
#include <limits>

#include <boost/math/quadrature/gauss.hpp>

#include "core/privacy/log_math.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// log(Φ(x) − e^ε·Φ(y)) for y < x, the shape shared by δ(σ) and Alg. 2's B±:
// Φ(x)·(1 − e^{ε + log Φ(y) − log Φ(x)}), with expm1 for the small-difference case.
double logPhiDifference(double x, double y, double epsilon) {
  const double logPhiX = logPhi(x);
  const double exponent = epsilon + logPhi(y) - logPhiX;
  if (exponent >= 0.0) return kNegInf;  // the difference is 0 up to rounding
  return logPhiX + std::log(-std::expm1(exponent));
}

Status validate(double epsilon, double delta) {
  if (auto ok = requirePositive("epsilon", epsilon); !ok) return ok;
  return requireOpenUnit("delta", delta);
}

Status validate(double epsilon, double delta, double sensitivity) {
  if (auto ok = validate(epsilon, delta); !ok) return ok;
  return requirePositive("sensitivity", sensitivity);
}

// Bisection of a monotone predicate on [lo, hi] where good(hi) != good(lo); returns the
// end where `good` holds once the bracket is narrower than relTol·max(|lo|, |hi|) or can
// no longer be split in floating point. `geometric` splits at √(lo·hi) (lo > 0).
template <class Good>
double bisect(double lo, double hi, Good good, bool goodIsHigh, bool geometric, double relTol) {
  for (int iteration = 0; iteration < 4000; ++iteration) {
    if (hi - lo <= relTol * std::max(std::abs(lo), std::abs(hi))) break;
    const double mid = geometric ? std::sqrt(lo) * std::sqrt(hi) : lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;
    if (good(mid) == goodIsHigh) hi = mid; else lo = mid;
  }
  return goodIsHigh ? hi : lo;
}

constexpr double kRelTol = 1e-14;

}  // namespace

double logGaussianDelta(double sigma, double epsilon, double sensitivity) {
  const double a = sensitivity / (2.0 * sigma);
  const double b = epsilon * sigma / sensitivity;
  if (a >= b) return logPhiDifference(a - b, -a - b, epsilon);  // δ ≥ δ0: no cancellation
  // With ε = 2ab, e^ε·φ(a + b) = φ(b − a) exactly, so with the Mills ratio M = Φ(−t)/φ(t):
  //   δ = φ(b − a)·(M(b − a) − M(b + a)),
  // free of the ε − ε cancellation that costs the direct form up to 1e-6 of δ when a ≪ b
  // (small ε, tiny δ). A short interval's difference is integrated instead of subtracted:
  // M(b − a) − M(b + a) = ∫_{b−a}^{b+a} (1 − t·M(t)) dt (M' = t·M − 1), an entire
  // integrand that 20-point Gauss–Legendre integrates to rounding on a width ≤ 1.
  double difference = 0.0;
  if (a <= 0.5) {
    difference = boost::math::quadrature::gauss<double, 20>::integrate(
        [](double t) { return 1.0 - t * millsRatio(t); }, b - a, b + a);
  } else {
    difference = millsRatio(b - a) - millsRatio(b + a);
  }
  if (!(difference > 0.0)) return kNegInf;
  constexpr double kLogSqrt2Pi = 0.91893853320467274178;
  const double t = b - a;
  return -0.5 * t * t - kLogSqrt2Pi + std::log(difference);
}

Result<double> gaussianDelta(double sigma, double epsilon, double sensitivity) {
  if (auto ok = requirePositive("sigma", sigma); !ok) return ok.error();
  if (auto ok = requirePositive("epsilon", epsilon); !ok) return ok.error();
  if (auto ok = requirePositive("sensitivity", sensitivity); !ok) return ok.error();
  return std::exp(logGaussianDelta(sigma, epsilon, sensitivity));
}

Result<double> analyticGaussianSigma(double epsilon, double delta, double sensitivity) {
  if (auto ok = validate(epsilon, delta, sensitivity); !ok) return ok.error();
  const double logDelta = std::log(delta);
  auto satisfies = [&](double sigma) {
    return logGaussianDelta(sigma, epsilon, sensitivity) <= logDelta;
  };
  // δ(σ) falls from 1 (σ → 0) to 0 (σ → ∞). Bracket from the classical σ by doubling.
  double hi = sensitivity * std::sqrt(2.0 * std::log(1.25 / delta)) / epsilon;
  while (std::isfinite(hi) && !satisfies(hi)) hi *= 2.0;
  if (!std::isfinite(hi))
    return invalidParameter("epsilon", "large enough for a finite sigma", epsilon);
  double lo = hi;
  while (satisfies(lo)) lo *= 0.5;
  return bisect(lo, hi, satisfies, /*goodIsHigh=*/true, /*geometric=*/true, kRelTol);
}

Result<double> analyticGaussianAlpha(double epsilon, double delta) {
  if (auto ok = validate(epsilon, delta); !ok) return ok.error();
  const double logDelta = std::log(delta);
  const double logDelta0 = logPhiDifference(0.0, -std::sqrt(2.0 * epsilon), epsilon);
  if (logDelta >= logDelta0) {
    // B+(v) rises from δ0 (v = 0) to 1: the largest v with B+(v) ≤ δ.
    auto bPlusOk = [&](double v) {
      return logPhiDifference(std::sqrt(epsilon * v), -std::sqrt(epsilon * (v + 2.0)), epsilon) <=
             logDelta;
    };
    double hi = 1.0;
    while (bPlusOk(hi)) hi *= 2.0;
    const double v = bisect(0.0, hi, bPlusOk, /*goodIsHigh=*/false, false, kRelTol);
    return std::sqrt(1.0 + v / 2.0) - std::sqrt(v / 2.0);
  }
  // B−(u) falls from δ0 (u = 0) to 0: the smallest u with B−(u) ≤ δ.
  auto bMinusOk = [&](double u) {
    return logPhiDifference(-std::sqrt(epsilon * u), -std::sqrt(epsilon * (u + 2.0)), epsilon) <=
           logDelta;
  };
  double hi = 1.0;
  while (!bMinusOk(hi)) hi *= 2.0;
  const double u = bisect(0.0, hi, bMinusOk, /*goodIsHigh=*/true, false, kRelTol);
  return std::sqrt(1.0 + u / 2.0) + std::sqrt(u / 2.0);
}

Result<double> analyticGaussianSigmaAlpha(double epsilon, double delta, double sensitivity) {
  if (auto ok = requirePositive("sensitivity", sensitivity); !ok) return ok.error();
  auto alpha = analyticGaussianAlpha(epsilon, delta);
  if (!alpha) return alpha.error();
  return alpha.value() * sensitivity / std::sqrt(2.0 * epsilon);
}

Result<double> classicalGaussianSigma(double epsilon, double delta, double sensitivity) {
  if (auto ok = validate(epsilon, delta, sensitivity); !ok) return ok.error();
  if (epsilon >= 1.0)
    return invalidParameter("epsilon",
                            "< 1 for the classical Gaussian calibration (its proof needs it; "
                            "use the analytic calibration)",
                            epsilon);
  return sensitivity * std::sqrt(2.0 * std::log(1.25 / delta)) / epsilon;
}

}  // namespace dpstudio::privacy
