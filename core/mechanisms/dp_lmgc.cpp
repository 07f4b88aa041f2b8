// D. DP-LMGC (paper 000 §4; docs/algorithms.md §3 D).
//
// Corrected (default): LMGC is linear in z = vec(x̃x̃ᵀ) with ‖z‖ ≤ 1, its parameters live in
// the symmetric matrices (dimension m = C(d+1)(d+2)/2), so loss perturbation (C) applies
// with K = √(C(C−1)), L = C/(2h), r = C−1: ρ = C(C−1)/(hε); B is drawn once, jointly over
// all classes, in an orthonormal basis of the symmetric matrices. A mixture of M Gaussians
// per class (public component centres, lmgc_components.h) has L = C/(2h) + ½, r = (C−1)·M
// and one noise matrix per component; minimize
// Σℓ + λΣtr Ψ_c + ⟨B, Φ⟩ + (ρ/2)‖Φ‖²_F over Φ_c ⪰ 0 (Kifer et al. cover closed convex sets).
// The noise is loss perturbation's under substitution: β = ε/(4K), not the ε/(2K) of the
// add/remove proof (see loss_perturbation.cpp).
//
// As published: one matrix b ∈ R^{(d+1)×(d+1)} with ‖b‖_F ~ Gamma((d+1)², 2/ε) and a
// uniform direction, shared by all classes; minimize J(Φ) + Σ_c⟨b, Φ_c⟩. Its proof does not
// hold (see kPublishedWarning); the paper's ε' = ε + k has an unspecified constant k.

#include <cmath>

#include "core/linalg/psd.h"
#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/models/lmgc.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {
namespace {

const char* kPublishedWarning =
    "as published, NOT differentially private as stated: the proof needs a strongly convex objective "
    "(the Huber loss is not strongly convex and the trace regularizer is linear), bounds each class's "
    "gradient block separately although one example moves all of them, and uses one noise matrix for "
    "C parameter matrices, so the noise-to-output map is not a bijection; the paper's epsilon' = epsilon "
    "+ k has an unspecified constant k";

}  // namespace

static Result<MechanismReport> calibrateDpLmgc(const MechanismOptions& o, const ProblemShape& s) {
  const Index k = s.features + 1;
  if (o.calibration == Calibration::Published) {
    MechanismReport report = baseReport(o, NoiseLaw::L2Laplace);
    report.noiseDimension = k * k;
    const double beta = o.epsilon / 2.0;
    report.setNoiseScale(beta, "‖b‖_F ~ Gamma((d+1)², 2/ε), i.e. β = ε/2 (as published)");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, report.noiseDimension);
    report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖b‖_F = (d+1)²·2/ε");
    report.warning = kPublishedWarning;
    report.statement = "as published (Pathak & Raj 2010): claims (ε + k)-DP with an unspecified k; "
                       "this calibration does not carry a valid guarantee";
    return report;
  }
  MechanismReport report = baseReport(o, noiseLawOf(o.family));
  const Index M = o.learner.components;
  const ModelConstants constants = lmgcConstants(s.classes, o.learner.huber, M);
  const double rho = 2.0 * constants.hessianBound * static_cast<double>(constants.hessianRank) / o.epsilon;
  report.noiseDimension = s.classes * M * symmetricBasisDimension(k);
  if (M > 1) report.set("components", static_cast<double>(M), "M Gaussians per class (a mixture)");
  report.set("K", constants.gradientBound, "K = √(C(C−1))");
  report.set("L", constants.hessianBound, M == 1 ? "L = C/(2h)" : "L = C/(2h) + ½ (mixture)");
  report.set("r", static_cast<double>(constants.hessianRank), M == 1 ? "r = C − 1" : "r = (C − 1)·M (mixture)");
  report.set(Calibrated::Rho, rho, M == 1 ? "ρ = 2·L·r/ε = C(C−1)/(hε)" : "ρ = 2·L·r/ε");
  const std::string guarantee = setLossPerturbationNoise(report, o, constants.gradientBound);
  report.statement = guarantee +
                     " under substitution of one training example: DP-LMGC by loss perturbation over the "
                     "symmetric parameter space (corrected calibration)";
  return report;
}

