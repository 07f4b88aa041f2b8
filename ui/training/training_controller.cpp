#include "ui/training/training_controller.h"

#include "core/experiment/model_spread.h"

#include "core/privacy/ledger.h"
#include "ui/dataset/dataset_document.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/training_job.h"

namespace dpstudio::ui {
namespace {

bool sameViewSpec(const ViewSpec& a, const ViewSpec& b) {
  return a.kind == b.kind && a.featureA == b.featureA && a.featureB == b.featureB && a.seed == b.seed;
}

QString entryText(const privacy::LedgerEntry& entry) {
  return QObject::tr("Ledger entry %1: %2, ε = %3, δ = %4")
      .arg(entry.index + 1)
      .arg(QString::fromStdString(entry.mechanism))
      .arg(entry.epsilon, 0, 'g', 4)
      .arg(entry.delta, 0, 'g', 4);
}

}  // namespace

TrainingController::TrainingController(DatasetDocument* datasets, TrainingDocument* training,
                                       privacy::PrivacyLedger* ledger, QObject* parent)
    : QObject(parent), datasets_(datasets), training_(training), ledger_(ledger) {
  connect(datasets_, &DatasetDocument::datasetChanged, this, &TrainingController::datasetReplaced);
  connect(datasets_, &DatasetDocument::viewChanged, this, &TrainingController::recomputeView);
  // Another test file: the model shown was measured on other test rows.
  connect(datasets_, &DatasetDocument::testDatasetChanged, this, &TrainingController::datasetReplaced);
}

TrainingController::~TrainingController() { cancel(); }

void TrainingController::train(const TrainingSettings& settings) {
  if (!datasets_->hasDataset()) return;
  dropTrainingJob();
  std::shared_ptr<const Dataset> dataset = datasets_->dataset();
  std::shared_ptr<const Dataset> test = datasets_->testDataset();
  const QString name = datasets_->displayName();
  const ViewSpec viewSpec = datasets_->viewSpec();
  // The shown model's baseline and prepared data are reused when only privacy differs.
  std::shared_ptr<const TrainingResult> reuse = training_->isModelOf(dataset) ? training_->result() : nullptr;
  const QString model = modelDisplayName(settings.learner.kind);
  const QString title = settings.privacy.isPrivate()
                            ? tr("Training %1 with %2").arg(model, privacyDisplayName(settings.privacy))
                            : tr("Training %1").arg(model);
  auto* job = startJob<TrainingOutcome>(
      title,
      [dataset, test, name, settings, viewSpec, reuse](const Progress& progress) {
        return trainWithView(dataset, test, name, settings, viewSpec, reuse, progress);
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
      // A model of a dataset (or test file) that has been replaced meanwhile is not shown.
      if (outcome.result->source != datasets_->dataset() || outcome.result->testSource != datasets_->testDataset())
        return;
      // A private model is shown only once it is on the record. A private predictor has
      // released nothing yet: its first answer records it.
      QString recorded;
      if (outcome.result->release) {
        // One entry per release (multiparty with its all-data DP baseline: two).
        QStringList texts;
        for (privacy::LedgerEntry& each : ledgerEntriesFor(*outcome.result)) {
          auto entry = ledger_->record(std::move(each));
          if (!entry) {
            emit trainingFailed(tr("the release could not be recorded in the privacy ledger (%1), so it is not shown")
                                    .arg(QString::fromStdString(entry.error().message)));
            return;
          }
          texts << entryText(entry.value());
        }
        recorded = texts.join(QStringLiteral("; "));
      }
      std::shared_ptr<PredictionAnswers> answers;
      if (outcome.result->isPrediction()) {
        auto made = PredictionAnswers::make(outcome.result);
        if (!made) {
          emit trainingFailed(QString::fromStdString(made.error().toString()));
          return;
        }
        answers = std::move(made).value();
      }
      const ViewSpec usedSpec = outcome.view ? outcome.view->spec : ViewSpec{};
      training_->setModel(std::move(outcome.result), std::move(outcome.view), std::move(answers));
      emit trained();
      if (!recorded.isEmpty()) emit released(recorded);
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

bool TrainingController::canRedrawNoise() const {
  return training_->isModelOf(datasets_->dataset()) && training_->result()->isPrivate();
}

void TrainingController::redrawNoise() {
  if (!canRedrawNoise()) return;
  if (training_->result()->isPrediction()) {
    renewPredictor();
    return;
  }
  TrainingSettings settings = training_->result()->settings;
  // Experiment mode: the next seed, so that every draw can be replayed. Release mode draws
  // from the OS afresh anyway.
  if (settings.privacy.noise == privacy::NoiseKind::Experiment) ++settings.privacy.seed;
  train(settings);
}

bool TrainingController::canDrawSpread() const {
  return training_->isModelOf(datasets_->dataset()) && training_->result()->release.has_value();
}

void TrainingController::drawSpread(int count) {
  if (!canDrawSpread()) return;
  if (spreadJob_) spreadJob_->cancel();
  std::shared_ptr<const TrainingResult> result = training_->result();
  auto work = [result, count](const Progress& progress) -> Result<std::vector<TrainedModel>> {
    const experiment::PrivacyPlan plan = result->settings.plan();
    // The shown model is the plan's own baseline for a training mechanism (multiparty's
    // reference is w*, another learner: core trains what it needs).
    const bool ownBaseline = std::holds_alternative<experiment::TrainingMechanism>(plan.choice);
    const experiment::FittedModel baseline{result->model, result->trainAccuracy, result->testAccuracy, result->seconds};
    return experiment::drawPrivateModels(plan, *result->data, count, result->settings.privacy.seed,
                                         ownBaseline ? &baseline : nullptr, progress);
  };
  auto* job = startJob<std::vector<TrainedModel>>(tr("Drawing %1 private models").arg(count), std::move(work), this);
  spreadJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job, result, count](JobHandle::State state) {
    job->deleteLater();
    if (state == JobHandle::State::Failed) emit spreadFailed(job->errorText());
    if (state != JobHandle::State::Succeeded || training_->result() != result) return;
    training_->setSpread(std::make_shared<const std::vector<TrainedModel>>(job->takeValue()));
    emit spreadDrawn(count);
  });
  emit jobStarted(job);
}

void TrainingController::renewPredictor() {
  // Only the budget and the noise are new: the trained θ* or teachers stay, and so do the
  // prepared data and the view.
  dropTrainingJob();
  auto result = std::make_shared<TrainingResult>(*training_->result());
  PredictionRelease& prediction = *result->prediction;
  // The variant's type named outside the lambda: clang 14 crashed (tryCaptureVariable) on a
  // decltype of the enclosing function's reference in the lambda's return type.
  using Predictor = decltype(prediction.predictor);
  prediction.predictor =
      std::visit([](const auto& p) -> Predictor { return p.freshRepetition(); }, prediction.predictor);
  // Experiment mode: the next seed, so that every repetition can be replayed.
  if (result->settings.privacy.noise == privacy::NoiseKind::Experiment) ++result->settings.privacy.seed;
  auto answers = PredictionAnswers::make(result);
  if (!answers) {
    emit trainingFailed(QString::fromStdString(answers.error().toString()));
    return;
  }
  training_->setModel(std::move(result), training_->view(), std::move(answers).value());
  emit trained();
}

void TrainingController::answerTestPoints(long long count) {
  const std::shared_ptr<PredictionAnswers> answers = training_->answers();
  if (!answers || !training_->isModelOf(datasets_->dataset())) return;
  const std::size_t entriesBefore = ledger_->size();
  const Status status = answers->answerNext(count, ledger_);
  if (!status) {
    emit answerRefused(QString::fromStdString(status.error().message));
    return;
  }
  // The first answer of the budget recorded the release.
  QString recorded;
  if (ledger_->size() > entriesBefore) recorded = entryText(ledger_->entries().back());
  training_->noteAnswered();
  emit answered(count, recorded);
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
  if (spreadJob_) spreadJob_->cancel();
}

}  // namespace dpstudio::ui
