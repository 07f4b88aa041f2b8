#include "core/experiment/plan_run.h"

#include <chrono>

#include "core/mechanisms/tuning.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/paillier_aggregation.h"

namespace dpstudio::experiment {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TrainControl controlFor(const SolverSettings& solver, const Progress& progress, double from, double to) {
  TrainControl control;
  control.tolerance = solver.tolerance;
  control.maxIterations = solver.maxIterations;
  control.progress = progressSegment(progress, from, to);
  return control;
}

Result<FittedModel> trainBaseline(const LearnerSpec& learner, const SolverSettings& solver, const PreparedData& data,
                                  const Progress& progress, double from, double to) {
  const Dataset& train = data.train;
  const auto start = std::chrono::steady_clock::now();
  auto trained = trainModel(learner, train.X, train.y, train.classes(), controlFor(solver, progress, from, to));
  if (!trained) return trained.error();
  FittedModel fitted;
  fitted.seconds = secondsSince(start);
  fitted.model = std::move(trained).value();
  fitted.trainAccuracy = accuracy(*fitted.model.model, fitted.model.theta, train.X, train.y);
  fitted.testAccuracy = accuracyOn(fitted.model, fitted.model.theta, data.test);
  return fitted;
}

Result<ModelRelease> trainRelease(const TrainingMechanism& plan, const SolverSettings& solver,
                                  const PreparedData& data, const FittedModel& baseline,
                                  privacy::NoiseSource& noise, const Progress& progress, double from) {
  TrainControl control = controlFor(solver, progress, from, 0.97);
  // Output perturbation releases the exact minimizer whatever the start; starting at the
  // non-private solution only gets there sooner. The other mechanisms ignore it (their
  // start must not depend on the data).
  if (plan.options.kind == mech::MechanismKind::Output && plan.tuneLambdas.empty() && baseline.model.model)
    control.warmStart = baseline.model.theta;
  const auto start = std::chrono::steady_clock::now();
  auto trained = plan.tuneLambdas.empty()
                     ? mech::trainPrivately(plan.options, data.train, noise, control)
                     : mech::tunePrivately({plan.options, plan.tuneLambdas}, data.train, noise, control);
  if (!trained) return trained.error();
  ModelRelease release;
  release.seconds = secondsSince(start);
  release.model = std::move(trained.value().trained);
  release.report = std::move(trained.value().report);
  release.noise = noise.provenance();
  const Model& model = *release.model.model;
  release.trainAccuracy = accuracy(model, release.model.theta, data.train.X, data.train.y);
  release.testAccuracy = accuracyOn(release.model, release.model.theta, data.test);
  return release;
}

// F: θ* is the run's non-private model; G: the teachers (the caller trains the all-rows
// baseline after them).
Status trainPredictor(PlanRun& run, const PrivatePrediction& plan, const SolverSettings& solver,
                      const PreparedData& data, const Progress& progress, double from, double to) {
  const predict::PredictionOptions& options = plan.options;
  const Dataset& train = data.train;
  const TrainControl control = controlFor(solver, progress, from, to);
  const auto start = std::chrono::steady_clock::now();
  if (options.kind == predict::PredictionKind::Sensitivity) {
    auto predictor = predict::PrivatePredictor::train(options, train, control);
    if (!predictor) return predictor.error();
    auto model = makeModel(options.learner, train.features(), train.classes());
    if (!model) return model.error();
    FittedModel& baseline = run.baseline;
    baseline.model.model = model.value();
    baseline.model.theta = predictor.value().theta();
    baseline.model.summary = OptimizeSummary{};
    baseline.trainAccuracy = accuracy(*baseline.model.model, baseline.model.theta, train.X, train.y);
    baseline.testAccuracy = accuracyOn(baseline.model, baseline.model.theta, data.test);
    baseline.seconds = secondsSince(start);
    run.prediction = PredictorRelease{std::move(predictor).value(), baseline.seconds};
    return Ok{};
  }
  auto predictor = predict::SubsampleAggregate::train(options, train, control);
  if (!predictor) return predictor.error();
  run.prediction = PredictorRelease{std::move(predictor).value(), secondsSince(start)};
  return Ok{};
}

Status trainMultipartyRelease(PlanRun& run, const Multiparty& plan, const SolverSettings& solver,
                              const PreparedData& data, privacy::NoiseSource& noise, const Progress& progress,
                              double from, double to, const RunControl& control) {
  const Dataset& train = data.train;
  const auto start = std::chrono::steady_clock::now();
  // The protocol options.protocol names, with the abort hook when asked for.
  multiparty::PaillierProtocolSettings paillierSettings;
  paillierSettings.abortedTranscript = control.abortedTranscript;
  const multiparty::PaillierProtocol paillier(paillierSettings);
  const bool hooked = plan.options.protocol == multiparty::AggregationProtocolKind::Paillier &&
                      static_cast<bool>(control.abortedTranscript);
  auto trained = multiparty::trainMultiparty(plan.options, train, noise, controlFor(solver, progress, from, to),
                                             hooked ? &paillier : nullptr);
  if (!trained) return trained.error();
  multiparty::MultipartyResult& r = trained.value();
  const double seconds = secondsSince(start);

  // The all-data non-private model of paper 004's Figure 2 is this run's reference.
  FittedModel& baseline = run.baseline;
  baseline.model = TrainedModel{r.released.model, r.allData, OptimizeSummary{}};
  baseline.trainAccuracy = accuracy(*r.released.model, r.allData, train.X, train.y);
  baseline.testAccuracy = accuracyOn(r.released, r.allData, data.test);
  baseline.seconds = seconds;

  ModelRelease release;
  release.seconds = seconds;
  release.trainAccuracy = accuracy(*r.released.model, r.released.theta, train.X, train.y);
  release.testAccuracy = accuracyOn(r.released, r.released.theta, data.test);
  release.noise = noise.provenance();
  release.model = std::move(r.released);
  release.report = std::move(r.report);

  MultipartyDiagnostics diagnostics;
  diagnostics.partySizes = std::move(r.partySizes);
  diagnostics.distance = r.distance;
  diagnostics.bound = r.bound;
  diagnostics.average = r.average;
  diagnostics.transcriptJson = std::move(r.transcriptJson);
  if (r.allDataPrivate) {
    MultipartyDiagnostics::AllDataBaseline allData;
    allData.trainAccuracy = accuracy(*release.model.model, r.allDataPrivate->theta, train.X, train.y);
    allData.testAccuracy = accuracyOn(release.model, r.allDataPrivate->theta, data.test);
    allData.report = std::move(r.allDataPrivate->report);
    allData.report.noiseSource = release.noise.describe();
    diagnostics.allDataPrivate = std::move(allData);
  }
  run.release = std::move(release);
  run.multiparty = std::move(diagnostics);
  return Ok{};
}

}  // namespace

