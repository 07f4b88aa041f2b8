// B. Objective perturbation for binary models (paper 002 Alg. 2; docs/algorithms.md §3 B).
//
// Mean scale J(f) = (1/n)Σℓ(y fᵀx) + (Λ/2)‖f‖², c = sup ℓ'' (1/4 logistic, 1/(2h) Huber).
//   ε' = ε − log(1 + 2c/(nΛ) + c²/(n²Λ²));
//   ε' > 0: Δ = 0;  otherwise Δ = c/(n(e^{ε/4} − 1)) − Λ and ε' = ε/2;
//   b ~ ℓ2-Laplace(ε'/2, d); release argmin J(f) + (1/n)bᵀf + (Δ/2)‖f‖².
// One-vs-rest: C such releases at ε/C each.

#include <cmath>

#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/models/linear.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {
namespace {

struct ObjectiveConstants {
  double epsilonPrime = 0;
  double Delta = 0;
};

ObjectiveConstants constantsFor(double epsilon, double n, double Lambda, double c) {
  ObjectiveConstants k;
  const double ratio = c / (n * Lambda);
  k.epsilonPrime = epsilon - std::log1p(2.0 * ratio + ratio * ratio);
  if (k.epsilonPrime <= 0) {
    k.Delta = c / (n * std::expm1(epsilon / 4.0)) - Lambda;
    k.epsilonPrime = epsilon / 2.0;
  }
  return k;
}

double curvature(const MechanismOptions& o) {
  return o.learner.kind == ModelKind::HuberSvm ? 1.0 / (2.0 * o.learner.huber) : 0.25;
}

}  // namespace

static Result<MechanismReport> calibrateObjective(const MechanismOptions& o, const ProblemShape& s) {
  MechanismReport report = baseReport(o, NoiseLaw::L2Laplace);
  const Index releases = s.classes == 2 ? 1 : s.classes;
  const double epsilonEach = o.epsilon / static_cast<double>(releases);
  const double c = curvature(o);
  const ObjectiveConstants k = constantsFor(epsilonEach, static_cast<double>(s.rows), o.learner.lambda, c);
  const double beta = k.epsilonPrime / 2.0;
  report.noiseDimension = s.features;
  report.set("c", c, o.learner.kind == ModelKind::HuberSvm ? "c = 1/(2h)" : "c = 1/4 (logistic)");
  if (releases > 1) {
    report.set(Calibrated::Releases, static_cast<double>(releases), "one-vs-rest: one release per class");
    report.set("epsilon_per_release", epsilonEach, "ε/C (basic composition)");
  }
  report.set("epsilon_prime", k.epsilonPrime, "ε' = ε − log(1 + 2c/(nΛ) + c²/(n²Λ²)), or ε/2 when that is ≤ 0");
  report.set(Calibrated::Delta, k.Delta, "Δ = 0 if ε' > 0, else c/(n(e^{ε/4} − 1)) − Λ");
  report.setNoiseScale(beta, "β = ε'/2");
  report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, s.features);
  report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖b‖ = d/β");
  report.statement = "(" + privacy::formatNumber(o.epsilon) +
                     ", 0)-DP under substitution of one training example: objective perturbation "
                     "(Chaudhuri, Monteleoni & Sarwate 2011, Alg. 2)" +
                     (releases > 1 ? ", one release per class at ε/C" : "");
  return report;
}

