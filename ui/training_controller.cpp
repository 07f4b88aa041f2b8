#include "ui/training_controller.h"

#include <chrono>

#include "ui/dataset_document.h"

namespace dpstudio::ui {
namespace {

struct TrainingOutcome {
  std::shared_ptr<const TrainingResult> result;
  std::shared_ptr<const ModelView> view;  // empty if the view failed
  std::string viewError;
};

bool sameViewSpec(const ViewSpec& a, const ViewSpec& b) {
  return a.kind == b.kind && a.featureA == b.featureA && a.featureB == b.featureB && a.seed == b.seed;
}

Result<ModelView> computeModelView(const TrainingResult& result, const ViewSpec& spec) {
  auto geometry = makeModelViewGeometry(result.data, spec, *result.model.model, result.model.theta);
  if (!geometry) return geometry.error();
  return ModelView{spec, std::move(geometry).value()};
}

// The worker: split and preprocess a copy of the dataset, train, measure, and lay the
// result out in the 2-D view. Runs on a pool thread with nothing shared but immutable data.
Result<TrainingOutcome> trainWithView(const std::shared_ptr<const Dataset>& dataset, const QString& name,
                                      const TrainingSettings& settings, const ViewSpec& viewSpec,
                                      const Progress& progress) {
  auto prepared = prepareLoaded(*dataset, std::nullopt, settings.data);
  if (!prepared) return prepared.error();
  if (progress.cancelled()) return Error::cancelled();
  // The split and preprocessing are quick; the optimizer gets most of the bar.
  progress.report(0.03);

  auto result = std::make_shared<TrainingResult>();
  result->source = dataset;
  result->datasetName = name;
  result->settings = settings;
  result->data = std::move(prepared).value();
  const Dataset& train = result->data.train;
  const Dataset& test = result->data.test;

  TrainControl control;
  control.tolerance = settings.tolerance;
  control.maxIterations = settings.maxIterations;
  control.progress = Progress([&progress](double f) { progress.report(0.03 + 0.94 * f); }, progress.stopToken());
  const auto start = std::chrono::steady_clock::now();
  auto trained = trainModel(settings.learner, train.X, train.y, train.classes(), control);
  result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!trained) return trained.error();
  result->model = std::move(trained).value();

  const Model& model = *result->model.model;
  result->trainAccuracy = accuracy(model, result->model.theta, train.X, train.y);
  if (test.rows() > 0) result->testAccuracy = accuracy(model, result->model.theta, test.X, test.y);

  TrainingOutcome outcome;
  auto view = computeModelView(*result, viewSpec);
  if (view) outcome.view = std::make_shared<const ModelView>(std::move(view).value());
  else outcome.viewError = view.error().toString();
  outcome.result = std::move(result);
  progress.report(1.0);
  return outcome;
}

}  // namespace

TrainingController::TrainingController(DatasetDocument* datasets, TrainingDocument* training, QObject* parent)
    : QObject(parent), datasets_(datasets), training_(training) {
  connect(datasets_, &DatasetDocument::datasetChanged, this, &TrainingController::datasetReplaced);
  connect(datasets_, &DatasetDocument::viewChanged, this, &TrainingController::recomputeView);
}

TrainingController::~TrainingController() { cancel(); }

void TrainingController::train(const TrainingSettings& settings) {
  if (!datasets_->hasDataset()) return;
  dropTrainingJob();
  std::shared_ptr<const Dataset> dataset = datasets_->dataset();
  const QString name = datasets_->displayName();
  const ViewSpec viewSpec = datasets_->viewSpec();
  auto* job = startJob<TrainingOutcome>(
      tr("Training %1").arg(QString::fromStdString(modelKindName(settings.learner.kind))),
      [dataset, name, settings, viewSpec](const Progress& progress) {
        return trainWithView(dataset, name, settings, viewSpec, progress);
      },
      this);
  trainJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job](JobHandle::State state) { finishTraining(job, state); });
  emit trainingStarted();
  emit busyChanged(true);
  emit jobStarted(job);
}

void TrainingController::finishTraining(JobHandle* handle, JobHandle::State state) {
  auto* job = static_cast<Job<TrainingOutcome>*>(handle);
  job->deleteLater();
  if (trainJob_ == job) trainJob_.clear();
  emit busyChanged(isTraining());
  switch (state) {
    case JobHandle::State::Succeeded: {
      TrainingOutcome outcome = job->takeValue();
      // A model of a dataset that has been replaced meanwhile is not shown.
      if (outcome.result->source != datasets_->dataset()) return;
      const ViewSpec usedSpec = outcome.view ? outcome.view->spec : ViewSpec{};
      training_->setModel(std::move(outcome.result), std::move(outcome.view));
      emit trained();
      if (!outcome.viewError.empty()) emit viewFailed(QString::fromStdString(outcome.viewError));
      // The user may have changed the 2-D view while the model was training.
      if (!training_->view() || !sameViewSpec(usedSpec, datasets_->viewSpec())) recomputeView();
      break;
    }
    case JobHandle::State::Failed: emit trainingFailed(job->errorText()); break;
    case JobHandle::State::Cancelled: emit trainingCancelled(); break;
    case JobHandle::State::Running: break;
  }
}

void TrainingController::recomputeView() {
  if (!training_->hasModel() || !training_->isModelOf(datasets_->dataset())) return;
  const ViewSpec spec = datasets_->viewSpec();
  if (training_->view() && sameViewSpec(training_->view()->spec, spec)) return;
  if (viewJob_) {
    viewJob_->cancel();
    viewJob_->disconnect(this);
    viewJob_->deleteLater();
  }
  std::shared_ptr<const TrainingResult> result = training_->result();
  auto* job = startJob<ModelView>(
      tr("Projecting the model to 2-D"),
      [result, spec](const Progress&) { return computeModelView(*result, spec); }, this);
  viewJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job, result](JobHandle::State state) {
    job->deleteLater();
    if (viewJob_ == job) viewJob_.clear();
    // The model may have been replaced while its view was being computed.
    if (training_->result() != result) return;
    if (state == JobHandle::State::Succeeded)
      training_->setView(std::make_shared<const ModelView>(job->takeValue()));
    else if (state == JobHandle::State::Failed)
      emit viewFailed(job->errorText());
  });
}

void TrainingController::dropTrainingJob() {
  if (!trainJob_) return;
  // Deleting the job stops its worker and drops the late result without a "cancelled"
  // report: nothing the user asked for was cancelled.
  trainJob_->cancel();
  trainJob_->disconnect(this);
  trainJob_->deleteLater();
  trainJob_.clear();
  emit busyChanged(false);
}

void TrainingController::datasetReplaced() {
  dropTrainingJob();
  if (viewJob_) viewJob_->cancel();
  training_->clear();
}

void TrainingController::cancel() {
  if (trainJob_) trainJob_->cancel();
  if (viewJob_) viewJob_->cancel();
}

}  // namespace dpstudio::ui
