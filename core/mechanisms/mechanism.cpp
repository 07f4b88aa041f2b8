#include "core/mechanisms/mechanism.h"

#include <cmath>
#include <cstdlib>

#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/privacy/release_granularity.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech {

using detail::invalidOption;

const TrainingMechanism& MechanismKind::mechanism() const {
  if (!implementation_) std::abort();  // None has no implementation: a programming error
  return implementation_();
}

std::string mechanismName(MechanismKind kind) { return kind.isNone() ? std::string("none") : kind.mechanism().key(); }

std::string calibrationName(Calibration calibration) {
  return calibration == Calibration::Corrected ? "corrected" : "published";
}

std::optional<Calibration> parseCalibration(const std::string& name) {
  if (name == "corrected") return Calibration::Corrected;
  if (name == "published" || name == "as-published") return Calibration::Published;
  return std::nullopt;
}

std::string noiseFamilyName(NoiseFamily family) {
  return family == NoiseFamily::L2Laplace ? "l2-laplace" : "gaussian";
}

std::optional<NoiseFamily> parseNoiseFamily(const std::string& name) {
  if (name == "l2-laplace" || name == "laplace") return NoiseFamily::L2Laplace;
  if (name == "gaussian") return NoiseFamily::Gaussian;
  return std::nullopt;
}

Status MechanismOptions::validate() const {
  if (auto status = learner.validate(); !status) return status.error();
  if (kind.isNone()) return Ok{};
  const TrainingMechanism& mechanism = kind.mechanism();
  if (auto status = privacy::requirePositive("epsilon", epsilon); !status) return status.error();
  if (!(delta >= 0 && delta < 1)) return invalidOption("delta must be in [0, 1), found " + privacy::formatNumber(delta), "delta");
  if (mechanism.needsDelta(*this) && !(delta > 0))
    return invalidOption(family == NoiseFamily::Gaussian ? "Gaussian noise needs delta > 0 (use l2-laplace for delta = 0)"
                                                   : mechanism.title() + " needs delta > 0",
                   "delta");
  if (auto status = mechanism.validate(*this); !status) return status.error();
  if (calibration == Calibration::Published && !mechanism.offersPublishedCalibration())
    return invalidOption("only dplmgc has an 'as published' calibration among the training mechanisms", "calibration");
  return Ok{};
}

namespace detail {

Status requireUnitBall(const Dataset& train) {
  const double largest = train.maxRowNorm();
  if (largest > 1.0 + 1e-9)
    // The message must not print `largest`: it is read off the private rows, and pasting it
    // back as R would give a run labelled (ε, 0)-DP with the bound itself unaccounted for.
    return Error{ErrorKind::InvalidPrivacy, std::string(kNormBoundHint), train.provenance.source, 0, "norm-bound"};
  return Ok{};
}

Result<UnitBallRows> unitBallRows(const Dataset& train) {
  if (auto status = requireUnitBall(train); !status) return status.error();
  UnitBallRows out;
  if (!(train.maxRowNorm() > 1.0)) return out;
  out.clipped = train;
  out.count = clipRowsToUnitBall(out.clipped->X);
  return out;
}

void noteClippedRows(MechanismReport& report, Index count) {
  if (count == 0) return;
  report.set("rows_clipped", static_cast<double>(count),
             "rows with 1 < ‖x‖ ≤ 1 + 1e-9 (rounding) clipped to ‖x‖ ≤ 1 before training, so that Δ holds");
}

MechanismReport baseReport(const MechanismOptions& options, NoiseLaw noise) {
  MechanismReport report;
  report.mechanism = mechanismName(options.kind);
  report.model = modelKindName(options.learner.kind);
  if (!options.kind.isNone()) report.calibration = options.calibration;
  report.noise = noise;
  report.epsilon = options.epsilon;
  report.delta = options.delta;
  return report;
}

TrainControl perturbedProblemStart(const TrainControl& control, Index parameters,
                                   const Eigen::VectorXd* experimentStart) {
  TrainControl start = control;
  start.warmStart = experimentStart ? *experimentStart : Eigen::VectorXd::Zero(parameters);
  return start;
}

Eigen::VectorXd shiftedSolution(const Eigen::VectorXd& solution, double baselineQuadratic,
                                const ObjectiveTerms& terms) {
  Eigen::VectorXd start = baselineQuadratic * solution;
  if (terms.linear.size() > 0) start -= terms.linear;
  return start / terms.quadratic;
}

void noteConvergence(MechanismReport& report, const OptimizeSummary& summary) {
  if (!report.termination || static_cast<int>(summary.termination) > static_cast<int>(*report.termination))
    report.termination = summary.termination;
  if (summary.termination == Termination::Converged) return;
  const std::string note = "NOT converged: the optimizer stopped before its tolerance (" +
                           terminationName(summary.termination) + ", gradient norm " +
                           privacy::formatNumber(summary.gradientNorm) +
                           "), so the release is an approximate minimizer; the guarantee is proven for the exact "
                           "minimizer of the perturbed objective";
  if (report.warning.find(note) == std::string::npos)
    report.warning += (report.warning.empty() ? "" : "; ") + note;
}

Status finishRelease(MechanismReport& report, privacy::NoiseSource& source,
                     Eigen::Ref<Eigen::VectorXd> released, double noiseScale) {
  auto granularity = privacy::applyReleaseGranularity(source, released, noiseScale);
  if (!granularity) return granularity.error();
  report.releaseGranularity = std::max(report.releaseGranularity, granularity.value());
  report.noiseSource = source.provenance().describe();
  const auto Delta = report.find(Calibrated::Delta);
  if (granularity.value() > 0 && report.find(Calibrated::ReleaseNoiseFactor) && Delta &&
      !privacy::floatErrorCovered(*Delta, report.noiseDimension, released.cwiseAbs().maxCoeff())) {
    const std::string note = "the released magnitude is so large against the sensitivity that the float error of "
                             "θ + b exceeds what the release-mode noise factor covers (release_granularity.h)";
    if (report.warning.find(note) == std::string::npos)
      report.warning += (report.warning.empty() ? "" : "; ") + note;
  }
  return Ok{};
}

}  // namespace detail

