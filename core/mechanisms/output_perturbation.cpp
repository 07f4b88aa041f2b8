// A. Output perturbation / model sensitivity (paper 002 Alg. 1; paper 003 §3.1, Alg. 1, 3).
//
// The exact minimizer of J(θ) = (1/n)Σℓ + (λ/2)‖θ‖² has ℓ2-sensitivity Δ = 2K/(nλ) under
// substitution; release θ* + b with b ~ ℓ2-Laplace(ε/Δ) (ε-DP) or N(0, σ²I) with the
// analytic σ for (ε, δ, Δ). One-vs-rest: C separate releases at ε/C, δ/C each (basic
// composition). LMGC: the trace term is linear and gives no sensitivity bound, so a
// strongly convex (λ₂/2)Σ‖Φ_c‖²_F is added; the minimizer over the PSD cone keeps
// Δ = 2K/(nλ₂); the noise is drawn in the symmetric parameter space and the noisy Φ is
// projected back onto the PSD cone (post-processing).

#include <cmath>

#include "core/linalg/psd.h"
#include "core/mechanisms/exact_minimizer.h"
#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/models/linear.h"
#include "core/models/lmgc.h"
#include "core/privacy/gaussian.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {
namespace {

struct OutputPlan {
  double K = 1;
  Index dimension = 0;  // coordinates of one draw
  Index releases = 1;   // one-vs-rest: C
  // The released point is not the exact minimizer (exact_minimizer.h): the mean-scale
  // objective's strong convexity, and for LMGC's projected problem its smoothness
  // C/(2h) + λ₂, bound how far it may be.
  ExactMinimizerBound exactness;
};

OutputPlan plan(const MechanismOptions& o, const ProblemShape& s) {
  switch (o.learner.kind) {
    case ModelKind::LogisticRegression:
    case ModelKind::HuberSvm:
      return {1.0, s.features, s.classes == 2 ? 1 : s.classes, {o.learner.lambda}};
    case ModelKind::Softmax:
      return {std::sqrt(2.0), s.features * s.classes, 1, {o.learner.lambda}};
    case ModelKind::Lmgc: {
      const ModelConstants lmgc = lmgcConstants(s.classes, o.learner.huber, o.learner.components);
      return {lmgc.gradientBound, s.classes * o.learner.components * symmetricBasisDimension(s.features + 1), 1,
              {o.lmgcStrongConvexity, lmgc.hessianBound + o.lmgcStrongConvexity}};
    }
  }
  return {};
}

constexpr const char* kWhat = "output perturbation";

double perCoordinateScale(const MechanismReport& report) {
  return report.expectedNoiseNorm / std::sqrt(static_cast<double>(std::max<Index>(1, report.noiseDimension)));
}

}  // namespace

static Result<MechanismReport> calibrateOutput(const MechanismOptions& o, const ProblemShape& s, privacy::NoiseKind noise) {
  const OutputPlan p = plan(o, s);
  MechanismReport report = baseReport(o, noiseLawOf(o.family));
  const double n = static_cast<double>(s.rows);
  const double releases = static_cast<double>(p.releases);
  const double epsilonEach = o.epsilon / releases, deltaEach = o.delta / releases;
  const double exactDelta = 2.0 * p.K / (n * p.exactness.strongConvexity);
  const double tau = p.exactness.tolerance(exactDelta);
  const double Delta = p.exactness.sensitivity(exactDelta);
  report.noiseDimension = p.dimension;
  report.set("K", p.K, "gradient bound of the loss for ||x|| <= 1");
  report.set(Calibrated::GradientTolerance, tau,
             "τ: the released minimizer's (projected) gradient norm is at most τ (fixed in advance)");
  report.set(Calibrated::Delta, Delta,
             std::string(o.learner.kind == ModelKind::Lmgc ? "Δ = 2K/(n·λ₂)" : "Δ = 2K/(n·λ)") +
                 " + 2·(distance to the exact minimizer allowed by τ)");
  if (p.releases > 1) {
    report.set(Calibrated::Releases, releases, "one-vs-rest: one release per class");
    report.set("epsilon_per_release", epsilonEach, "ε/C (basic composition)");
    if (o.delta > 0) report.set("delta_per_release", deltaEach, "δ/C (basic composition)");
  }
  std::string guarantee;
  if (o.family == NoiseFamily::L2Laplace) {
    const double beta = epsilonEach / Delta;
    report.setNoiseScale(beta, "β = ε/Δ");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, p.dimension);
    guarantee = std::string("(") + privacy::formatNumber(o.epsilon) + ", 0)-DP";
  } else {
    auto sigma = privacy::analyticGaussianSigma(epsilonEach, deltaEach, Delta);
    if (!sigma) return sigma.error();
    report.setNoiseScale(sigma.value(), "analytic Gaussian σ(ε, δ, Δ) (Balle & Wang 2018)");
    // C Gaussian releases of sensitivity Δ each: μ-GDP with μ = √C·Δ/σ (the σ before any
    // release enlargement, which only lowers μ).
    privacy::ExactPrivacy exact;
    exact.gaussianMu = std::sqrt(releases) * Delta / sigma.value();
    report.exactPrivacy = exact;
    report.expectedNoiseNorm = privacy::expectedNormGaussian(sigma.value(), p.dimension);
    guarantee = std::string("(") + privacy::formatNumber(o.epsilon) + ", " + privacy::formatNumber(o.delta) + ")-DP";
  }
  report.set("expected_noise_norm", report.expectedNoiseNorm,
             o.family == NoiseFamily::L2Laplace ? "E‖b‖ = m/β" : "E‖b‖ = σ√2·Γ((m+1)/2)/Γ(m/2)");
  report.statement = guarantee + " under substitution of one training example: output perturbation of the exact "
                     "regularized minimizer (sensitivity " + privacy::formatNumber(Delta) + ")" +
                     (p.releases > 1 ? ", one release per class at ε/C" : "");
  enlargeNoiseForRelease(report, noise);  // release mode: the scale used, reported (release_granularity.h)
  return report;
}

