#include "ui/plot/scatter_view.h"

#include <QChart>
#include <QCursor>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/plot/chart_navigation.h"
#include "ui/plot/class_palette.h"
#include "ui/plot/round_ticks.h"
#include "ui/plot/view_export.h"

namespace dpstudio::ui {
namespace {

// Qt Charts updates its scene once per marker as points are added, which turns 60 000
// points into minutes of work; building the series while the chart is out of the scene
// and putting it back once costs a fraction of a second.
class DetachedChart {
 public:
  DetachedChart(QGraphicsScene* scene, QChart* chart) : scene_(scene), chart_(chart) {
    scene_->removeItem(chart_);
  }
  ~DetachedChart() { scene_->addItem(chart_); }
  DetachedChart(const DetachedChart&) = delete;
  DetachedChart& operator=(const DetachedChart&) = delete;

 private:
  QGraphicsScene* scene_;
  QChart* chart_;
};

void showHoverTip(const QString& text, bool entered) {
  if (entered) QToolTip::showText(QCursor::pos(), text);
  else QToolTip::hideText();
}

// A padded [min, max] that is never empty.
QPointF paddedRange(double lo, double hi) {
  if (!(lo <= hi)) return {0.0, 1.0};  // nothing to show
  double pad = 0.04 * (hi - lo);
  if (!(pad > 0.0)) pad = std::max(1.0, std::abs(lo) * 0.1);  // a constant axis
  return {lo - pad, hi + pad};
}

}  // namespace

ScatterView::ScatterView(QWidget* parent)
    : QChartView(parent), axisX_(new QValueAxis), axisY_(new QValueAxis), navigation_(nullptr) {
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);  // thousands of markers: no tweening
  chart->setTheme(QChart::ChartThemeLight);
  // drawBackground() paints the white background and the underlay; a chart background
  // would cover the underlay.
  chart->setBackgroundVisible(false);
  chart->setMargins(QMargins(8, 8, 8, 8));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  chart->legend()->setShowToolTips(true);
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  titleFont.setBold(true);
  chart->setTitleFont(titleFont);

  for (QValueAxis* axis : {axisX_, axisY_}) {
    connect(axis, &QValueAxis::rangeChanged, axis, [axis] { fitRoundTicks(axis); });
    connect(axis, &QValueAxis::rangeChanged, this, &ScatterView::visibleAreaChanged);
    axis->setGridLineColor(QColor(0, 0, 0, 28));  // translucent: visible over the regions too
    QFont font = axis->titleFont();
    font.setBold(false);
    axis->setTitleFont(font);
  }
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  // QChartView made a chart of its own, which setChart() releases without deleting.
  QChart* made = this->chart();
  setChart(chart);
  delete made;
  connect(chart, &QChart::plotAreaChanged, this, &ScatterView::visibleAreaChanged);
  scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
  navigation_ = new ChartNavigation(this, axisX_, axisY_);

  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::RectangleRubberBand);
  setMinimumSize(360, 280);
  setStatusTip(tr("Drag to zoom into a region, or use the wheel; middle-drag or Shift+drag pans; "
                  "double-click shows everything again; click a legend entry to hide or show it."));
  // Let file drops reach the main window.
  setAcceptDrops(false);
  viewport()->setAcceptDrops(false);
}

void ScatterView::showData(const Dataset& dataset, const DatasetView& view, const QString& title) {
  ScatterContent content;
  const auto classes = static_cast<std::size_t>(dataset.classes());
  const std::vector<Index> counts = dataset.classCounts();
  content.pointSets.resize(classes);
  for (std::size_t k = 0; k < classes; ++k) {
    content.pointSets[k].name = QString::fromStdString(dataset.classNames[k]);
    content.pointSets[k].classIndex = static_cast<int>(k);
    if (k < counts.size()) content.pointSets[k].points.reserve(static_cast<qsizetype>(counts[k]));
  }
  for (Index i = 0; i < view.coords.rows(); ++i) {
    const int k = dataset.y[i];
    if (k >= 0 && static_cast<std::size_t>(k) < classes)
      content.pointSets[static_cast<std::size_t>(k)].points.append(QPointF(view.coords(i, 0), view.coords(i, 1)));
  }
  content.axisTitles[0] = QString::fromStdString(view.projection.axisNames[0]);
  content.axisTitles[1] = QString::fromStdString(view.projection.axisNames[1]);
  content.title = title;
  content.titleHtml = title.toHtmlEscaped();
  if (view.projection.notPrivate)
    content.titleHtml += tr(" &nbsp;<span style=\"color:#b00020\">\u26a0 not private: the axes are "
                            "fitted on the data</span>");
  showContent(content);
}