const mech::MechanismReport& PredictorRelease::report() const {
  return std::visit([](const auto& p) -> const mech::MechanismReport& { return p.report(); }, predictor);
}

long long PredictorRelease::budget() const {
  return std::visit([](const auto& p) { return p.budget(); }, predictor);
}

long long PredictorRelease::remaining() const {
  return std::visit([](const auto& p) { return p.remaining(); }, predictor);
}

PredictorRelease PredictorRelease::freshRepetition() const {
  return std::visit([this](const auto& p) { return PredictorRelease{p.freshRepetition(), seconds}; }, predictor);
}

Eigen::VectorXi PredictorRelease::nonPrivateLabels(const Eigen::MatrixXd& X) const {
  if (const auto* sensitivity = std::get_if<predict::PrivatePredictor>(&predictor))
    return sensitivity->model().predict(sensitivity->theta(), X);
  // The plurality of the teachers' votes (ties to the lower class).
  const Eigen::MatrixXi votes = std::get<predict::SubsampleAggregate>(predictor).teachers().votes(X);
  Eigen::VectorXi labels(X.rows());
  for (Index i = 0; i < X.rows(); ++i) votes.row(i).maxCoeff(&labels[i]);
  return labels;
}

std::optional<double> accuracyOn(const TrainedModel& model, const Eigen::VectorXd& theta, const Dataset& data) {
  if (data.rows() == 0) return std::nullopt;
  return accuracy(*model.model, theta, data.X, data.y);
}

Progress progressSegment(const Progress& progress, double from, double to) {
  return Progress([progress, from, to](double f) { progress.report(from + (to - from) * f); }, progress.stopToken());
}

Result<PlanRun> runPlan(const PrivacyPlan& plan, const PreparedData& data, privacy::NoiseSource& noise,
                        const RunControl& control) {
  if (auto status = plan.validate(); !status) return status.error();
  const Progress& progress = control.progress;
  const SolverSettings& solver = plan.solver;
  const FittedModel* reuse = control.reuseBaseline;
  PlanRun run;
  // The non-private model, unless it is lent by the caller or only a comparison the caller
  // does not want.
  auto takeBaseline = [&](double from, double to, bool wanted) -> Status {
    if (reuse) run.baseline = *reuse;
    if (reuse || !wanted) return Ok{};
    auto baseline = trainBaseline(plan.learner(), solver, data, progress, from, to);
    if (!baseline) return baseline.error();
    run.baseline = std::move(baseline).value();
    return Ok{};
  };

  if (const auto* prediction = std::get_if<PrivatePrediction>(&plan.choice)) {
    if (prediction->options.kind == predict::PredictionKind::Sensitivity) {
      // θ* is the baseline: no other model to train.
      if (auto status = trainPredictor(run, *prediction, solver, data, progress, 0.0, 0.97); !status)
        return status.error();
    } else {
      // The teachers first, so that Cancel stops them; the all-rows baseline after.
      const bool wanted = control.trainBaseline;
      const double teachersTo = reuse || !wanted ? 0.97 : 0.8;
      if (auto status = trainPredictor(run, *prediction, solver, data, progress, 0.0, teachersTo); !status)
        return status.error();
      if (progress.cancelled()) return Error::cancelled();
      if (auto status = takeBaseline(teachersTo, 0.97, wanted); !status) return status.error();
    }
  } else if (const auto* parties = std::get_if<Multiparty>(&plan.choice)) {
    if (auto status = trainMultipartyRelease(run, *parties, solver, data, noise, progress, 0.0, 0.97, control); !status)
      return status.error();
  } else {
    const auto* mechanism = std::get_if<TrainingMechanism>(&plan.choice);
    const bool wanted = !mechanism || control.trainBaseline;
    const double from = reuse || !wanted ? 0.0 : mechanism ? 0.5 : 0.97;
    if (auto status = takeBaseline(0.0, from, wanted); !status) return status.error();
    if (mechanism) {
      if (progress.cancelled()) return Error::cancelled();
      auto release = trainRelease(*mechanism, solver, data, run.baseline, noise, progress, from);
      if (!release) return release.error();
      run.release = std::move(release).value();
    }
  }
  progress.report(1.0);
  return run;
}

}  // namespace dpstudio::experiment