void enlargeNoiseForRelease(MechanismReport& report, const privacy::NoiseSource& source) {
  enlargeNoiseForRelease(report, source.kind());
}

void enlargeNoiseForRelease(MechanismReport& report, privacy::NoiseKind noise) {
  if (noise != privacy::NoiseKind::Release) return;
  const double F = privacy::kReleaseNoiseFactor;
  const auto formulaOf = [&](const std::string& key) {
    for (const auto& d : report.rows())
      if (d.key == key) return d.formula;
    return std::string();
  };
  const std::string scaleFormula = formulaOf(noiseScaleKey(report.noise));
  // β is an inverse scale (density ∝ e^{−β‖b‖}), σ a scale: both changes widen the noise by F.
  if (report.noise == NoiseLaw::Gaussian)
    report.setNoiseScale(report.noiseScale() * F, scaleFormula + ", × F (release mode)");
  else if (report.noise == NoiseLaw::L2Laplace)
    report.setNoiseScale(report.noiseScale() / F, scaleFormula + ", ÷ F (release mode)");
  else if (report.noise == NoiseLaw::LaplacePerCoordinate)
    report.setNoiseScale(report.noiseScale() * F, scaleFormula + ", × F (release mode)");
  else
    return;
  report.expectedNoiseNorm *= F;
  report.set("expected_noise_norm", report.expectedNoiseNorm, formulaOf("expected_noise_norm"));
  report.set(Calibrated::ReleaseNoiseFactor, F,
             "F = 1 + 2^-10: release mode enlarges the noise scale to cover the float error of θ + b "
             "(release_granularity.h)");
}

Result<MechanismReport> calibrate(const MechanismOptions& options, const ProblemShape& shape,
                                  privacy::NoiseKind noise) {
  if (auto status = options.validate(); !status) return status.error();
  if (shape.rows < 1 || shape.features < 1 || shape.classes < 2)
    return invalidOption("the problem needs n >= 1, d >= 1 and C >= 2", "n");
  if (options.kind.isNone()) {
    MechanismReport report = detail::baseReport(options, NoiseLaw::None);
    report.statement = "not private: trained without a privacy mechanism";
    return report;
  }
  return options.kind.mechanism().calibrate(options, shape, noise);
}

bool isDiagnosticValue(const std::string& key) {
  return key == "rows_clipped" || key == "mean_step_noise_norm" || key == "distance_to_all_data";
}

void withholdDrawnNoise(MechanismReport& report) {
  report.noiseNorms.clear();
  report.erase("mean_step_noise_norm");
}

namespace {

Result<PrivateModel> trainPrivatelyImpl(const MechanismOptions& options, const Dataset& train,
                                        privacy::NoiseSource& noise, const TrainControl& control,
                                        const Eigen::VectorXd* experimentStart) {
  if (auto status = options.validate(); !status) return status.error();
  if (options.kind.isNone()) {
    auto trained = trainModel(options.learner, train.X, train.y, train.classes(), control);
    if (!trained) return trained.error();
    auto report = calibrate(options, {train.rows(), train.features(), train.classes()});
    report.value().gradientNorm = trained.value().summary.gradientNorm;
    return PrivateModel{std::move(trained).value(), std::move(report).value()};
  }
  auto bounded = detail::unitBallRows(train);
  if (!bounded) return bounded.error();
  const Dataset& rows = bounded.value().rows(train);
  auto trained = options.kind.mechanism().train(options, rows, noise, control, experimentStart);
  if (trained) {
    detail::noteClippedRows(trained.value().report, bounded.value().count);
    if (noise.kind() == privacy::NoiseKind::Release) withholdDrawnNoise(trained.value().report);
  }
  return trained;
}

}  // namespace

Result<PrivateModel> trainPrivately(const MechanismOptions& options, const Dataset& train,
                                    privacy::NoiseSource& noise, const TrainControl& control) {
  return trainPrivatelyImpl(options, train, noise, control, nullptr);
}

Result<PrivateModel> trainPrivatelyFromSolution(const MechanismOptions& options, const Dataset& train,
                                                privacy::NoiseSource& noise, const TrainControl& control,
                                                const Eigen::VectorXd& nonPrivate) {
  if (noise.kind() == privacy::NoiseKind::Release)
    return invalidOption("a release starts its perturbed problem from zero: no warm start with release noise",
                   "warm-start");
  if (options.kind.isNone() || !options.kind.mechanism().perturbsObjective()) return trainPrivatelyImpl(options, train, noise, control, nullptr);
  auto model = makeModel(options.learner, train.features(), train.classes());
  if (!model) return model.error();
  if (nonPrivate.size() != model.value()->parameterCount())
    return invalidOption("the warm start has the wrong number of parameters", "warm-start");
  auto trained = trainPrivatelyImpl(options, train, noise, control, &nonPrivate);
  if (trained) trained.value().report.warmStarted = true;
  return trained;
}

}  // namespace dpstudio::mech
