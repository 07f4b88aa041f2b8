#include "core/privacy/exact_privacy.h"

#include <algorithm>
#include <cmath>

#include "core/privacy/pld_accountant.h"

namespace dpstudio::privacy {
namespace {

// The ε at which DP-SGD's profile is read: dense near 0, where the lines' slopes e^{−ε}
// change fastest relative to the curve, out to where any δ is negligible for σ of interest.
std::vector<double> profileEpsilons() {
  constexpr int kCount = 240;
  constexpr double kLargest = 40;
  std::vector<double> out;
  out.reserve(kCount);
  for (int k = 0; k < kCount; ++k) {
    const double t = static_cast<double>(k) / (kCount - 1);
    out.push_back(kLargest * t * t);
  }
  return out;
}

}  // namespace

Result<std::vector<TradeOffPoint>> profileTradeOffCurve(const std::vector<double>& epsilons,
                                                        const std::vector<double>& deltas, int points) {
  if (epsilons.size() != deltas.size() || epsilons.empty())
    return Error{ErrorKind::Usage, "a privacy profile needs one δ for each ε, and at least one pair", {}, 0, "deltas"};
  if (points < 2) return Error{ErrorKind::Usage, "a trade-off curve needs at least 2 points", {}, 0, "points"};
  std::vector<TradeOffPoint> out(static_cast<std::size_t>(points));
  for (int k = 0; k < points; ++k) out[k].falsePositive = static_cast<double>(k) / (points - 1);
  for (std::size_t j = 0; j < epsilons.size(); ++j)
    for (TradeOffPoint& p : out) {
      auto beta = epsilonDeltaMinFalseNegative(epsilons[j], deltas[j], p.falsePositive);
      if (!beta) return beta.error();
      p.falseNegative = std::max(p.falseNegative, beta.value());
    }
  return out;
}

Result<std::optional<std::vector<TradeOffPoint>>> exactTradeOffCurve(const ExactPrivacy& exact, int points) {
  if (exact.gaussianMu) {
    auto curve = gaussianTradeOffCurve(*exact.gaussianMu, points);
    if (!curve) return curve.error();
    return std::optional(std::move(curve).value());
  }
  if (exact.sampledGaussian.empty()) return std::optional<std::vector<TradeOffPoint>>{};
  const std::vector<double> steps = profileEpsilons();
  auto deltas = sampledGaussianPldDelta(exact.sampledGaussian, steps, exact.adjacency);
  if (!deltas) return deltas.error();
  std::vector<double> epsilons = steps;
  for (double& e : epsilons) e += exact.pureEpsilon;  // basic composition with the ε₀-DP step
  std::vector<double> clamped = deltas.value();
  for (double& d : clamped) d = std::clamp(d, 0.0, 1.0);
  auto curve = profileTradeOffCurve(epsilons, clamped, points);
  if (!curve) return curve.error();
  return std::optional(std::move(curve).value());
}

}  // namespace dpstudio::privacy