static Result<PrivateModel> trainDpLmgc(const MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise,
                                 const TrainControl& control,
                                 const Eigen::VectorXd* experimentStart) {
  auto calibrated = calibrateDpLmgc(o, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  const auto* lmgc = dynamic_cast<const LmgcModel*>(made.value().get());
  const Index k = train.features() + 1, blocks = lmgc->blocks();

  auto draw = drawReportedNoise(report, noise);
  if (!draw) return draw.error();
  report.noiseNorms.push_back(draw.value().norm);
  std::vector<Eigen::MatrixXd> noiseMatrices;
  double quadratic = 0;
  if (o.calibration == Calibration::Published) {
    // One (d+1)×(d+1) matrix for every class; ⟨b, Φ_c⟩ only sees its symmetric part.
    const Eigen::MatrixXd b = Eigen::Map<const Eigen::MatrixXd>(draw.value().noise.data(), k, k);
    noiseMatrices.assign(static_cast<std::size_t>(blocks), b);
  } else {
    // One symmetric matrix per block Φ_{c,m}, all from the one joint draw.
    const Index block = symmetricBasisDimension(k);
    for (Index b = 0; b < blocks; ++b)
      noiseMatrices.push_back(symmetricFromCoefficients(draw.value().noise.segment(b * block, block), k));
    quadratic = report.calibrated(Calibrated::Rho);
  }
  ObjectiveTerms terms{LossScale::Sum, quadratic,
                       lmgc->traceRegularizer(o.learner.lambda) + lmgc->packParameters(noiseMatrices)};
  auto trained = minimizeObjective(made.value(), train.X, train.y, terms,
                                   perturbedProblemStart(control, made.value()->parameterCount(), experimentStart));
  if (!trained) return trained.error();
  PrivateModel out{std::move(trained).value(), std::move(report)};
  out.report.gradientNorm = out.trained.summary.gradientNorm;
  noteConvergence(out.report, out.trained.summary);
  const double scale = out.report.expectedNoiseNorm /
                       (std::max(quadratic, 1.0) * std::sqrt(static_cast<double>(out.report.noiseDimension)));
  if (auto status = finishRelease(out.report, noise, out.trained.theta, scale); !status) return status.error();
  lmgc->project(out.trained.theta);  // rounding may leave the cone by a hair; projection is post-processing
  return out;
}

}  // namespace dpstudio::mech::detail

namespace dpstudio::mech {
namespace {

class DpLmgcMechanism final : public TrainingMechanism {
 public:
  std::string key() const override { return "dplmgc"; }
  std::string title() const override { return "DP-LMGC"; }
  Status validate(const MechanismOptions& o) const override {
    if (o.learner.kind != ModelKind::Lmgc)
      return detail::invalidOption("dplmgc trains the LMGC model only (--model lmgc)", "mechanism");
    if (o.calibration == Calibration::Published && o.family != NoiseFamily::L2Laplace)
      return detail::invalidOption("DP-LMGC as published draws its Gamma-norm noise only", "distribution");
    if (o.calibration == Calibration::Published && o.learner.components > 1)
      return detail::invalidOption("DP-LMGC as published has one Gaussian per class: mixtures (--components > 1) "
                                   "need the corrected calibration",
                                   "components");
    return Ok{};
  }
  bool offersPublishedCalibration() const override { return true; }
  bool perturbsObjective() const override { return true; }
  Result<MechanismReport> calibrate(const MechanismOptions& o, const ProblemShape& s,
                                    privacy::NoiseKind) const override {
    return detail::calibrateDpLmgc(o, s);
  }
  Result<PrivateModel> train(const MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                             const TrainControl& control, const Eigen::VectorXd* start) const override {
    return detail::trainDpLmgc(o, rows, noise, control, start);
  }
};

}  // namespace

const TrainingMechanism& dpLmgc() {
  static const DpLmgcMechanism mechanism;
  return mechanism;
}

}  // namespace dpstudio::mech
