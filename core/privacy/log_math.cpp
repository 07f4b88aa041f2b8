#include "core/privacy/log_math.h"

#include <cmath>
#include <limits>
#include <utility>

namespace dpstudio::privacy {

double logErfc(double x) {
  // Below 20, erfc is a normal double with libm's ~1 ulp relative accuracy.
  if (x < 20.0) return std::log(std::erfc(x));
  // erfc(x) = e^{−x²}/(x√π) · Σ_n (−1)^n (2n−1)!!/(2x²)^n. At x ≥ 20 the terms fall below
  // 1e-17 by n = 8 (the series is asymptotic, so stop before they grow again).
  const double inv2x2 = 1.0 / (2.0 * x * x);
  double term = 1.0;
  double series = 1.0;
  for (int n = 1; n <= 12; ++n) {
    term *= -(2.0 * n - 1.0) * inv2x2;
    series += term;
    if (std::abs(term) < 1e-18) break;
  }
  constexpr double kLogSqrtPi = 0.57236494292470008707;  // log √π
  return -x * x - std::log(x) - kLogSqrtPi + std::log(series);
}

double erfcx(double x) {
  if (x < 0) return 2.0 * std::exp(x * x) - erfcx(-x);
  if (x < 5.0) return std::exp(x * x) * std::erfc(x);
  // erfc(x)·e^{x²}·√π = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), by modified Lentz; at
  // x ≥ 5 it converges to 1e-16 in well under 100 steps.
  constexpr double kTiny = 1e-300;
  double f = x, c = x, d = 0.0;
  for (int n = 1; n < 500; ++n) {
    const double a = 0.5 * n;
    d = x + a * d;
    if (d == 0.0) d = kTiny;
    c = x + a / c;
    if (c == 0.0) c = kTiny;
    d = 1.0 / d;
    const double step = c * d;
    f *= step;
    if (std::abs(step - 1.0) < 1e-16) break;
  }
  constexpr double kInvSqrtPi = 0.56418958354775628695;
  return kInvSqrtPi / f;
}

double millsRatio(double t) {
  constexpr double kSqrtHalfPi = 1.25331413731550025121;
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  return kSqrtHalfPi * erfcx(t * kInvSqrt2);
}

double logPhi(double x) {
  constexpr double kInvSqrt2 = 0.70710678118654752440;
  return -0.69314718055994530942 + logErfc(-x * kInvSqrt2);
}

double logAddExp(double a, double b) {
  if (a < b) std::swap(a, b);
  if (std::isinf(a) && a < 0) return a;  // both −∞
  return a + std::log1p(std::exp(b - a));
}

double logSubExp(double a, double b) {
  if (b == a) return -std::numeric_limits<double>::infinity();
  return a + std::log(-std::expm1(b - a));
}

void SignedLogSum::add(double logAbs, int sign) {
  if (sign == 0 || (std::isinf(logAbs) && logAbs < 0)) return;
  if (sign_ == 0) {
    logAbs_ = logAbs;
    sign_ = sign;
  } else if (sign == sign_) {
    logAbs_ = logAddExp(logAbs_, logAbs);
  } else if (logAbs_ > logAbs) {
    logAbs_ = logSubExp(logAbs_, logAbs);
  } else if (logAbs > logAbs_) {
    logAbs_ = logSubExp(logAbs, logAbs_);
    sign_ = sign;
  } else {  // exact cancellation
    logAbs_ = -std::numeric_limits<double>::infinity();
    sign_ = 0;
  }
}

}  // namespace dpstudio::privacy
