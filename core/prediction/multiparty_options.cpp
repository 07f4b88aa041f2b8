#include "core/prediction/multiparty_options.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/mechanisms/exact_minimizer.h"
#include "core/mechanisms/noise_scale.h"
#include "core/privacy/validation.h"

namespace dpstudio::multiparty {
namespace {

using privacy::formatNumber;

Error invalid(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}

}  // namespace

std::string aggregationProtocolName(AggregationProtocolKind kind) {
  return kind == AggregationProtocolKind::Paillier ? "paillier" : "trusted-curator";
}

LearnerSpec MultipartyOptions::localLearner() const {
  LearnerSpec spec;
  spec.kind = model;
  spec.lambda = 2.0 * lambda;
  spec.huber = huber;
  return spec;
}

Status MultipartyOptions::validate() const {
  if (model != ModelKind::LogisticRegression && model != ModelKind::HuberSvm)
    return invalid("multiparty aggregation trains binary logistic regression (paper 004) or the Huber SVM", "model");
  if (auto status = privacy::requirePositive("lambda", lambda); !status) return status.error();
  if (auto status = privacy::requirePositive("huber", huber); !status) return status.error();
  if (auto status = privacy::requirePositive("epsilon", epsilon); !status) return status.error();
  if (fractions.empty()) {
    if (parties < 1) return invalid("the number of parties K must be >= 1, found " + std::to_string(parties), "parties");
    return Ok{};
  }
  double sum = 0;
  for (std::size_t j = 0; j < fractions.size(); ++j) {
    if (!(std::isfinite(fractions[j]) && fractions[j] > 0))
      return invalid("party-split fractions must be finite and > 0, found " + formatNumber(fractions[j]) +
                         " (party " + std::to_string(j + 1) + ")",
                     "party-split");
    sum += fractions[j];
  }
  if (std::abs(sum - 1.0) > 1e-6)
    return invalid("party-split fractions must sum to 1, found " + formatNumber(sum), "party-split");
  return Ok{};
}

Result<std::vector<Index>> partySizes(Index n, const MultipartyOptions& options) {
  if (auto status = options.validate(); !status) return status.error();
  const Index K = options.partyCount();
  std::vector<double> fractions = options.fractions;
  if (fractions.empty()) fractions.assign(static_cast<std::size_t>(K), 1.0 / static_cast<double>(K));
  std::vector<Index> sizes(fractions.size());
  std::vector<double> remainder(fractions.size());
  Index assigned = 0;
  for (std::size_t j = 0; j < fractions.size(); ++j) {
    const double exact = fractions[j] * static_cast<double>(n);
    // The 1e-9 guards f·n = 6512.9999999 from rounding down a whole share.
    sizes[j] = static_cast<Index>(std::floor(exact + 1e-9));
    remainder[j] = exact - static_cast<double>(sizes[j]);
    assigned += sizes[j];
  }
  std::vector<std::size_t> order(fractions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t k = 0; assigned < n && k < order.size(); ++k, ++assigned) ++sizes[order[k]];
  while (assigned > n) {  // only through the 1e-9 guard with fractions summing to just over 1
    auto largest = std::max_element(sizes.begin(), sizes.end());
    --*largest;
    --assigned;
  }
  for (std::size_t j = 0; j < sizes.size(); ++j)
    if (sizes[j] < 1)
      return invalid("party " + std::to_string(j + 1) + " would hold no rows (n = " + std::to_string(n) + ", K = " +
                         std::to_string(K) + "): use fewer parties or larger fractions",
                     "party-split");
  return sizes;
}

// The local objective (1/n_j)Σℓ + λ‖w‖² is 2λ-strongly convex; its exact minimizer moves by
// at most 1/(n_j λ) ≤ 1/(n_(1) λ) when one of the party's rows is replaced.
double localGradientTolerance(const MultipartyOptions& options, Index smallestParty) {
  const mech::ExactMinimizerBound exactness{2.0 * options.lambda};
  return exactness.tolerance(1.0 / (static_cast<double>(smallestParty) * options.lambda));
}

Result<mech::MechanismReport> calibrateMultiparty(const MultipartyOptions& o, Index smallestParty, Index features) {
  if (auto status = o.validate(); !status) return status.error();
  if (smallestParty < 1 || features < 1) return invalid("the parties need >= 1 row and >= 1 feature", "n");
  const double K = static_cast<double>(o.partyCount()), n1 = static_cast<double>(smallestParty);
  const double d = static_cast<double>(features);
  mech::MechanismReport report;
  report.mechanism = "multiparty";
  report.model = modelKindName(o.model);
  report.calibration = o.calibration;
  report.epsilon = o.epsilon;
  report.delta = 0.0;
  report.noiseDimension = features;
  report.set("parties", K, "K: parties, each training locally");
  report.set(mech::Calibrated::SmallestParty, n1, "n_(1) = min_j n_j");
  report.set("lambda", o.lambda, "λ of J_j(w) = (1/n_j)Σℓ + λ‖w‖² (the learner's λ is 2λ)");
  report.set(mech::Calibrated::TheoremBound, (K - 1.0) / (n1 * o.lambda),
             "‖ŵ − w*‖ ≤ (K−1)/(n_(1)λ): paper 004 Theorem 4.2, as published");
  const double tolerance = localGradientTolerance(o, smallestParty);
  report.set(mech::Calibrated::GradientTolerance, tolerance, "τ: every local model's gradient norm is at most τ (fixed in advance)");
  if (o.calibration == mech::Calibration::Corrected) {
    const mech::ExactMinimizerBound exactness{2.0 * o.lambda};
    const double Delta = exactness.sensitivity(1.0 / (n1 * o.lambda)) / K;
    const double beta = o.epsilon / Delta;
    report.noise = mech::NoiseLaw::L2Laplace;
    report.set(mech::Calibrated::Delta, Delta,
               "Δ = (1/(K·n_(1)·λ))·(1 + 1e-4): ℓ2-sensitivity of the average (each exact ŵ_j moves ≤ 1/(n_j λ); "
               "the local models are within τ of them)");
    report.setNoiseScale(beta, "β = ε/Δ");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, features);
    report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖η‖ = d/β");
    report.statement = "(" + formatNumber(o.epsilon) + ", 0)-DP under substitution of one training example: the " +
                       (o.partyCount() == 1 ? std::string("exact minimizer")
                                             : "average of " + std::to_string(o.partyCount()) + " local minimizers") +
                       " plus ℓ2-Laplace noise (sensitivity " + formatNumber(Delta) + ")";
    return report;
  }
  const double scale = 2.0 / (n1 * o.epsilon * o.lambda);
  // The local models are within τ of the exact minimizers (as for the corrected noise), so
  // the average moves by at most Δ₂ = (1/(K·n_(1)·λ))·(1 + 1e-4) in ℓ2, √d·Δ₂ in ℓ1.
  const mech::ExactMinimizerBound exactness{2.0 * o.lambda};
  const double l2Sensitivity = exactness.sensitivity(1.0 / (n1 * o.lambda)) / K;
  const double provable = std::sqrt(d) * l2Sensitivity / scale;
  report.noise = mech::NoiseLaw::LaplacePerCoordinate;
  report.set(mech::Calibrated::Delta, 2.0 / (n1 * o.lambda), "2/(n_(1)λ): the ℓ1 sensitivity paper 004 assumes (as published)");
  report.setNoiseScale(scale, "b = 2/(n_(1)ελ) per coordinate (as published)");
  report.setEpsilonThatHolds("epsilon_provable", provable,
             "ε·√d·(1 + 1e-4)/(2K): ‖Δŵ‖₁ ≤ √d·‖Δŵ‖₂ ≤ √d·(1 + 1e-4)/(K·n_(1)·λ) (the local models are within "
             "τ of the exact minimizers), divided by b");
  report.expectedNoiseNorm = std::sqrt(2.0 * d) * scale;  // ‖η‖ ≈ √(E‖η‖²) = b√(2d)
  report.set("expected_noise_norm", report.expectedNoiseNorm, "√(E‖η‖²) = b·√(2d) (root mean square)");
  report.warning = "as published: paper 004 calibrates per-coordinate Laplace noise to an ℓ1 sensitivity of "
                   "2/(n_j λ), but the result it cites bounds the ℓ2 norm; per-coordinate Laplace needs the ℓ1 "
                   "sensitivity, which can be √d times the ℓ2 one. What can be proven here is " +
                   formatNumber(provable) + "-DP (ε·√d·(1 + 1e-4)/(2K))" +
                   (provable > o.epsilon ? ", more than the claimed ε" : ", within the claimed ε for this d and K");
  report.statement = provable > o.epsilon
                         ? "as published, NOT proven (" + formatNumber(o.epsilon) + ", 0)-DP as claimed: only (" +
                               formatNumber(provable) + ", 0)-DP can be shown for per-coordinate Laplace(" +
                               formatNumber(scale) + ") on the average of " + std::to_string(o.partyCount()) +
                               " local minimizers"
                         : "as published: (" + formatNumber(provable) + ", 0)-DP, within the claimed ε = " +
                               formatNumber(o.epsilon) + " only because d is small for K = " +
                               std::to_string(o.partyCount()) + " (the paper's own argument does not hold)";
  return report;
}

