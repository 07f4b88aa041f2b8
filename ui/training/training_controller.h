#pragma once
// Trains models and computes their 2-D views off the GUI thread, and publishes the results
// to a TrainingDocument. A training job gets copies of its inputs (the dataset's immutable
// shared pointer, the settings, the view spec) and returns a value; the document changes
// only when a job succeeds, so a failed or cancelled training leaves the previous model.
//
// It follows the DatasetDocument: a new dataset cancels any training and clears the model
// (a model of another dataset means nothing on this one); a new 2-D view of the same
// dataset recomputes the model's view.
//
// At most one training and one view job run at a time; starting another cancels the previous
// one of the same kind (its late result is dropped). jobStarted() hands training jobs to
// whoever shows progress and offers Cancel.
//
// Private training (settings.privacy.isPrivate()): the job trains the non-private baseline
// too — or reuses the shown model's, when its dataset and settings other than privacy are
// the same (sameBaseline()) — then the mechanism on the same prepared data. A release
// becomes visible only after it is recorded in the session's PrivacyLedger, on the GUI
// thread; a cancelled, failed or superseded run releases nothing and records nothing.
// redrawNoise() trains the shown release again with a new draw: the next seed in experiment
// mode, a fresh OS draw in release mode. Each redraw is a release of its own.
//
// A private predictor (§3 F, G) releases nothing when trained: it is shown at once, and
// answerTestPoints() answers the next test points through it (prediction_answers.h) — the
// first answer records the whole budget in the ledger. Its redrawNoise() is a new repetition
// of the same trained predictor with a fresh budget and noise stream (the next seed): a new
// release, recorded at its own first answer; nothing is trained again.

#include <QObject>
#include <QPointer>
#include <QString>

#include "ui/jobs/job.h"
#include "ui/training/training_document.h"

namespace dpstudio::privacy {
class PrivacyLedger;
}

namespace dpstudio::ui {

class DatasetDocument;

class TrainingController : public QObject {
  Q_OBJECT

 public:
  // ledger: where private releases are recorded; it must outlive the controller.
  TrainingController(DatasetDocument* datasets, TrainingDocument* training, privacy::PrivacyLedger* ledger,
                     QObject* parent = nullptr);
  ~TrainingController() override;

  // Starts training on the dataset document's current dataset (no-op without one).
  void train(const TrainingSettings& settings);
  // Whether redrawNoise() has something to redraw: a private model of the current dataset.
  bool canRedrawNoise() const;
  // Trains the shown private model's settings again with a new noise draw.
  void redrawNoise();
  void cancel();
  // Draw N: whether the shown result is a private model release of the current dataset
  // (training mechanism or multiparty), and drawing `count` more models of its settings,
  // fresh seeded noise each, the non-private model reused (core/experiment/model_spread.h).
  // An experiment: nothing is recorded in the ledger. The document shows them when done.
  bool canDrawSpread() const;
  void drawSpread(int count);
  // Answers the next `count` test points through the shown private predictor; a refusal
  // (the budget is spent, no test points left) is reported by answerRefused().
  void answerTestPoints(long long count);

  bool isTraining() const { return !trainJob_.isNull(); }
  bool isBusy() const { return isTraining() || !viewJob_.isNull(); }

 signals:
  void jobStarted(dpstudio::ui::JobHandle* job);
  void trainingStarted();
  void trained();  // after the document shows the new model
  void trainingFailed(const QString& message);
  void trainingCancelled();
  void busyChanged(bool training);
  void viewFailed(const QString& message);
  // A private model was recorded in the ledger and is now shown.
  void released(const QString& ledgerText);
  // The shown predictor answered `count` more test points (ledgerText: the entry its first
  // answer recorded, or empty); or refused to, with core's reason.
  void answered(long long count, const QString& ledgerText);
  void answerRefused(const QString& message);
  void spreadDrawn(int count);
  void spreadFailed(const QString& message);

 private:
  void datasetReplaced();
  void recomputeView();
  void finishTraining(JobHandle* job, JobHandle::State state);
  void renewPredictor();
  void dropTrainingJob();

  DatasetDocument* datasets_;
  TrainingDocument* training_;
  privacy::PrivacyLedger* ledger_;
  QPointer<JobHandle> trainJob_;
  QPointer<JobHandle> viewJob_;
  QPointer<JobHandle> spreadJob_;
};

}  // namespace dpstudio::ui
