#include "ui/decision_overlay.h"

#include <algorithm>

#include "ui/jobs/job.h"
#include "ui/region_image.h"
#include "ui/scatter_view.h"

namespace dpstudio::ui {
namespace {

// Points per ellipse outline: smooth at any zoom a user would pick.
constexpr int kEllipsePoints = 180;
// Region images larger than this (device pixels per side) are not worth their time.
constexpr int kMaxRegionPixels = 2048;
// The first image of a model core cannot restrict exactly has 1/kCoarseFactor² the pixels.
constexpr int kCoarseFactor = 4;

QString number(double value) { return QString::number(value, 'g', 4); }

QString preprocessingText(const PreprocessSpec& spec) {
  QStringList steps;
  if (spec.unitRows) steps << QObject::tr("rows scaled to unit norm");
  if (spec.normBound) steps << QObject::tr("norm bound R = %1").arg(number(*spec.normBound));
  if (spec.intercept) steps << QObject::tr("intercept appended");
  return steps.join(QStringLiteral(", "));
}

void addPointSets(ScatterContent& content, const Dataset& data, const Eigen::MatrixXd& coords, SeriesRole role) {
  const std::size_t first = content.pointSets.size();
  for (Index k = 0; k < data.classes(); ++k) {
    PointSet set;
    set.name = QString::fromStdString(data.classNames[static_cast<std::size_t>(k)]);
    set.classIndex = static_cast<int>(k);
    set.role = role;
    content.pointSets.push_back(std::move(set));
  }
  for (Index i = 0; i < coords.rows(); ++i) {
    const int k = data.y[i];
    if (k >= 0 && k < data.classes())
      content.pointSets[first + static_cast<std::size_t>(k)].points.append(QPointF(coords(i, 0), coords(i, 1)));
  }
}

ScatterContent modelContent(const TrainingResult& result, const ModelView& view) {
  const ModelViewGeometry& geometry = view.geometry;
  const TrainingSettings& settings = result.settings;
  ScatterContent content;
  // Test points first, so that the filled training points are drawn over the rings.
  if (geometry.testCoords.rows() > 0) addPointSets(content, result.data.test, geometry.testCoords, SeriesRole::TestPoints);
  addPointSets(content, result.data.train, geometry.trainCoords, SeriesRole::Points);

  int drawn = 0;
  const QString shadowNote = geometry.ellipsesAreShadows
                                 ? QObject::tr("\nFor d = %1 > 2 this is the shadow (orthogonal projection) of "
                                               "the class's ellipsoid on the view plane.")
                                       .arg(result.model.model->inputDim())
                                 : QString();
  for (std::size_t k = 0; k < geometry.ellipses.size(); ++k) {
    const Eigen::MatrixXd outline = geometry.ellipses[k].polyline(kEllipsePoints);
    if (outline.rows() == 0) continue;  // unbounded along the view plane: nothing to draw
    ClassCurve curve;
    curve.classIndex = static_cast<int>(k);
    for (Index i = 0; i < outline.rows(); ++i) curve.points.append(QPointF(outline(i, 0), outline(i, 1)));
    curve.tooltip = QObject::tr("%1: LMGC ellipse, where the class score has risen by one margin above "
                                "its minimum: (x \u2212 \u03bc)\u1d40\u03a8(x \u2212 \u03bc) = %2.%3")
                        .arg(QString::fromStdString(result.data.train.classNames[k]))
                        .arg(number(geometry.ellipses[k].level))
                        .arg(shadowNote);
    content.curves.push_back(std::move(curve));
    ++drawn;
  }

  content.keys.push_back({QObject::tr("training points"), SeriesRole::Points});
  if (geometry.testCoords.rows() > 0) content.keys.push_back({QObject::tr("test points"), SeriesRole::TestPoints});
  if (drawn > 0)
    content.keys.push_back({geometry.ellipsesAreShadows ? QObject::tr("class ellipses (shadows)")
                                                        : QObject::tr("class ellipses"),
                            SeriesRole::Curve});

  const QString preprocessing = preprocessingText(settings.data.preprocess);
  for (int axis = 0; axis < 2; ++axis) {
    const QString name = QString::fromStdString(geometry.projection.axisNames[axis]);
    content.axisTitles[axis] = preprocessing.isEmpty() ? name : QObject::tr("%1, preprocessed").arg(name);
  }

  const QString model = modelDisplayName(settings.learner.kind);
  content.title = QObject::tr("%1 \u2014 %2 (not private: no mechanism)").arg(result.datasetName, model);
  // Short lines rather than one long one: the chart elides a title wider than itself.
  QStringList notes;
  notes << (preprocessing.isEmpty() ? QObject::tr("raw features") : preprocessing);
  notes << QObject::tr("regions: the model's decisions on the view plane through the data mean");
  // Further lines, one note each: what the picture cannot show when the model sees more
  // than two dimensions.
  QStringList detailNotes;
  const Index d = result.model.model->inputDim();
  if (d > 2)
    detailNotes << QObject::tr("points are projected onto the plane from %1-D: a point's region need not "
                               "be its prediction")
                       .arg(d);
  if (geometry.ellipsesAreShadows && drawn > 0)
    detailNotes << QObject::tr("ellipses: shadows of the %1-D class ellipsoids on the plane").arg(d);
  const int undrawn = static_cast<int>(geometry.ellipses.size()) - drawn;
  if (undrawn > 0)
    detailNotes << QObject::tr("%n ellipse(s) not drawn: unbounded along the view plane", nullptr, undrawn);
  QString html = QObject::tr("%1 \u2014 %2 &nbsp;<span style=\"color:#b00020\">\u26a0 not private: no mechanism</span>")
                     .arg(result.datasetName.toHtmlEscaped(), model.toHtmlEscaped());
  if (geometry.projection.notPrivate)
    html += QObject::tr(" <span style=\"color:#b00020\">\u26a0 PCA view: fitted on the data</span>");
  const QString noteStyle = QStringLiteral("<br><span style=\"font-weight:normal; font-size:small; color:#555555\">%1</span>");
  html += noteStyle.arg(notes.join(QStringLiteral(" \u00b7 ")).toHtmlEscaped());
  for (const QString& note : detailNotes) html += noteStyle.arg(note.toHtmlEscaped());
  content.titleHtml = html;
  return content;
}

}  // namespace

DecisionOverlay::DecisionOverlay(ScatterView* view, QObject* parent) : QObject(parent), view_(view) {
  // Coalesces the bursts of range and resize signals one zoom or drag produces.
  debounce_.setSingleShot(true);
  debounce_.setInterval(15);
  connect(&debounce_, &QTimer::timeout, this, [this] { startRegions(false); });
  connect(view_, &ScatterView::visibleAreaChanged, this, &DecisionOverlay::scheduleRegions);
}

void DecisionOverlay::show(std::shared_ptr<const TrainingResult> result, std::shared_ptr<const ModelView> view) {
  detach();
  if (!result || !view) return;
  result_ = std::move(result);
  modelView_ = std::move(view);
  view_->showContent(modelContent(*result_, *modelView_));
  scheduleRegions();
}

void DecisionOverlay::detach() {
  ++generation_;
  debounce_.stop();
  if (regionJob_) regionJob_->cancel();  // its result will be dropped
  result_.reset();
  modelView_.reset();
}

void DecisionOverlay::scheduleRegions() {
  if (!isShowing()) return;
  ++generation_;
  debounce_.start();
}

void DecisionOverlay::startRegions(bool fine) {
  if (!isShowing()) return;
  // One computation at a time: core cannot stop one midway, so superseded ones would pile
  // up during a drag. The running one's finish starts the latest request instead.
  if (regionJob_) return;
  const QRectF rect = view_->visibleDataRect();
  QSize pixels = view_->plotPixelSize().boundedTo(QSize(kMaxRegionPixels, kMaxRegionPixels));
  if (pixels.width() < 2 || pixels.height() < 2 || !(rect.width() > 0) || !(rect.height() > 0)) return;
  // Core restricts models with polynomial scores of degree <= 2 to the plane exactly (a
  // few ms at any size); anything else is evaluated pixel by pixel, so it gets a coarse
  // image first and the full one after it.
  const int degree = result_->model.model->scoreDegree();
  if (degree < 1 || degree > 2) {
    if (!fine) pixels = QSize(std::max(2, pixels.width() / kCoarseFactor), std::max(2, pixels.height() / kCoarseFactor));
  } else {
    fine = true;
  }

  const quint64 generation = generation_;
  auto* job = startJob<RegionImage>(
      tr("Drawing decision regions"),
      [result = result_, modelView = modelView_, rect, pixels, fine](const Progress& progress) -> Result<RegionImage> {
        if (progress.cancelled()) return Error::cancelled();
        return computeRegionImage(*result->model.model, result->model.theta,
                                  modelView->geometry.projection, rect, pixels, fine);
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
    RegionImage regions = job->takeValue();
    view_->setUnderlay(regions.image, regions.dataRect);
    emit regionsUpdated();
    if (!fine) startRegions(true);
  });
}

}  // namespace dpstudio::ui
