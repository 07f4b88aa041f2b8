#pragma once
// An opened bundle in the decision view: what the ScatterView shows after Open Model → Show
// in decision view, in place of the trained model (or the plain dataset). The dataset's rows
// in its own view, and behind them the bundle's regions: at every pixel, the class the
// bundle answers for the raw row at that point of the view plane, through the bundle's own
// preprocessing (core/learn/regions_through_preprocessing.h); the title is
// opened_model_caption.h's.
//
// The request: the window asks for a model over the dataset and the training result it shows
// (request()). It applies while both are still the window's: a new dataset or a new training
// (Train, Redraw noise) replaces the opened model's picture, as a person expects, and a new
// 2-D view of the same dataset draws it again on the new plane. forget() drops it (View →
// Hide Opened Model).
//
// The regions cover the visible axis ranges at the plot's pixel size and follow every zoom,
// pan and resize, computed by a cancellable job on a worker: a new request cancels the
// running one, which stops between pixel rows, and starts once it has ended. Every pixel is
// evaluated through the preprocessing, so a map expected to take long (by the time the last
// full map took per pixel) is drawn coarse first, then at full size; until a new image
// arrives the old one is drawn stretched to where its rectangle now lies.

#include <QImage>
#include <QObject>
#include <QPointer>
#include <QRectF>
#include <QTimer>

#include <memory>

#include "core/learn/decision_map.h"
#include "ui/bundle/opened_model.h"
#include "ui/dataset/dataset_document.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {

class JobHandle;
class ScatterView;

class OpenedModelOverlay : public QObject {
  Q_OBJECT

 public:
  explicit OpenedModelOverlay(ScatterView* view, QObject* parent = nullptr);

  // The model to show over `data`, in place of `trained` (the result shown then, or none).
  void request(std::shared_ptr<const OpenedModel> model, std::shared_ptr<const Dataset> data,
               std::shared_ptr<const TrainingResult> trained);
  // Stops showing the requested model and drops the request.
  void forget();
  const std::shared_ptr<const OpenedModel>& requested() const { return model_; }
  // Whether the request still applies to the window's dataset and training result.
  bool applies(const std::shared_ptr<const Dataset>& data, const std::shared_ptr<const TrainingResult>& trained) const {
    return model_ && data && data == data_ && trained == trained_;
  }

  // Draws the requested model over the requested dataset's rows in `view` (of that dataset),
  // unless it is drawn there already; true if it drew anew.
  bool show(const DatasetView& view, const QString& datasetName);
  // The view shows something else now (the request stays; running work is dropped).
  void detach();
  bool isShowing() const { return static_cast<bool>(shownView_); }
  bool isComputingRegions() const { return !regionJob_.isNull() || debounce_.isActive(); }
  // The last map drawn, in the bundle's classes (tests compare it with core's).
  const RegionMap& shownMap() const { return shownMap_; }
  const ClassColours& colours() const { return colours_; }

 signals:
  void requestChanged();  // a model was requested or the request dropped
  void regionsUpdated();  // a new region image is in the view

 private:
  void scheduleRegions();
  void startRegions(bool fine);
  bool expectSlow(QSize pixels) const;

  ScatterView* view_;
  std::shared_ptr<const OpenedModel> model_;
  std::shared_ptr<const Dataset> data_;
  std::shared_ptr<const TrainingResult> trained_;
  ClassColours colours_;
  std::shared_ptr<const DatasetView> shownView_;  // the view drawn in, while showing
  RegionMap shownMap_;
  QTimer debounce_;
  QPointer<JobHandle> regionJob_;
  quint64 generation_ = 0;      // bumped by every request; only the latest result is drawn
  double nsPerPixel_ = -1;      // of the last full-size map; < 0: none yet
};

}  // namespace dpstudio::ui
