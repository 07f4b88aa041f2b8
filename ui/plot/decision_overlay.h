#pragma once
// The decision view: what the ScatterView shows once a model is trained. The data as the
// model sees them (preprocessed training points filled, test points hollow), the model's
// decision regions as an image behind them, and for LMGC each class's ellipse (level set
// of its score; for d > 2 the ellipsoid's shadow on the view plane), with legend keys and
// a title that say so.
//
// A private model is drawn over its non-private reference: the regions and solid ellipses
// are the private model's (what is released), the reference's boundaries are dark dashes in
// the regions image and its ellipses dashed lines, under one legend key ("non-private model
// (dashed)") that hides or shows them all. The title names the mechanism and its (ε, δ), or
// warns when the calibration is "as published". Multiparty aggregation (§3 I) is drawn the
// same way, its reference being the all-data non-private model w*.
//
// A private predictor (§3 F, G) releases answers, not a model, so its regions are drawn
// from what it answers from — the non-private θ* (F) or the plurality vote of the teachers
// (G, ensemble_regions.h) — and the title says so ("not released"). Its test points are
// drawn as it answers them (setAnswerSource()): not answered yet, hollow; answered, a dot
// in the released label's colour in a ring of the true label's.
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

#include "ui/training/training_document.h"

namespace dpstudio::ui {

class JobHandle;
class PredictionAnswers;
class ScatterView;

class DecisionOverlay : public QObject {
  Q_OBJECT

 public:
  explicit DecisionOverlay(ScatterView* view, QObject* parent = nullptr);

  // Where a private predictor's answers come from: the document's answers are drawn while
  // its model is the one shown, and follow its answersChanged().
  void setAnswerSource(TrainingDocument* document);
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
  void answersShown();    // the view shows the predictor's latest answers

 private:
  void scheduleRegions();
  void startRegions(bool fine);
  void showAnswers();
  const PredictionAnswers* shownAnswers() const;

  ScatterView* view_;
  QPointer<TrainingDocument> answerSource_;
  std::shared_ptr<const TrainingResult> result_;
  std::shared_ptr<const ModelView> modelView_;
  QTimer debounce_;
  QPointer<JobHandle> regionJob_;
  quint64 generation_ = 0;  // bumped by every request; only the latest result is used
};

}  // namespace dpstudio::ui
