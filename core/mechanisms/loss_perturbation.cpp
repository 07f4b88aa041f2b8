// C. Loss perturbation (paper 003 §3.1, Alg. 4/5; Kifer, Smith & Thakurta 2012).
//
// Sum scale: minimize Σℓ(θᵀx_i, y_i) + (nλ/2)‖θ‖² + ⟨B, θ⟩ + (ρ/2)‖θ‖², which is n times
// the appendix's Algorithm 4 (the main text's eq. 3, with ρ/2 on the mean scale, does not
// match the proof), with ρ = 2·L·r/ε (L: Hessian bound, r: its rank bound, K: gradient
// bound, all for ‖x‖ ≤ 1). ε-DP: B ~ ℓ2-Laplace(ε/(2K)); (ε, δ)-DP: B ~ N(0, σ²I) with
// σ = (K/ε)·√(8 ln(2/δ) + 4ε). The regularizer is written (nλ/2)‖θ‖² so that λ means the
// same as for the non-private (mean-scale) learners.

#include <cmath>

#include "core/mechanisms/mechanism_internal.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {

Result<MechanismReport> calibrateLoss(const MechanismOptions& o, const ProblemShape& s) {
  auto made = makeModel(o.learner, s.features, s.classes);
  if (!made) return made.error();
  const ModelConstants k = made.value()->constants();
  MechanismReport report = baseReport(o, noiseFamilyName(o.family));
  report.noiseDimension = made.value()->parameterCount();
  const double rho = 2.0 * k.hessianBound * static_cast<double>(k.hessianRank) / o.epsilon;
  report.set("K", k.gradientBound, "gradient bound of the loss for ||x|| <= 1");
  report.set("L", k.hessianBound, "Hessian bound of the loss in the scores");
  report.set("r", static_cast<double>(k.hessianRank), "rank bound of that Hessian");
  report.set("rho", rho, "ρ = 2·L·r/ε");
  std::string guarantee;
  if (o.family == NoiseFamily::L2Laplace) {
    const double beta = o.epsilon / (2.0 * k.gradientBound);
    report.set("beta", beta, "β = ε/(2K)");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, report.noiseDimension);
    guarantee = "(" + privacy::formatNumber(o.epsilon) + ", 0)-DP";
  } else {
    const double sigma = (k.gradientBound / o.epsilon) * std::sqrt(8.0 * std::log(2.0 / o.delta) + 4.0 * o.epsilon);
    report.set("sigma", sigma, "σ = (K/ε)·√(8 ln(2/δ) + 4ε)");
    report.expectedNoiseNorm = privacy::expectedNormGaussian(sigma, report.noiseDimension);
    guarantee = "(" + privacy::formatNumber(o.epsilon) + ", " + privacy::formatNumber(o.delta) + ")-DP";
  }
  report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖B‖");
  report.statement = guarantee +
                     " under substitution of one training example: loss perturbation (Kifer, Smith & Thakurta "
                     "2012; van der Maaten & Hannun 2020, Alg. 4/5)";
  return report;
}

Result<PrivateModel> trainLoss(const MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise,
                               const TrainControl& control) {
  auto calibrated = calibrateLoss(o, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  auto draw = drawCalibrated(report, noise, report.noiseDimension);
  if (!draw) return draw.error();
  report.noiseNorms.push_back(draw.value().norm);
  const double n = static_cast<double>(train.rows());
  const double rho = *report.value("rho");
  ObjectiveTerms terms{LossScale::Sum, n * o.learner.lambda + rho, draw.value().noise};
  auto trained = minimizeObjective(made.value(), train.X, train.y, terms, control);
  if (!trained) return trained.error();
  PrivateModel out{std::move(trained).value(), std::move(report)};
  out.report.gradientNorm = out.trained.summary.gradientNorm;
  const double scale = out.report.expectedNoiseNorm /
                       ((n * o.learner.lambda + rho) * std::sqrt(static_cast<double>(out.report.noiseDimension)));
  if (auto status = finishRelease(out.report, noise, out.trained.theta, scale); !status) return status.error();
  return out;
}

}  // namespace dpstudio::mech::detail