static Result<PrivateModel> trainOutput(const MechanismOptions& o, const Dataset& train,
                                 privacy::NoiseSource& noise, const TrainControl& control) {
  const ProblemShape shape{train.rows(), train.features(), train.classes()};
  auto calibrated = calibrateOutput(o, shape, noise.kind());
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  const double allowed = report.calibrated(Calibrated::GradientTolerance);
  const TrainControl exact = sharingRows(exactMinimizerControl(control, allowed), train.X);
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  const std::shared_ptr<const Model> model = made.value();
  const Index d = train.features();

  PrivateModel out;
  if (const auto* ovr = dynamic_cast<const OneVsRestModel*>(model.get())) {
    // C releases, each the exact minimizer of one binary problem plus its own draw.
    const auto binary = std::make_shared<const BinaryLinearModel>(ovr->binaryModel());
    out.trained.model = model;
    out.trained.theta = Eigen::VectorXd::Zero(model->parameterCount());
    for (Index c = 0; c < train.classes(); ++c) {
      TrainControl each = exact;
      if (control.warmStart) each.warmStart = control.warmStart->segment(c * d, d);
      const Eigen::VectorXi yc = OneVsRestModel::binaryLabels(train.y, static_cast<int>(c));
      auto part = minimizeObjective(binary, train.X, yc, {LossScale::Mean, o.learner.lambda, {}}, each);
      if (!part) return part.error();
      if (auto status = requireExactMinimizer(part.value().summary, allowed, kWhat); !status) return status.error();
      auto draw = drawReportedNoise(report, noise);
      if (!draw) return draw.error();
      out.trained.theta.segment(c * d, d) = part.value().theta + draw.value().noise;
      report.noiseNorms.push_back(draw.value().norm);
      report.gradientNorm = std::max(report.gradientNorm, part.value().summary.gradientNorm);
      out.trained.summary.iterations += part.value().summary.iterations;
      out.trained.classSummaries.push_back(part.value().summary);
    }
  } else {
    const auto* lmgc = dynamic_cast<const LmgcModel*>(model.get());
    ObjectiveTerms terms{LossScale::Mean, o.learner.lambda, {}};
    if (lmgc) {
      // Mean scale: (1/n)(Σℓ + λΣtr Ψ_c) + (λ₂/2)‖Φ‖²_F.
      terms.quadratic = o.lmgcStrongConvexity;
      terms.linear = lmgc->traceRegularizer(o.learner.lambda) / static_cast<double>(train.rows());
    }
    auto trained = minimizeObjective(model, train.X, train.y, terms, exact);
    if (!trained) return trained.error();
    if (auto status = requireExactMinimizer(trained.value().summary, allowed, kWhat); !status) return status.error();
    out.trained = std::move(trained).value();
    report.gradientNorm = out.trained.summary.gradientNorm;
    auto draw = drawReportedNoise(report, noise);
    if (!draw) return draw.error();
    report.noiseNorms.push_back(draw.value().norm);
    if (lmgc) {
      // One joint draw over the symmetric space of all classes (all components), then back
      // onto the cone.
      const Index k = d + 1, block = symmetricBasisDimension(k);
      std::vector<Eigen::MatrixXd> phis;
      for (Index b = 0; b < lmgc->blocks(); ++b)
        phis.push_back(Eigen::MatrixXd(lmgc->blockMatrix(out.trained.theta, b)) +
                       symmetricFromCoefficients(draw.value().noise.segment(b * block, block), k));
      out.trained.theta = lmgc->packParameters(phis);
      lmgc->project(out.trained.theta);
    } else {
      out.trained.theta += draw.value().noise;
    }
  }
  // Every released minimizer reached τ (requireExactMinimizer), the tolerance this
  // calibration assumed: converged by definition.
  report.termination = Termination::Converged;
  if (auto status = finishRelease(report, noise, out.trained.theta, perCoordinateScale(report)); !status)
    return status.error();
  out.report = std::move(report);
  return out;
}

}  // namespace dpstudio::mech::detail

namespace dpstudio::mech {
namespace {

class OutputPerturbation final : public TrainingMechanism {
 public:
  std::string key() const override { return "output"; }
  std::string title() const override { return "output perturbation"; }
  Status validate(const MechanismOptions& o) const override {
    if (o.learner.kind == ModelKind::Lmgc && !(std::isfinite(o.lmgcStrongConvexity) && o.lmgcStrongConvexity > 0))
      return detail::invalidOption("the strong-convexity weight lambda2 must be finite and > 0", "lambda2");
    return Ok{};
  }
  Result<MechanismReport> calibrate(const MechanismOptions& o, const ProblemShape& s,
                                    privacy::NoiseKind noise) const override {
    return detail::calibrateOutput(o, s, noise);
  }
  Result<PrivateModel> train(const MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                             const TrainControl& control, const Eigen::VectorXd*) const override {
    return detail::trainOutput(o, rows, noise, control);
  }
};

}  // namespace

const TrainingMechanism& outputPerturbation() {
  static const OutputPerturbation mechanism;
  return mechanism;
}

}  // namespace dpstudio::mech
