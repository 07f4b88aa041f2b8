#include "ui/prediction_job.h"

#include <chrono>

#include "core/prediction/multiparty.h"
#include "ui/training_job.h"

namespace dpstudio::ui {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TrainControl controlFor(const TrainingSettings& settings, const Progress& progress, double from, double to) {
  TrainControl control;
  control.tolerance = settings.tolerance;
  control.maxIterations = settings.maxIterations;
  control.progress = progressSegment(progress, from, to);
  return control;
}

std::optional<double> testAccuracy(const TrainedModel& model, const Eigen::VectorXd& theta, const Dataset& test) {
  if (test.rows() == 0) return std::nullopt;
  return accuracy(*model.model, theta, test.X, test.y);
}

}  // namespace

Status trainPredictor(TrainingResult& result, const Progress& progress, double from, double to) {
  const predict::PredictionOptions options = result.settings.predictionOptions();
  const Dataset& train = result.data->train;
  const TrainControl control = controlFor(result.settings, progress, from, to);
  const auto start = std::chrono::steady_clock::now();
  if (options.kind == predict::PredictionKind::Sensitivity) {
    auto predictor = predict::PrivatePredictor::train(options, train, control);
    if (!predictor) return predictor.error();
    // θ* is the non-private model of this run: the decision view's regions and the
    // comparison beside the private answers.
    auto model = makeModel(options.learner, train.features(), train.classes());
    if (!model) return model.error();
    result.model.model = model.value();
    result.model.theta = predictor.value().theta();
    result.model.summary = OptimizeSummary{};
    result.trainAccuracy = accuracy(*result.model.model, result.model.theta, train.X, train.y);
    result.testAccuracy = testAccuracy(result.model, result.model.theta, result.data->test);
    result.prediction = PredictionRelease{std::move(predictor).value(), secondsSince(start)};
    return Ok{};
  }
  auto predictor = predict::SubsampleAggregate::train(options, train, control);
  if (!predictor) return predictor.error();
  result.prediction = PredictionRelease{std::move(predictor).value(), secondsSince(start)};
  return Ok{};
}

Status trainMultipartyRelease(TrainingResult& result, const Progress& progress, double from, double to) {
  const PrivacySettings& privacy = result.settings.privacy;
  auto noise = privacy::makeNoiseSource(privacy.noise, privacy.seed);
  if (!noise) return noise.error();
  const multiparty::MultipartyOptions options = result.settings.multipartyOptions();
  const Dataset& train = result.data->train;
  const Dataset& test = result.data->test;
  const auto start = std::chrono::steady_clock::now();
  auto trained = multiparty::trainMultiparty(options, train, *noise.value(),
                                             controlFor(result.settings, progress, from, to));
  if (!trained) return trained.error();
  multiparty::MultipartyResult& r = trained.value();
  const double seconds = secondsSince(start);

  // The all-data non-private model of paper 004's Figure 2 is this run's reference.
  result.model = TrainedModel{r.released.model, r.allData, OptimizeSummary{}};
  result.trainAccuracy = accuracy(*r.released.model, r.allData, train.X, train.y);
  result.testAccuracy = testAccuracy(r.released, r.allData, test);
  result.seconds = seconds;

  PrivateRelease release;
  release.seconds = seconds;
  release.trainAccuracy = accuracy(*r.released.model, r.released.theta, train.X, train.y);
  release.testAccuracy = testAccuracy(r.released, r.released.theta, test);
  release.noise = noise.value()->provenance();
  release.model = std::move(r.released);
  release.report = std::move(r.report);

  MultipartyDiagnostics diagnostics;
  diagnostics.partySizes = std::move(r.partySizes);
  diagnostics.distance = r.distance;
  diagnostics.bound = r.bound;
  if (r.allDataPrivate) {
    MultipartyDiagnostics::AllDataBaseline baseline;
    baseline.trainAccuracy = accuracy(*release.model.model, r.allDataPrivate->theta, train.X, train.y);
    baseline.testAccuracy = testAccuracy(release.model, r.allDataPrivate->theta, test);
    baseline.report = std::move(r.allDataPrivate->report);
    baseline.report.noiseSource = release.noise.describe();
    diagnostics.allDataPrivate = std::move(baseline);
  }
  result.release = std::move(release);
  result.multiparty = std::move(diagnostics);
  return Ok{};
}

}  // namespace dpstudio::ui
