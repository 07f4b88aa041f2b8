#include "core/mechanisms/noise_scale.h"

#include <cmath>
#include <numbers>

#include "core/models/huber.h"
#include "core/util/number_text.h"

namespace dpstudio::mech {

std::optional<double> minimizerNormBound(const LearnerSpec& learner, Index classes) {
  double lossAtZero = 0;
  switch (learner.kind) {
    case ModelKind::LogisticRegression: lossAtZero = std::numbers::ln2; break;
    case ModelKind::HuberSvm: lossAtZero = 1.0; break;
    case ModelKind::Softmax: lossAtZero = std::log(static_cast<double>(std::max<Index>(classes, 2))); break;
    case ModelKind::Lmgc: return std::nullopt;
  }
  if (!(learner.lambda > 0)) return std::nullopt;
  return std::sqrt(2.0 * lossAtZero / learner.lambda);
}

double lmgcLossAtZero(const LearnerSpec& learner, Index classes) {
  // At Φ = 0 every score is 0, a class's soft minimum over M components is −log M, and each
  // competing class costs H_h(−log M) (§2.2, §2.3): H_h(0) for one Gaussian per class.
  const double margin = -std::log(static_cast<double>(std::max(learner.components, 1)));
  return static_cast<double>(std::max<Index>(classes, 2) - 1) * huber::loss(margin, learner.huber);
}

std::optional<NoiseAboveModel> noiseAboveModelBound(const LearnerSpec& learner, Index classes, double expectedNoiseNorm) {
  const auto bound = minimizerNormBound(learner, classes);
  if (!bound || !std::isfinite(expectedNoiseNorm) || expectedNoiseNorm <= *bound) return std::nullopt;
  // E‖b‖(λ') = E‖b‖·λ/λ' meets √(2ℓ(0)/λ') = bound·√(λ/λ') at λ' = (E‖b‖·λ)²/(2ℓ(0)).
  const double lossAtZero = *bound * *bound * learner.lambda / 2.0;
  return NoiseAboveModel{*bound, std::pow(expectedNoiseNorm * learner.lambda, 2) / (2.0 * lossAtZero)};
}

std::optional<std::string> noiseSwampsModelWarning(const MechanismOptions& options, const MechanismReport& report,
                                                   Index classes) {
  if (options.kind != MechanismKind::Output) return std::nullopt;
  const double noise = report.expectedNoiseNorm;
  if (options.learner.kind == ModelKind::Lmgc) {
    const double lambda2 = options.lmgcStrongConvexity, lossAtZero = lmgcLossAtZero(options.learner, classes);
    if (!(lambda2 > 0)) return std::nullopt;
    const double bound = std::sqrt(2.0 * lossAtZero / lambda2);
    if (!std::isfinite(noise) || noise <= bound) return std::nullopt;
    // E‖b‖ ∝ 1/λ₂ and the bound ∝ 1/√λ₂: they meet at λ₂' = (E‖b‖·λ₂)²/(2ℓ₀).
    return "the noise swamps the model: E\u2016b\u2016 = " + briefNumber(noise) + " is larger than any model \u03bb\u2082 = " +
           briefNumber(lambda2) + " allows (\u2016\u03a6*\u2016 \u2264 \u221a(2\u2113\u2080/\u03bb\u2082) = " +
           briefNumber(bound) + ", \u2113\u2080 = (C \u2212 1)\u00b7H_h(" + (options.learner.components > 1 ? "\u2212log M" : "0") +
           ")), so the release is mostly noise; "
           "\u03bb\u2082 above " + briefNumber(std::pow(noise * lambda2, 2) / (2.0 * lossAtZero)) +
           " (or a larger \u03b5) makes the noise smaller than that bound";
  }
  const auto above = noiseAboveModelBound(options.learner, classes, noise);
  if (!above) return std::nullopt;
  return "the noise swamps the model: E\u2016b\u2016 = " + briefNumber(noise) +
         " is larger than any model \u03bb = " + briefNumber(options.learner.lambda) +
         " allows (\u2016\u03b8*\u2016 \u2264 \u221a(2\u2113(0)/\u03bb) = " + briefNumber(above->bound) +
         "), so the release is mostly noise; \u03bb above " + briefNumber(above->balancingLambda) +
         " (or a larger \u03b5) makes the noise smaller than that bound";
}

std::optional<std::string> perturbationSwampsModelWarning(const MechanismOptions& options,
                                                          const MechanismReport& report, const ProblemShape& shape) {
  const bool objective = options.kind == MechanismKind::Objective, loss = options.kind == MechanismKind::Loss;
  if (options.kind == MechanismKind::DpLmgc && shape.rows >= 1 && options.calibration == Calibration::Corrected) {
    const auto rho = report.find(Calibrated::Rho);
    if (!rho || !(*rho > 0)) return std::nullopt;
    const double n = static_cast<double>(shape.rows), lossAtZero = lmgcLossAtZero(options.learner, shape.classes);
    const double shift = report.expectedNoiseNorm / *rho, bound = std::sqrt(2.0 * n * lossAtZero / *rho);
    if (!std::isfinite(shift) || shift <= bound) return std::nullopt;
    // shift does not depend on ε or n; bound² = 2nℓ₀/ρ grows as n·ε (ρ ∝ 1/ε).
    const double meetingRowsTimesEpsilon = n * options.epsilon * (shift / bound) * (shift / bound);
    return "the noise swamps the model: the perturbation moves the model by up to about E\u2016B\u2016/\u03c1 = " +
           briefNumber(shift) + ", more than any noise-free model is long (\u2016\u03a6\u2080\u2016 \u2264 "
           "\u221a(2n\u2113\u2080/\u03c1) = " + briefNumber(bound) +
           "), so the release is mostly noise; that move does not shrink with \u03b5 (both the noise and \u03c1 "
           "scale as 1/\u03b5): it needs n\u00b7\u03b5 above about " + briefNumber(meetingRowsTimesEpsilon) +
           ", fewer features or classes, or another mechanism (output perturbation, DP-SGD)";
  }
  if (!(objective || loss) || shape.rows < 1) return std::nullopt;
  const auto bound = minimizerNormBound(options.learner, shape.classes);
  if (!bound) return std::nullopt;
  const double n = static_cast<double>(shape.rows);
  const double curvature = objective ? n * (options.learner.lambda + report.find(Calibrated::Delta).value_or(0.0))
                                     : n * options.learner.lambda + report.find(Calibrated::Rho).value_or(0.0);
  const double shift = report.expectedNoiseNorm / curvature;
  if (!std::isfinite(shift) || shift <= *bound) return std::nullopt;
  return "the noise swamps the model: the perturbation moves the minimizer by up to about E\u2016b\u2016/(n\u00b7q) = " +
         briefNumber(shift) + ", more than any model \u03bb = " + briefNumber(options.learner.lambda) +
         " allows (\u2016\u03b8*\u2016 \u2264 \u221a(2\u2113(0)/\u03bb) = " + briefNumber(*bound) +
         "), so the release is mostly noise; a larger \u03bb, a larger \u03b5 or more rows make it smaller";
}

}  // namespace dpstudio::mech