void ScatterView::showContent(const ScatterContent& content) {
  QChart* c = chart();
  resetChartZoom();
  clearUnderlay();
  hiddenClasses_.clear();
  hiddenRoles_.clear();
  qsizetype total = 0;
  for (const PointSet& set : content.pointSets) total += set.points.size();
  lightMarkers_ = total > kLightMarkerRows;
  {
    const DetachedChart detached(scene(), c);
    c->removeAllSeries();
    setHomeRanges(content);
    auto attach = [this, c](QAbstractSeries* series) {
      c->addSeries(series);
      series->attachAxis(axisX_);
      series->attachAxis(axisY_);
    };

    for (const PointSet& set : content.pointSets) {
      QScatterSeries* series = makePointSeries(set, total);
      if (lightMarkers_) setLightMarker(series, true, devicePixelRatioF());
      attach(series);
      series->replace(set.points);
      connect(series, &QScatterSeries::hovered, this, [name = series->name()](const QPointF& p, bool entered) {
        showHoverTip(tr("%1\n(%2, %3)").arg(name).arg(p.x(), 0, 'g', 4).arg(p.y(), 0, 'g', 4), entered);
      });
    }
    for (const ClassCurve& curve : content.curves) {
      QLineSeries* series = makeCurveSeries(curve);
      attach(series);
      QList<QPointF> points = curve.points;
      if (curve.closed && !points.isEmpty()) points.append(points.first());
      series->replace(points);
      connect(series, &QLineSeries::hovered, this,
              [tip = curve.tooltip](const QPointF&, bool entered) { showHoverTip(tip, entered); });
    }
    for (const LegendKey& key : content.keys) attach(makeKeySeries(key));

    // Legend entries at a readable size even when the markers are small (and never the
    // light-marker images, which an SVG must not contain) unless shapes are needed to tell
    // classes apart; the key for curves keeps the look of a line.
    int classes = 0;
    for (const PointSet& set : content.pointSets) classes = std::max(classes, set.classIndex + 1);
    QLegend* legend = c->legend();
    legend->setMarkerShape(classes <= classPaletteSize() ? QLegend::MarkerShapeCircle
                                                         : QLegend::MarkerShapeFromSeries);
    for (QLegendMarker* marker : legend->markers()) {
      if (roleOf(marker->series()) == SeriesRole::Key && (keyTarget(marker->series()) == SeriesRole::Curve ||
                                                          keyTarget(marker->series()) == SeriesRole::ReferenceCurve))
        marker->setShape(QLegend::MarkerShapeFromSeries);
      connect(marker, &QLegendMarker::clicked, this, [this, marker] { toggleFromLegend(marker); });
    }
    applyVisibility();
    legend->setVisible(!content.pointSets.empty());
  }

  axisX_->setTitleText(content.axisTitles[0]);
  axisY_->setTitleText(content.axisTitles[1]);
  titleHtml_ = content.titleHtml.isEmpty() ? content.title.toHtmlEscaped() : content.titleHtml;
  plainTitle_ = content.title;
  applyTitle();
}

bool ScatterView::replacePoints(SeriesRole role, int classIndex, const QList<QPointF>& points) {
  for (QAbstractSeries* series : chart()->series()) {
    auto* scatter = qobject_cast<QScatterSeries*>(series);
    if (scatter && roleOf(series) == role && classOf(series) == classIndex) {
      scatter->replace(points);
      return true;
    }
  }
  return false;
}

void ScatterView::showMessage(const QString& message) {
  resetChartZoom();
  clearUnderlay();
  {
    const DetachedChart detached(scene(), chart());
    chart()->removeAllSeries();
  }
  lightMarkers_ = false;
  chart()->legend()->setVisible(false);
  axisX_->setTitleText({});
  axisY_->setTitleText({});
  titleHtml_ = message.toHtmlEscaped();
  plainTitle_ = message;
  applyTitle();
}

void ScatterView::setUnderlay(const QImage& image, const QRectF& dataRect) {
  underlay_ = image;
  underlayRect_ = dataRect;
  viewport()->update();
}

void ScatterView::clearUnderlay() {
  if (underlay_.isNull()) return;
  underlay_ = QImage();
  underlayRect_ = QRectF();
  viewport()->update();
}

QRectF ScatterView::visibleDataRect() const {
  return QRectF(QPointF(axisX_->min(), axisY_->min()), QPointF(axisX_->max(), axisY_->max()));
}

QSize ScatterView::plotPixelSize() const {
  const QSizeF size = chart()->plotArea().size() * devicePixelRatioF();
  return QSize(std::max(0, static_cast<int>(std::lround(size.width()))),
               std::max(0, static_cast<int>(std::lround(size.height()))));
}

