#include "core/privacy/rdp_sampled_gaussian.h"

#include <cmath>

#include <boost/math/special_functions/gamma.hpp>

#include "core/privacy/log_math.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

constexpr long kMaxSeriesTerms = 10'000'000;
const double kLogTermTolerance = std::log(1e-17);
constexpr double kInvSqrt2 = 0.70710678118654752440;

double logBinomialInteger(double n, double k) {
  return boost::math::lgamma(n + 1.0) - boost::math::lgamma(k + 1.0) -
         boost::math::lgamma(n - k + 1.0);
}

double integerOrderRdp(double q, double sigma, double order) {
  const double logQ = std::log(q), log1mQ = std::log1p(-q);
  const double inv2s2 = 1.0 / (2.0 * sigma * sigma);
  const long alpha = std::lround(order);
  double logA = -std::numeric_limits<double>::infinity();
  for (long k = 0; k <= alpha; ++k) {
    const double kd = static_cast<double>(k);
    const double term = logBinomialInteger(order, kd) + (order - kd) * log1mQ + kd * logQ +
                        (kd * kd - kd) * inv2s2;
    logA = logAddExp(logA, term);
  }
  return logA / (order - 1.0);
}

}  // namespace

namespace detail {

Result<double> sampledGaussianRdpSeries(double q, double sigma, double order, long* terms) {
  const double logQ = std::log(q), log1mQ = std::log1p(-q);
  const double inv2s2 = 1.0 / (2.0 * sigma * sigma);
  const double z0 = sigma * sigma * (log1mQ - logQ) + 0.5;
  const double erfcScale = kInvSqrt2 / sigma;
  constexpr double kLogHalf = -0.69314718055994530942;

  SignedLogSum sum;
  double logBinom = 0.0;  // log|C(α, 0)|
  int sign = 1;
  long k = 0;
  for (; k < kMaxSeriesTerms; ++k) {
    const double kd = static_cast<double>(k);
    const double j = order - kd;  // the exponent of the other component
    const double log1 = logBinom + j * log1mQ + kd * logQ + (kd * kd - kd) * inv2s2 + kLogHalf +
                        logErfc((kd - z0) * erfcScale);
    const double log2 = logBinom + kd * log1mQ + j * logQ + (j * j - j) * inv2s2 + kLogHalf +
                        logErfc((z0 - j) * erfcScale);
    sum.add(log1, sign);
    sum.add(log2, sign);
    if (kd > order && sum.sign() > 0 && std::max(log1, log2) < sum.logAbs() + kLogTermTolerance)
      break;
    // C(α, k+1) = C(α, k)·(α − k)/(k + 1): the sign flips once k passes α.
    if (j == 0.0) break;  // integer α: every later coefficient is 0
    logBinom += std::log(std::abs(j)) - std::log(kd + 1.0);
    if (j < 0) sign = -sign;
  }
  if (terms) *terms = k + 1;
  if (k == kMaxSeriesTerms || sum.sign() <= 0)
    return Error{ErrorKind::Internal,
                 "the RDP series at order " + formatNumber(order) + " did not converge", {}, 0,
                 "order"};
  return sum.logAbs() / (order - 1.0);
}

}  // namespace detail

Result<double> sampledGaussianRdp(double q, double sigma, double order) {
  if (!(q > 0 && q <= 1)) return invalidParameter("q", "in (0, 1]", q);
  if (auto ok = requirePositive("sigma", sigma); !ok) return ok.error();
  if (!(std::isfinite(order) && order > 1)) return invalidParameter("order", "finite and > 1", order);
  if (q == 1.0) return order / (2.0 * sigma * sigma);
  if (order == std::floor(order)) return integerOrderRdp(q, sigma, order);
  return detail::sampledGaussianRdpSeries(q, sigma, order, nullptr);
}

}  // namespace dpstudio::privacy
