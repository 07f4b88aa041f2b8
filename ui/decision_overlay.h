#pragma once
// The decision view: what the ScatterView shows once a model is trained. The data as the
// model sees them (preprocessed training points filled, test points hollow), the model's
// decision regions as an image behind them, and for LMGC each class's ellipse (level set
// of its score; for d > 2 the ellipsoid's shadow on the view plane), with legend keys and
// a title that say so.
//
// The regions cover exactly the visible axis ranges at the plot's pixel size, so they are
// recomputed after every zoom, pan and resize: on a worker, one computation at a time,
// results of superseded requests dropped. Models whose scores core can restrict to the
// plane exactly (Model::scoreDegree() 1 or 2) take a few ms at full size; others are
// evaluated pixel by pixel and get a coarse image first. Until a new image arrives the
// old one is drawn stretched to where its rectangle now lies, so nothing jumps.

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

#include "ui/training_document.h"

namespace dpstudio::ui {

class JobHandle;
class ScatterView;

class DecisionOverlay : public QObject {
  Q_OBJECT

 public:
  explicit DecisionOverlay(ScatterView* view, QObject* parent = nullptr);

  // Fills the view with the model and its view, and starts computing the regions.
  void show(std::shared_ptr<const TrainingResult> result, std::shared_ptr<const ModelView> view);
  // The view shows something else now: stop following it (running work is dropped).
  void detach();
  bool isShowing() const { return static_cast<bool>(result_); }
  bool isShowing(const std::shared_ptr<const TrainingResult>& result,
                 const std::shared_ptr<const ModelView>& view) const {
    return result_ && result_ == result && modelView_ == view;
  }
  bool isShowingModelOf(const std::shared_ptr<const Dataset>& dataset) const {
    return result_ && result_->source == dataset;
  }
  bool isComputingRegions() const { return !regionJob_.isNull() || debounce_.isActive(); }

 signals:
  void regionsUpdated();  // a new region image is in the view

 private:
  void scheduleRegions();
  void startRegions(bool fine);

  ScatterView* view_;
  std::shared_ptr<const TrainingResult> result_;
  std::shared_ptr<const ModelView> modelView_;
  QTimer debounce_;
  QPointer<JobHandle> regionJob_;
  quint64 generation_ = 0;  // bumped by every request; only the latest result is used
};

}  // namespace dpstudio::ui