void ScatterView::drawBackground(QPainter* painter, const QRectF& rect) {
  painter->fillRect(rect, Qt::white);
  if (underlay_.isNull()) return;
  // Where the underlay's data rectangle is now, from the current axis ranges, so that a
  // zoom or pan moves the old image with the axes until the new one arrives.
  const QRectF plot = chart()->plotArea();
  const QRectF visible = visibleDataRect();
  if (!(visible.width() > 0) || !(visible.height() > 0) || plot.isEmpty()) return;
  const auto toChartX = [&](double x) { return plot.left() + (x - visible.left()) / visible.width() * plot.width(); };
  const auto toChartY = [&](double y) { return plot.bottom() - (y - visible.top()) / visible.height() * plot.height(); };
  const QRectF target(QPointF(toChartX(underlayRect_.left()), toChartY(underlayRect_.bottom())),
                      QPointF(toChartX(underlayRect_.right()), toChartY(underlayRect_.top())));
  painter->save();
  painter->setClipRect(chart()->mapRectToScene(plot), Qt::IntersectClip);
  // Nearest-neighbour scaling keeps the region boundaries crisp while an old image is
  // stretched during a zoom.
  painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter->drawImage(chart()->mapRectToScene(target), underlay_);
  painter->restore();
}

void ScatterView::toggleFromLegend(QLegendMarker* marker) {
  QAbstractSeries* series = marker->series();
  if (roleOf(series) == SeriesRole::Key) {
    const SeriesRole target = keyTarget(series);
    setRoleHidden(target, !isRoleHidden(target));
    return;
  }
  const int k = classOf(series);
  if (!hiddenClasses_.remove(k)) hiddenClasses_.insert(k);
  const DetachedChart detached(scene(), chart());
  applyVisibility();
}

void ScatterView::setRoleHidden(SeriesRole role, bool hidden) {
  if (hidden == isRoleHidden(role)) return;
  if (hidden) hiddenRoles_.insert(static_cast<int>(role));
  else hiddenRoles_.remove(static_cast<int>(role));
  {
    const DetachedChart detached(scene(), chart());
    applyVisibility();
  }
  emit roleVisibilityChanged(role, !hidden);
}

void ScatterView::applyVisibility() {
  for (QAbstractSeries* series : chart()->series()) {
    const SeriesRole role = roleOf(series);
    if (role == SeriesRole::Key) continue;  // no points to hide
    series->setVisible(!hiddenClasses_.contains(classOf(series)) && !hiddenRoles_.contains(static_cast<int>(role)));
  }
  // Qt hides a hidden series' legend entry and shows it again with the series. Entries
  // stay for classes and keys (dimmed when off, so that they can be clicked back) and never
  // appear for test points and curves, which their key and their class stand for.
  for (QLegendMarker* marker : chart()->legend()->markers()) {
    QAbstractSeries* series = marker->series();
    const SeriesRole role = roleOf(series);
    const bool listed = role == SeriesRole::Points || role == SeriesRole::Key;
    marker->setVisible(listed);
    if (!listed) continue;
    const bool off = role == SeriesRole::Key ? hiddenRoles_.contains(static_cast<int>(keyTarget(series)))
                                             : hiddenClasses_.contains(classOf(series));
    const float alpha = off ? 0.35f : 1.0f;
    QBrush label = marker->labelBrush();
    QColor labelColour = label.color();
    labelColour.setAlphaF(alpha);
    label.setColor(labelColour);
    marker->setLabelBrush(label);
    if (marker->brush().style() != Qt::NoBrush) {
      QBrush fill = marker->brush();
      QColor fillColour = fill.color();
      fillColour.setAlphaF(alpha);
      fill.setColor(fillColour);
      marker->setBrush(fill);
    }
  }
}

void ScatterView::setLightMarkers(bool on) {
  const DetachedChart detached(scene(), chart());
  for (QAbstractSeries* s : chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s); scatter && roleOf(s) != SeriesRole::Key)
      setLightMarker(scatter, on, devicePixelRatioF());
  // setLightMarker() shows the per-point items again; series the legend hid stay hidden.
  applyVisibility();
}

void ScatterView::setHomeRanges(const ScatterContent& content) {
  double lo[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  double hi[2] = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const PointSet& set : content.pointSets)
    for (const QPointF& p : set.points) {
      lo[0] = std::min(lo[0], p.x());
      hi[0] = std::max(hi[0], p.x());
      lo[1] = std::min(lo[1], p.y());
      hi[1] = std::max(hi[1], p.y());
    }
  homeX_ = paddedRange(lo[0], hi[0]);
  homeY_ = paddedRange(lo[1], hi[1]);
  setRangeWithRoundTicks(axisX_, homeX_.x(), homeX_.y());
  setRangeWithRoundTicks(axisY_, homeY_.x(), homeY_.y());
}

void ScatterView::setTitleNote(const QString& note) {
  if (note == titleNote_) return;
  titleNote_ = note;
  applyTitle();
}