double perCoordinateNoiseScale(const mech::MechanismReport& calibration) {
  if (calibration.noise == mech::NoiseLaw::LaplacePerCoordinate) return calibration.noiseScale();
  return calibration.expectedNoiseNorm / std::sqrt(static_cast<double>(std::max<Index>(1, calibration.noiseDimension)));
}

std::vector<std::string> multipartyWarnings(const MultipartyOptions& options, const mech::MechanismReport& calibration) {
  const double noise = calibration.expectedNoiseNorm;
  const auto above = mech::noiseAboveModelBound(options.localLearner(), 2, noise);
  if (!above) return {};
  // The local learner's λ is 2λ (λ‖w‖² = (2λ/2)‖w‖²): the balancing λ of λ‖w‖² is half its own.
  return {"the noise swamps the model: E\u2016\u03b7\u2016 = " + formatNumber(noise) +
          " is larger than any party's model with \u03bb = " + formatNumber(options.lambda) + " can be (\u2016\u0175\u2016 \u2264 " +
          "\u221a(\u2113(0)/\u03bb) = " + formatNumber(above->bound) + "), so the release is mostly noise; \u03bb above " +
          formatNumber(above->balancingLambda / 2.0) + ", a larger epsilon or larger parties make the noise smaller than that"};
}

}  // namespace dpstudio::multiparty
