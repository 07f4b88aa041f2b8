#include "core/privacy/tradeoff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <boost/math/distributions/normal.hpp>

namespace dpstudio::privacy {
namespace {

Error invalid(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

bool isProbability(double value) { return std::isfinite(value) && value >= 0 && value <= 1; }

template <typename MinFalseNegative>
Result<std::vector<TradeOffPoint>> curve(int points, const MinFalseNegative& minFalseNegative) {
  if (points < 2) return invalid("a trade-off curve needs at least 2 points", "points");
  std::vector<TradeOffPoint> out;
  out.reserve(static_cast<std::size_t>(points));
  for (int k = 0; k < points; ++k) {
    const double alpha = static_cast<double>(k) / (points - 1);
    auto beta = minFalseNegative(alpha);
    if (!beta) return beta.error();
    out.push_back({alpha, beta.value()});
  }
  return out;
}

}  // namespace

Result<double> epsilonDeltaMinFalseNegative(double epsilon, double delta, double alpha) {
  if (!(epsilon >= 0) || std::isnan(epsilon)) return invalid("ε must be >= 0", "epsilon");
  if (!isProbability(delta)) return invalid("δ must be in [0, 1]", "delta");
  if (!isProbability(alpha)) return invalid("the false-positive rate must be in [0, 1]", "alpha");
  const double top = 1.0 - delta;
  const double steep = top - std::exp(epsilon) * alpha;  // −∞ when e^ε overflows, never NaN for α > 0
  const double shallow = std::exp(-epsilon) * (top - alpha);
  return std::max({0.0, alpha == 0 ? top : steep, shallow});
}

Result<double> gaussianMinFalseNegative(double mu, double alpha) {
  if (!(mu >= 0) || !std::isfinite(mu)) return invalid("μ must be finite and >= 0", "mu");
  if (!isProbability(alpha)) return invalid("the false-positive rate must be in [0, 1]", "alpha");
  if (alpha == 0) return 1.0;
  if (alpha == 1) return 0.0;
  const boost::math::normal standard;
  // Φ(Φ⁻¹(1 − α) − μ), with Φ⁻¹(1 − α) = −Φ⁻¹(α) for accuracy at small α.
  return boost::math::cdf(standard, -boost::math::quantile(standard, alpha) - mu);
}

Result<double> gaussianMu(double sigma, double sensitivity) {
  if (!(sigma > 0) || !std::isfinite(sigma)) return invalid("σ must be finite and > 0", "sigma");
  if (!(sensitivity > 0) || !std::isfinite(sensitivity))
    return invalid("the sensitivity must be finite and > 0", "sensitivity");
  return sensitivity / sigma;
}

Result<double> posteriorBound(double prior, double epsilon) {
  if (!isProbability(prior)) return invalid("the prior must be in [0, 1]", "prior");
  if (!(epsilon >= 0) || std::isnan(epsilon)) return invalid("ε must be >= 0", "epsilon");
  if (prior == 0 || prior == 1) return prior;
  // e^ε·p / (e^ε·p + 1 − p) = p / (p + (1 − p)·e^{−ε}): no overflow for large ε.
  return prior / (prior + (1 - prior) * std::exp(-epsilon));
}

Result<double> posteriorBoundAt(double prior, double epsilon, double delta, double alpha) {
  if (!isProbability(prior)) return invalid("the prior must be in [0, 1]", "prior");
  if (!(alpha > 0) || alpha > 1) return invalid("the false-positive rate must be in (0, 1]", "alpha");
  auto beta = epsilonDeltaMinFalseNegative(epsilon, delta, alpha);
  if (!beta) return beta.error();
  if (prior == 0 || prior == 1) return prior;
  const double truePositive = 1 - beta.value();
  return prior * truePositive / (prior * truePositive + (1 - prior) * alpha);
}

Result<std::vector<TradeOffPoint>> epsilonDeltaTradeOffCurve(double epsilon, double delta, int points) {
  return curve(points, [&](double alpha) { return epsilonDeltaMinFalseNegative(epsilon, delta, alpha); });
}

std::vector<TradeOffPoint> epsilonDeltaTradeOffCorners(double epsilon, double delta) {
  const double top = 1.0 - delta;
  const double kinkX = top / (1.0 + std::exp(epsilon));
  const double kinkY = std::exp(-epsilon) * (top - kinkX);
  return {{0.0, top}, {kinkX, kinkY}, {top, 0.0}, {1.0, 0.0}};
}

Result<std::vector<TradeOffPoint>> gaussianTradeOffCurve(double mu, int points) {
  return curve(points, [&](double alpha) { return gaussianMinFalseNegative(mu, alpha); });
}

Result<GuaranteeMeaning> meaningOf(double epsilon, double delta) {
  if (auto checked = epsilonDeltaMinFalseNegative(epsilon, delta, 0.5); !checked) return checked.error();
  GuaranteeMeaning out;
  out.tradeOff = epsilonDeltaTradeOffCorners(epsilon, delta);
  out.testFalsePositive = delta > 0 ? 0.01 : 0.0;
  for (double prior : {0.01, 0.1, 0.5}) {
    auto bound = delta > 0 ? posteriorBoundAt(prior, epsilon, delta, out.testFalsePositive) : posteriorBound(prior, epsilon);
    if (!bound) return bound.error();
    out.posteriors.push_back({prior, bound.value()});
  }
  const auto percent = [](double p) {
    char text[32];
    std::snprintf(text, sizeof text, p < 0.995 ? "%.1f %%" : "%.3g %%", 100 * p);
    return std::string(text);
  };
  out.sentence = "If an attacker weighing two values of one person's record (the rest of the data known) gave "
                 "one of them a 1 % chance, after seeing the output they can give it at most " +
                 percent(out.posteriors.front().atMost) +
                 (delta > 0 ? " with a test that is wrong for 1 % of the other value (δ > 0: a test that fires "
                              "more rarely can be surer)"
                            : ", whatever test they use") +
                 ".";
  return out;
}

}  // namespace dpstudio::privacy
