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

#include <QObject>
#include <QPointer>
#include <QString>

#include "ui/jobs/job.h"
#include "ui/training_document.h"

namespace dpstudio::ui {

class DatasetDocument;

class TrainingController : public QObject {
  Q_OBJECT

 public:
  TrainingController(DatasetDocument* datasets, TrainingDocument* training, QObject* parent = nullptr);
  ~TrainingController() override;

  // Starts training on the dataset document's current dataset (no-op without one).
  void train(const TrainingSettings& settings);
  void cancel();

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

 private:
  void datasetReplaced();
  void recomputeView();
  void finishTraining(JobHandle* job, JobHandle::State state);
  void dropTrainingJob();

  DatasetDocument* datasets_;
  TrainingDocument* training_;
  QPointer<JobHandle> trainJob_;
  QPointer<JobHandle> viewJob_;
};

}  // namespace dpstudio::ui
