// C. Loss perturbation (paper 003 §3.1, Alg. 4/5; Kifer, Smith & Thakurta 2012).
//
// Sum scale: minimize Σℓ(θᵀx_i, y_i) + (nλ/2)‖θ‖² + ⟨B, θ⟩ + (ρ/2)‖θ‖², which is n times
// the appendix's Algorithm 4 (the main text's eq. 3, with ρ/2 on the mean scale, does not
// match the proof), with ρ = 2·L·r/ε (L: Hessian bound, r: its rank bound, K: gradient
// bound, all for ‖x‖ ≤ 1). The regularizer is written (nλ/2)‖θ‖² so that λ means the same
// as for the non-private (mean-scale) learners.
//
// Noise under substitution (docs/algorithms.md §0.1). The proof (paper 003 Thm. 3, after Kifer et al.
// Thm. 2) splits ε into a Jacobian term, ≤ r·L/ρ = ε/2, and a noise-density term, and takes
// D' = D plus one example: the noise that explains a given output moves by ‖∇ℓ‖ ≤ K. Under
// substitution it moves by ∇ℓ(x) − ∇ℓ(x'), up to 2K (the Jacobian term stays ε/2: both
// determinants are compared with that of the common part), so the published β = ε/(2K)
// gives only (3ε/2)-DP. The sensitivity here is therefore 2K:
//   ε-DP:      B ~ ℓ2-Laplace(ε/(4K))                 (density term ≤ β·2K = ε/2)
//   (ε, δ)-DP: B ~ N(0, σ²I), σ = (2K/ε)·√(8 ln(2/δ) + 4ε)
// (Kifer et al.'s Gaussian bound with sensitivity 2K in place of K).

#include <cmath>

#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {

std::string setLossPerturbationNoise(MechanismReport& report, const MechanismOptions& o, double K) {
  report.set("sensitivity", 2.0 * K, "2K: how far one substitution moves the noise that explains an output");
  if (o.family == NoiseFamily::L2Laplace) {
    const double beta = o.epsilon / (4.0 * K);
    report.setNoiseScale(beta, "β = ε/(4K) (substitution: sensitivity 2K, density term ε/2)");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, report.noiseDimension);
  } else {
    const double sigma = (2.0 * K / o.epsilon) * std::sqrt(8.0 * std::log(2.0 / o.delta) + 4.0 * o.epsilon);
    report.setNoiseScale(sigma, "σ = (2K/ε)·√(8 ln(2/δ) + 4ε) (substitution: sensitivity 2K)");
    report.expectedNoiseNorm = privacy::expectedNormGaussian(sigma, report.noiseDimension);
  }
  report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖B‖");
  const double delta = o.family == NoiseFamily::L2Laplace ? 0.0 : o.delta;
  return "(" + privacy::formatNumber(o.epsilon) + ", " + privacy::formatNumber(delta) + ")-DP";
}

static Result<MechanismReport> calibrateLoss(const MechanismOptions& o, const ProblemShape& s) {
  auto made = makeModel(o.learner, s.features, s.classes);
  if (!made) return made.error();
  const ModelConstants k = made.value()->constants();
  MechanismReport report = baseReport(o, noiseLawOf(o.family));
  report.noiseDimension = made.value()->parameterCount();
  const double rho = 2.0 * k.hessianBound * static_cast<double>(k.hessianRank) / o.epsilon;
  report.set("K", k.gradientBound, "gradient bound of the loss for ||x|| <= 1");
  report.set("L", k.hessianBound, "Hessian bound of the loss in the scores");
  report.set("r", static_cast<double>(k.hessianRank), "rank bound of that Hessian");
  report.set(Calibrated::Rho, rho, "ρ = 2·L·r/ε");
  const std::string guarantee = setLossPerturbationNoise(report, o, k.gradientBound);
  report.statement = guarantee +
                     " under substitution of one training example: loss perturbation (Kifer, Smith & Thakurta "
                     "2012; van der Maaten & Hannun 2020, Alg. 4/5)";
  return report;
}

static Result<PrivateModel> trainLoss(const MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise,
                               const TrainControl& control,
                               const Eigen::VectorXd* experimentStart) {
  auto calibrated = calibrateLoss(o, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  auto draw = drawReportedNoise(report, noise);
  if (!draw) return draw.error();
  report.noiseNorms.push_back(draw.value().norm);
  const double n = static_cast<double>(train.rows());
  const double rho = report.calibrated(Calibrated::Rho);
  ObjectiveTerms terms{LossScale::Sum, n * o.learner.lambda + rho, draw.value().noise};
  std::optional<Eigen::VectorXd> start;
  if (experimentStart) start = shiftedSolution(*experimentStart, n * o.learner.lambda, terms);
  auto trained = minimizeObjective(made.value(), train.X, train.y, terms,
                                   perturbedProblemStart(control, made.value()->parameterCount(),
                                                         start ? &*start : nullptr));
  if (!trained) return trained.error();
  PrivateModel out{std::move(trained).value(), std::move(report)};
  out.report.gradientNorm = out.trained.summary.gradientNorm;
  noteConvergence(out.report, out.trained.summary);
  const double scale = out.report.expectedNoiseNorm /
                       ((n * o.learner.lambda + rho) * std::sqrt(static_cast<double>(out.report.noiseDimension)));
  if (auto status = finishRelease(out.report, noise, out.trained.theta, scale); !status) return status.error();
  return out;
}

}  // namespace dpstudio::mech::detail

namespace dpstudio::mech {
namespace {

class LossPerturbation final : public TrainingMechanism {
 public:
  std::string key() const override { return "loss"; }
  std::string title() const override { return "loss perturbation"; }
  Status validate(const MechanismOptions& o) const override {
    if (o.learner.kind == ModelKind::Lmgc) return detail::invalidOption("for LMGC use the dplmgc mechanism", "mechanism");
    return Ok{};
  }
  bool perturbsObjective() const override { return true; }
  Result<MechanismReport> calibrate(const MechanismOptions& o, const ProblemShape& s,
                                    privacy::NoiseKind) const override {
    return detail::calibrateLoss(o, s);
  }
  Result<PrivateModel> train(const MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                             const TrainControl& control, const Eigen::VectorXd* start) const override {
    return detail::trainLoss(o, rows, noise, control, start);
  }
};

}  // namespace

const TrainingMechanism& lossPerturbation() {
  static const LossPerturbation mechanism;
  return mechanism;
}

}  // namespace dpstudio::mech
