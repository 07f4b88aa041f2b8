#include "core/experiment/plan_run.h"

#include <chrono>

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/exact_minimizer.h"
#include "core/mechanisms/selection.h"
#include "core/mechanisms/tuning.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/paillier_aggregation.h"

namespace dpstudio::experiment {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What every stage of one run shares.
struct Run {
  const PrivacyPlan& plan;
  const RunData& data;
  privacy::NoiseSource& noise;
  const RunControl& control;

  // The optimizer's settings for a stage that takes [from, to] of the progress bar.
  TrainControl train(double from, double to) const {
    TrainControl out;
    out.tolerance = plan.solver.tolerance;
    out.maxIterations = plan.solver.maxIterations;
    out.progress = progressSegment(control.progress, from, to);
    out.rows = data.trainRows;
    return out;
  }
  // accuracy on the training rows, when the caller wants the diagnostics.
  double trainAccuracy(const Model& model, const Eigen::VectorXd& theta) const {
    return control.diagnostics ? accuracy(model, theta, data.train.X, data.train.y) : 0.0;
  }
};

// The provider's result, or the computation's own when there is no provider.
template <class T>
Result<std::shared_ptr<const T>> shared(const WorkProvider<T>& provider, const std::function<Result<T>()>& compute) {
  if (provider) return provider(compute);
  auto value = compute();
  if (!value) return value.error();
  return std::make_shared<const T>(std::move(value).value());
}

Result<FittedModel> trainBaseline(const Run& run, const LearnerSpec& learner, double from, double to) {
  const Dataset& train = run.data.train;
  const auto start = std::chrono::steady_clock::now();
  auto trained = trainModel(learner, train.X, train.y, train.classes(), run.train(from, to));
  if (!trained) return trained.error();
  FittedModel fitted;
  fitted.seconds = secondsSince(start);
  fitted.model = std::move(trained).value();
  fitted.trainAccuracy = run.trainAccuracy(*fitted.model.model, fitted.model.theta);
  fitted.testAccuracy = accuracyOn(fitted.model, fitted.model.theta, run.data.test);
  return fitted;
}

// The non-private model of plan.learner() into out.baseline: the caller's when it gives one,
// else trained when `wanted`.
Status takeBaseline(const Run& run, PlanRun& out, double from, double to, bool wanted) {
  const WorkProvider<FittedModel>& provider = run.control.reuse.baseline;
  if (!provider && !wanted) return Ok{};
  auto baseline = shared<FittedModel>(provider, [&] { return trainBaseline(run, run.plan.learner(), from, to); });
  if (!baseline) return baseline.error();
  out.baseline = *baseline.value();
  return Ok{};
}

// Output perturbation's experiment start: the baseline polished to the τ its calibration
// fixes (mech::exactMinimizerControl), from the baseline.
Result<Eigen::VectorXd> polishedBaseline(const Run& run, const TrainingMechanism& plan, const TrainControl& control) {
  const Dataset& train = run.data.train;
  auto calibrated = mech::calibrate(plan.options, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  const TrainControl polish =
      mech::exactMinimizerControl(control, calibrated.value().calibrated(mech::Calibrated::GradientTolerance));
  auto trained = trainModel(plan.options.learner, train.X, train.y, train.classes(), polish);
  if (!trained) return trained.error();
  return std::move(trained.value().theta);
}

Result<ModelRelease> trainRelease(const Run& run, const TrainingMechanism& plan, const FittedModel& baseline,
                                  double from) {
  const Dataset& train = run.data.train;
  TrainControl control = run.train(from, 0.97);
  const auto start = std::chrono::steady_clock::now();
  auto trained = [&]() -> Result<mech::PrivateModel> {
    if (run.control.experimentWarmStart && startsFromBaseline(plan)) {
      // An experiment's start (RunControl::experimentWarmStart): the baseline, polished once
      // per (data, learner) for output perturbation.
      control.warmStart = baseline.model.theta;
      if (startsFromExactMinimizer(plan)) {
        auto exact = shared<Eigen::VectorXd>(run.control.reuse.exactStart,
                                             [&] { return polishedBaseline(run, plan, control); });
        if (!exact) return exact.error();
        control.warmStart = *exact.value();
      }
      return mech::trainPrivatelyFromSolution(plan.options, train, run.noise, control, baseline.model.theta);
    }
    // Output perturbation releases the exact minimizer whatever the start; starting at the
    // non-private solution only gets there sooner. The other mechanisms ignore it (their
    // start must not depend on the data).
    if (plan.options.kind == mech::MechanismKind::Output && plan.tuneLambdas.empty() && baseline.model.model)
      control.warmStart = baseline.model.theta;
    if (plan.selection) {
      control.warmStart.reset();
      return mech::selectPrivately({plan.options, *plan.selection}, train, run.noise, control);
    }
    return plan.tuneLambdas.empty() ? mech::trainPrivately(plan.options, train, run.noise, control)
                                    : mech::tunePrivately({plan.options, plan.tuneLambdas}, train, run.noise, control);
  }();
  if (!trained) return trained.error();
  ModelRelease release;
  release.seconds = secondsSince(start);
  release.model = std::move(trained.value().trained);
  release.report = std::move(trained.value().report);
  release.noise = run.noise.provenance();
  const Model& model = *release.model.model;
  release.trainAccuracy = run.trainAccuracy(model, release.model.theta);
  release.testAccuracy = accuracyOn(release.model, release.model.theta, run.data.test);
  return release;
}

// F: θ* is the run's non-private model; G: the teachers (the caller trains the all-rows
// baseline after them). Shared θ* or teachers are restored with this run's calibration and a
// budget of its own.
Status trainPredictor(PlanRun& out, const Run& run, const PrivatePrediction& plan, double from, double to) {
  const predict::PredictionOptions& options = plan.options;
  const Dataset& train = run.data.train;
  const TrainControl control = run.train(from, to);
  const auto start = std::chrono::steady_clock::now();
  if (options.kind == predict::PredictionKind::Sensitivity) {
    auto trainTheta = [&] { return predict::PrivatePredictor::train(options, train, control); };
    const WorkProvider<predict::PrivatePredictor>& provider = run.control.reuse.predictor;
    auto predictor = [&]() -> Result<predict::PrivatePredictor> {
      if (!provider) return trainTheta();
      auto shared = provider(trainTheta);
      if (!shared) return shared.error();
      return predict::PrivatePredictor::restore(options, train.rows(), train.features(), train.classes(),
                                                shared.value()->theta(), 0);
    }();
    if (!predictor) return predictor.error();
    auto model = makeModel(options.learner, train.features(), train.classes());
    if (!model) return model.error();
    FittedModel& baseline = out.baseline;
    baseline.model.model = model.value();
    baseline.model.theta = predictor.value().theta();
    baseline.model.summary = OptimizeSummary{};
    if (run.control.diagnostics) {
      baseline.trainAccuracy = run.trainAccuracy(*baseline.model.model, baseline.model.theta);
      baseline.testAccuracy = accuracyOn(baseline.model, baseline.model.theta, run.data.test);
    }
    baseline.seconds = secondsSince(start);
    out.prediction = PredictorRelease{std::move(predictor).value(), baseline.seconds};
    return Ok{};
  }
  auto teachers = shared<std::shared_ptr<const predict::TeacherEnsemble>>(
      run.control.reuse.teachers, [&] { return predict::trainTeachers(options, train, control); });
  if (!teachers) return teachers.error();
  auto predictor = predict::SubsampleAggregate::restore(options, *teachers.value(), 0);
  if (!predictor) return predictor.error();
  out.prediction = PredictorRelease{std::move(predictor).value(), secondsSince(start)};
  return Ok{};
}

// The parties' models, the aggregate and paper 004's comparisons: trainMultiparty, or, with
// the caller's local models, their aggregate beside RunReuse::allData's w* (into `allData`)
// or none.
Result<multiparty::MultipartyResult> multipartyResult(const Run& run, const Multiparty& plan, double from, double to,
                                                      std::shared_ptr<const FittedModel>& allData) {
  const RunReuse& reuse = run.control.reuse;
  const Dataset& train = run.data.train;
  // The protocol options.protocol names, with the abort hook when asked for.
  multiparty::PaillierProtocolSettings paillierSettings;
  paillierSettings.abortedTranscript = run.control.abortedTranscript;
  const multiparty::PaillierProtocol paillier(paillierSettings);
  const bool paillierNamed = plan.options.protocol == multiparty::AggregationProtocolKind::Paillier;
  const TrainControl control = run.train(from, to);
  if (!reuse.parties) {
    const bool hooked = paillierNamed && static_cast<bool>(run.control.abortedTranscript);
    return multiparty::trainMultiparty(plan.options, train, run.noise, control, hooked ? &paillier : nullptr);
  }
  auto locals = reuse.parties([&] { return multiparty::trainLocalModels(plan.options, train, control); });
  if (!locals) return locals.error();
  if (reuse.allData) {
    auto fitted = reuse.allData([&] { return trainBaseline(run, run.plan.baselineLearner(), from, to); });
    if (!fitted) return fitted.error();
    allData = fitted.value();
  }
  const multiparty::TrustedCurator curator;
  const multiparty::AggregationProtocol& protocol =
      paillierNamed ? static_cast<const multiparty::AggregationProtocol&>(paillier) : curator;
  return multiparty::aggregateLocalModels(plan.options, train, *locals.value(),
                                          allData ? &allData->model.theta : nullptr, run.noise, protocol,
                                          control.progress);
}

Status trainMultipartyRelease(PlanRun& out, const Run& run, const Multiparty& plan, double from, double to) {
  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const FittedModel> given;
  auto trained = multipartyResult(run, plan, from, to, given);
  if (!trained) return trained.error();
  multiparty::MultipartyResult& r = trained.value();
  const double seconds = secondsSince(start);

  // The all-data non-private model of paper 004's Figure 2 is this run's reference (none
  // beside given local models without RunReuse::allData).
  if (given) {
    out.baseline = *given;
  } else if (r.allData.size() > 0) {
    FittedModel& baseline = out.baseline;
    baseline.model = TrainedModel{r.released.model, r.allData, OptimizeSummary{}};
    baseline.trainAccuracy = run.trainAccuracy(*r.released.model, r.allData);
    baseline.testAccuracy = accuracyOn(r.released, r.allData, run.data.test);
    baseline.seconds = seconds;
  }

  ModelRelease release;
  release.seconds = seconds;
  release.trainAccuracy = run.trainAccuracy(*r.released.model, r.released.theta);
  release.testAccuracy = accuracyOn(r.released, r.released.theta, run.data.test);
  release.noise = run.noise.provenance();
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
    allData.trainAccuracy = run.trainAccuracy(*release.model.model, r.allDataPrivate->theta);
    allData.testAccuracy = accuracyOn(release.model, r.allDataPrivate->theta, run.data.test);
    allData.report = std::move(r.allDataPrivate->report);
    allData.report.noiseSource = release.noise.describe();
    diagnostics.allDataPrivate = std::move(allData);
  }
  out.release = std::move(release);
  out.multiparty = std::move(diagnostics);
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

WorkProvider<FittedModel> lentBaseline(const FittedModel& baseline) {
  return [&baseline](const std::function<Result<FittedModel>()>&) -> Result<std::shared_ptr<const FittedModel>> {
    return std::shared_ptr<const FittedModel>(&baseline, [](const FittedModel*) {});
  };
}

bool startsFromBaseline(const TrainingMechanism& mechanism) {
  const MechanismEntry* entry = findMechanism(mech::mechanismName(mechanism.options.kind));
  return mechanism.tuneLambdas.empty() && !mechanism.selection && entry && entry->startsFromBaseline;
}

bool startsFromExactMinimizer(const TrainingMechanism& mechanism) {
  return startsFromBaseline(mechanism) && mechanism.options.kind == mech::MechanismKind::Output &&
         mechanism.options.learner.kind != ModelKind::Lmgc;
}

Result<PlanRun> runPlan(const PrivacyPlan& plan, const RunData& data, privacy::NoiseSource& noise,
                        const RunControl& control) {
  if (auto status = plan.validate(); !status) return status.error();
  const Progress& progress = control.progress;
  const Run run{plan, data, noise, control};
  const bool lent = static_cast<bool>(control.reuse.baseline);
  PlanRun out;

  if (const auto* prediction = std::get_if<PrivatePrediction>(&plan.choice)) {
    if (prediction->options.kind == predict::PredictionKind::Sensitivity) {
      // θ* is the baseline: no other model to train.
      if (auto status = trainPredictor(out, run, *prediction, 0.0, 0.97); !status) return status.error();
    } else {
      // The teachers first, so that Cancel stops them; the all-rows baseline after.
      const bool wanted = control.trainBaseline;
      const double teachersTo = lent || !wanted ? 0.97 : 0.8;
      if (auto status = trainPredictor(out, run, *prediction, 0.0, teachersTo); !status) return status.error();
      if (progress.cancelled()) return Error::cancelled();
      if (auto status = takeBaseline(run, out, teachersTo, 0.97, wanted); !status) return status.error();
    }
  } else if (const auto* parties = std::get_if<Multiparty>(&plan.choice)) {
    if (auto status = trainMultipartyRelease(out, run, *parties, 0.0, 0.97); !status) return status.error();
  } else {
    const auto* mechanism = std::get_if<TrainingMechanism>(&plan.choice);
    // An experiment's warm start needs the baseline whatever trainBaseline says.
    const bool wanted = !mechanism || control.trainBaseline ||
                        (control.experimentWarmStart && startsFromBaseline(*mechanism));
    const double from = lent || !wanted ? 0.0 : mechanism ? 0.5 : 0.97;
    if (auto status = takeBaseline(run, out, 0.0, from, wanted); !status) return status.error();
    if (mechanism) {
      if (progress.cancelled()) return Error::cancelled();
      auto release = trainRelease(run, *mechanism, out.baseline, from);
      if (!release) return release.error();
      out.release = std::move(release).value();
    }
  }
  progress.report(1.0);
  return out;
}

Result<PlanRun> runPlan(const PrivacyPlan& plan, const PreparedData& data, privacy::NoiseSource& noise,
                        const RunControl& control) {
  return runPlan(plan, RunData{data.train, data.test}, noise, control);
}

}  // namespace dpstudio::experiment