static Result<PrivateModel> trainObjective(const MechanismOptions& o, const Dataset& train,
                                    privacy::NoiseSource& noise, const TrainControl& control,
                                    const Eigen::VectorXd* experimentStart) {
  const ProblemShape shape{train.rows(), train.features(), train.classes()};
  auto calibrated = calibrateObjective(o, shape);
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  const std::shared_ptr<const Model> model = made.value();
  const double n = static_cast<double>(train.rows());
  const Index d = train.features();
  const double beta = report.noiseScale();
  const double Delta = report.calibrated(Calibrated::Delta);

  const TrainControl shared = sharingRows(control, train.X);  // the C releases' fits read the same rows
  // One binary release: argmin (1/n)Σℓ + ((Λ + Δ)/2)‖f‖² + (1/n)bᵀf; a sweep trial starts
  // from class c's part of experimentStart (all of it for a binary model), shifted.
  auto release = [&](const std::shared_ptr<const Model>& binary, const Eigen::VectorXi& labels,
                     Index c) -> Result<TrainedModel> {
    auto draw = privacy::drawL2Laplace(noise, beta, d);
    if (!draw) return draw.error();
    report.noiseNorms.push_back(draw.value().norm);
    ObjectiveTerms terms{LossScale::Mean, o.learner.lambda + Delta, draw.value().noise / n};
    std::optional<Eigen::VectorXd> start;
    if (experimentStart) start = shiftedSolution(experimentStart->segment(c * d, d), o.learner.lambda, terms);
    auto trained = minimizeObjective(binary, train.X, labels, terms, perturbedProblemStart(shared, d, start ? &*start : nullptr));
    if (trained) {
      report.gradientNorm = std::max(report.gradientNorm, trained.value().summary.gradientNorm);
      noteConvergence(report, trained.value().summary);
    }
    return trained;
  };

  PrivateModel out;
  if (const auto* ovr = dynamic_cast<const OneVsRestModel*>(model.get())) {
    const auto binary = std::make_shared<const BinaryLinearModel>(ovr->binaryModel());
    out.trained.model = model;
    out.trained.theta = Eigen::VectorXd::Zero(model->parameterCount());
    for (Index c = 0; c < train.classes(); ++c) {
      auto part = release(binary, OneVsRestModel::binaryLabels(train.y, static_cast<int>(c)), c);
      if (!part) return part.error();
      out.trained.theta.segment(c * d, d) = part.value().theta;
      out.trained.classSummaries.push_back(part.value().summary);
      OptimizeSummary& total = out.trained.summary;
      total.iterations += part.value().summary.iterations;
      total.gradientNorm = std::max(total.gradientNorm, part.value().summary.gradientNorm);
      if (static_cast<int>(part.value().summary.termination) > static_cast<int>(total.termination))
        total.termination = part.value().summary.termination;
    }
  } else {
    auto trained = release(model, train.y, 0);
    if (!trained) return trained.error();
    out.trained = std::move(trained).value();
  }
  if (auto status = finishRelease(report, noise, out.trained.theta,
                                  report.expectedNoiseNorm / (n * (o.learner.lambda + Delta) * std::sqrt(static_cast<double>(d))));
      !status)
    return status.error();
  out.report = std::move(report);
  return out;
}

}  // namespace dpstudio::mech::detail

namespace dpstudio::mech {
namespace {

class ObjectivePerturbation final : public TrainingMechanism {
 public:
  std::string key() const override { return "objective"; }
  std::string title() const override { return "objective perturbation"; }
  Status validate(const MechanismOptions& o) const override {
    if (!detail::isBinaryLinear(o.learner.kind))
      return detail::invalidOption("objective perturbation is for logistic regression and the Huber SVM; use loss "
                                   "perturbation for softmax and dplmgc for LMGC",
                                   "mechanism");
    if (o.family != NoiseFamily::L2Laplace)
      return detail::invalidOption("objective perturbation draws l2-Laplace noise only (Chaudhuri et al. Alg. 2)",
                                   "distribution");
    return Ok{};
  }
  bool perturbsObjective() const override { return true; }
  Result<MechanismReport> calibrate(const MechanismOptions& o, const ProblemShape& s,
                                    privacy::NoiseKind) const override {
    return detail::calibrateObjective(o, s);
  }
  Result<PrivateModel> train(const MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                             const TrainControl& control, const Eigen::VectorXd* start) const override {
    return detail::trainObjective(o, rows, noise, control, start);
  }
};

}  // namespace

const TrainingMechanism& objectivePerturbation() {
  static const ObjectivePerturbation mechanism;
  return mechanism;
}

}  // namespace dpstudio::mech
