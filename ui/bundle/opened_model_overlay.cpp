#include "ui/bundle/opened_model_overlay.h"

#include <algorithm>
#include <chrono>

#include "core/learn/regions_through_preprocessing.h"
#include "ui/bundle/opened_model_caption.h"
#include "ui/jobs/job.h"
#include "ui/plot/region_image.h"
#include "ui/plot/scatter_view.h"

namespace dpstudio::ui {
namespace {

// As the trained-model view (plot/decision_overlay.cpp): larger images are not worth their time,
// and a coarse preview has 1/kCoarseFactor² the pixels.
constexpr int kMaxRegionPixels = 2048;
constexpr int kCoarseFactor = 4;
// A full-size map expected to take longer than this is drawn coarse first.
constexpr double kSlowMapNs = 80e6;

struct OpenedRegions {
  RegionMap map;  // in the bundle's classes
  QImage image;   // in the colours of ClassColours
  QRectF dataRect;
  double nsPerPixel = 0;
};

bool sameView(const DatasetView& a, const DatasetView& b) {
  return a.spec.kind == b.spec.kind && a.spec.featureA == b.spec.featureA && a.spec.featureB == b.spec.featureB &&
         a.spec.seed == b.spec.seed && a.projection.centre == b.projection.centre &&
         a.projection.basis == b.projection.basis && a.coords.rows() == b.coords.rows();
}

}  // namespace

OpenedModelOverlay::OpenedModelOverlay(ScatterView* view, QObject* parent) : QObject(parent), view_(view) {
  // Coalesces the bursts of range and resize signals one zoom or drag produces.
  debounce_.setSingleShot(true);
  debounce_.setInterval(15);
  connect(&debounce_, &QTimer::timeout, this, [this] { startRegions(false); });
  connect(view_, &ScatterView::visibleAreaChanged, this, &OpenedModelOverlay::scheduleRegions);
}

void OpenedModelOverlay::request(std::shared_ptr<const OpenedModel> model, std::shared_ptr<const Dataset> data,
                                 std::shared_ptr<const TrainingResult> trained) {
  detach();
  model_ = std::move(model);
  data_ = std::move(data);
  trained_ = std::move(trained);
  colours_ = model_ && data_ ? matchClassesByName(model_->classNames, data_->classNames) : ClassColours{};
  nsPerPixel_ = -1;  // another model, another cost: its first map is drawn coarse first
  emit requestChanged();
}

void OpenedModelOverlay::forget() {
  detach();
  const bool had = static_cast<bool>(model_);
  model_.reset();
  data_.reset();
  trained_.reset();
  if (had) emit requestChanged();
}

bool OpenedModelOverlay::show(const DatasetView& view, const QString& datasetName) {
  if (!model_ || !data_) return false;
  if (shownView_ && sameView(*shownView_, view)) return false;
  detach();
  shownView_ = std::make_shared<const DatasetView>(view);
  view_->showContent(openedModelContent(*model_, colours_, *data_, view, datasetName));
  scheduleRegions();
  return true;
}

void OpenedModelOverlay::detach() {
  ++generation_;
  debounce_.stop();
  if (regionJob_) regionJob_->cancel();  // stops between pixel rows; its result is dropped
  shownView_.reset();
  shownMap_ = {};
}

void OpenedModelOverlay::scheduleRegions() {
  if (!isShowing()) return;
  ++generation_;
  // Whatever runs is for a picture that is gone: stop it now rather than after all its rows.
  if (regionJob_) regionJob_->cancel();
  debounce_.start();
}

bool OpenedModelOverlay::expectSlow(QSize pixels) const {
  return nsPerPixel_ < 0 || nsPerPixel_ * pixels.width() * pixels.height() > kSlowMapNs;
}

void OpenedModelOverlay::startRegions(bool fine) {
  if (!isShowing()) return;
  // One computation at a time; the cancelled one's finish starts the latest request.
  if (regionJob_) return;
  const QRectF rect = view_->visibleDataRect();
  QSize pixels = view_->plotPixelSize().boundedTo(QSize(kMaxRegionPixels, kMaxRegionPixels));
  if (pixels.width() < 2 || pixels.height() < 2 || !(rect.width() > 0) || !(rect.height() > 0)) return;
  if (!fine && expectSlow(pixels))
    pixels = QSize(std::max(2, pixels.width() / kCoarseFactor), std::max(2, pixels.height() / kCoarseFactor));
  else
    fine = true;

  const quint64 generation = generation_;
  auto* job = startJob<OpenedRegions>(
      tr("Drawing the opened model's regions"),
      [model = model_, projection = shownView_->projection, colours = colours_.colour, rect, pixels,
       fine](const Progress& progress) -> Result<OpenedRegions> {
        const auto start = std::chrono::steady_clock::now();
        auto map = computeRegionsThroughPreprocessing(model->preprocessor, *model->model, model->theta, projection,
                                                      viewGrid(rect, pixels), progress);
        if (!map) return map.error();
        OpenedRegions out;
        out.map = std::move(map).value();
        // In the colours of the dataset's classes of the same names (opened_model.h).
        RegionMap coloured = out.map;
        for (int& label : coloured.labels) label = colours[static_cast<std::size_t>(label)];
        out.image = renderRegionMap(coloured, fine);
        out.dataRect = rect;
        out.nsPerPixel = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
                         (static_cast<double>(pixels.width()) * pixels.height());
        return out;
      },
      this);
  regionJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job, generation, fine](JobHandle::State state) {
    job->deleteLater();
    if (regionJob_ == job) regionJob_.clear();
    if (!isShowing()) return;
    // The view moved on while this ran: draw where it is now (unless the timer will).
    if (generation != generation_) {
      if (!debounce_.isActive()) startRegions(false);
      return;
    }
    if (state != JobHandle::State::Succeeded) return;
    OpenedRegions regions = job->takeValue();
    if (fine) nsPerPixel_ = regions.nsPerPixel;
    shownMap_ = std::move(regions.map);
    view_->setUnderlay(regions.image, regions.dataRect);
    emit regionsUpdated();
    if (!fine) startRegions(true);
  });
}

}  // namespace dpstudio::ui