void ScatterView::setInfoNote(const QString& note) {
  if (note == infoNote_) return;
  infoNote_ = note;
  applyTitle();
}

namespace {

// `text` as HTML with a line break wherever the next word would pass `width` in `font`: Qt
// Charts cuts a title line that is too long ("⚠ PCA view: fitted on th…"), it never wraps.
QString wrappedHtml(const QString& text, const QFont& font, qreal width) {
  const QFontMetricsF metrics(font);
  QStringList lines;
  QString line;
  for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
    if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
      lines << line.toHtmlEscaped();
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.isEmpty()) lines << line.toHtmlEscaped();
  return lines.join(QStringLiteral("<br>"));
}

}  // namespace

void ScatterView::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  applyTitle();  // the notes wrap to the new width
}

void ScatterView::applyTitle() {
  // The notes' lines fit the chart less its margins; the whole title is in the tooltip.
  const qreal width = std::max(200.0, chart()->size().width() - 40.0);
  QFont small = chart()->titleFont();
  small.setBold(false);
  small.setPointSizeF(small.pointSizeF() * 0.75);
  QString html = titleHtml_;
  if (!infoNote_.isEmpty())
    html += QStringLiteral("<br><span style=\"font-weight:normal; font-size:small; color:#555555\">%1</span>")
                .arg(wrappedHtml(infoNote_, small, width));
  setToolTip(titleText());
  if (!titleNote_.isEmpty()) {
    // A line of its own under the title's first line, above any notes, where it is seen.
    QFont bold = chart()->titleFont();
    const QString note = QStringLiteral("<br><span style=\"color:#b00020\">%1</span>")
                             .arg(wrappedHtml(QStringLiteral("\u26a0 ") + titleNote_, bold, width));
    const qsizetype lineBreak = html.indexOf(QLatin1String("<br>"));
    if (lineBreak < 0) html += note;
    else html.insert(lineBreak, note);
  }
  chart()->setTitle(html);
}

QString ScatterView::titleText() const {
  QString text = titleNote_.isEmpty() ? plainTitle_ : plainTitle_ + QStringLiteral(" \u26a0 ") + titleNote_;
  if (!infoNote_.isEmpty()) text += QStringLiteral(" \u00b7 ") + infoNote_;
  return text;
}

void ScatterView::resetChartZoom() {
  // zoomReset() restores the range of before the first rubber-band zoom, whatever the tick
  // interval is now: bounded ticks until rangeChanged makes them round again.
  if (!chart()->isZoomed()) return;
  useBoundedTicks(axisX_);
  useBoundedTicks(axisY_);
  chart()->zoomReset();
}

int ScatterView::seriesCount() const { return static_cast<int>(chart()->series().size()); }

int ScatterView::seriesCount(SeriesRole role) const {
  int count = 0;
  for (QAbstractSeries* s : chart()->series()) count += roleOf(s) == role ? 1 : 0;
  return count;
}

int ScatterView::pointCount() const {
  int total = 0;
  for (QAbstractSeries* s : chart()->series())
    if (auto* xy = qobject_cast<QXYSeries*>(s); xy && roleOf(s) != SeriesRole::Curve)
      total += xy->count();
  return total;
}

int ScatterView::pointCount(SeriesRole role) const {
  int total = 0;
  for (QAbstractSeries* s : chart()->series())
    if (auto* xy = qobject_cast<QXYSeries*>(s); xy && roleOf(s) == role) total += xy->count();
  return total;
}

QStringList ScatterView::seriesNames() const {
  QStringList names;
  for (QAbstractSeries* s : chart()->series()) names << s->name();
  return names;
}

void ScatterView::resetZoom() {
  resetChartZoom();
  // Wheel zoom and panning set the ranges directly, which zoomReset() does not undo.
  setRangeWithRoundTicks(axisX_, homeX_.x(), homeX_.y());
  setRangeWithRoundTicks(axisY_, homeY_.x(), homeY_.y());
}

void ScatterView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    resetZoom();
    event->accept();
    return;
  }
  QChartView::mouseDoubleClickEvent(event);
}

bool ScatterView::exportPng(const QString& path, QString* error) { return writeViewPng(this, path, error); }

bool ScatterView::exportSvg(const QString& path, QString* error) {
  // An SVG should hold shapes, not thousands of little bitmaps: draw real markers for it.
  // (The decision regions stay one embedded image: they are a raster by nature.)
  if (lightMarkers_) setLightMarkers(false);
  const bool ok = writeViewSvg(this, path, titleText(), tr("Scatter view exported from dpstudio"), error);
  if (lightMarkers_) setLightMarkers(true);
  return ok;
}

bool ScatterView::exportImage(const QString& path, QString* error) {
  if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
    return exportSvg(path, error);
  return exportPng(path, error);
}

}  // namespace dpstudio::ui
