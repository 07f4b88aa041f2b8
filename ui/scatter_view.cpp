#include "ui/scatter_view.h"

#include <QChart>
#include <QCursor>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QMouseEvent>
#include <QPainter>
#include <QPixmap>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

#include "ui/class_palette.h"

namespace dpstudio::ui {
namespace {

// Above this many rows each point is drawn as a pre-rendered image (a Qt Charts "light
// marker") instead of a QGraphicsItem of its own: 60 000 items take a second to build and
// ~200 ms to repaint, images ~15 ms.
constexpr Index kLightMarkerRows = 3000;

// Smaller, lighter markers as the cloud grows, so that dense regions stay readable.
qreal markerSizeFor(Index rows) {
  if (rows <= 400) return 9.0;
  if (rows <= kLightMarkerRows) return 7.0;
  if (rows <= 20000) return 5.0;
  return 4.0;
}

QScatterSeries::MarkerShape markerShapeFor(int classIndex) {
  // Colours repeat after classPaletteSize() classes; the shape then tells them apart.
  static constexpr std::array<QScatterSeries::MarkerShape, 5> shapes = {
      QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle,
      QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle,
      QScatterSeries::MarkerShapePentagon};
  const auto cycle = static_cast<std::size_t>(classIndex / classPaletteSize());
  return shapes[cycle % shapes.size()];
}

QImage lightMarkerImage(const QScatterSeries* series, qreal dpr) {
  const qreal size = series->markerSize();
  const int pixels = std::max(1, static_cast<int>(std::ceil(size * dpr)));
  QImage image(pixels, pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  image.setDevicePixelRatio(dpr);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(Qt::NoPen);
  painter.setBrush(series->brush());
  const QRectF box(0.0, 0.0, size, size);
  switch (series->markerShape()) {
    case QScatterSeries::MarkerShapeRectangle: painter.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5)); break;
    case QScatterSeries::MarkerShapeTriangle:
      painter.drawPolygon(QPolygonF{{0.0, size}, {size, size}, {size / 2.0, 0.0}});
      break;
    default: painter.drawEllipse(box); break;
  }
  return image;
}

void setLightMarker(QScatterSeries* series, bool on, qreal dpr) {
  series->setLightMarker(on ? lightMarkerImage(series, dpr) : QImage());
  // The per-point items stay hidden while the images are drawn in their place.
  series->setPointsVisible(!on);
}

void styleSeries(QScatterSeries* series, int classIndex, Index rows) {
  QColor fill = classColor(classIndex);
  series->setMarkerShape(markerShapeFor(classIndex));
  series->setMarkerSize(markerSizeFor(rows));
  if (rows > kLightMarkerRows) {
    fill.setAlphaF(rows > 20000 ? 0.6f : 0.75f);
    series->setPen(Qt::NoPen);
  } else {
    series->setPen(QPen(QColor(255, 255, 255, 200), 0.8));
  }
  series->setColor(fill);
  series->setBrush(fill);
}

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

// Ticks at round numbers (1, 2 or 5 × 10^k) about six to an axis, kept round while zooming.
void useRoundTicks(QValueAxis* axis, qreal min, qreal max) {
  const double span = max - min;
  if (!(span > 0.0) || !std::isfinite(span)) return;
  const double raw = span / 6.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm < 1.5 ? 1.0 : norm < 3.5 ? 2.0 : norm < 7.5 ? 5.0 : 10.0) * magnitude;
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  axis->setTickType(QValueAxis::TicksDynamic);
  // Qt places ticks by adding the interval repeatedly, so the tick at zero can come out as
  // -1e-17 and read "-0.0"; an anchor a hair above zero keeps it on the positive side.
  axis->setTickAnchor(step * 1e-9);
  axis->setTickInterval(step);
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

}  // namespace

ScatterView::ScatterView(QWidget* parent)
    : QChartView(parent), axisX_(new QValueAxis), axisY_(new QValueAxis) {
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);  // thousands of markers: no tweening
  chart->setTheme(QChart::ChartThemeLight);
  chart->setBackgroundRoundness(0);
  chart->setMargins(QMargins(8, 8, 8, 8));
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  chart->legend()->setShowToolTips(true);
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  titleFont.setBold(true);
  chart->setTitleFont(titleFont);

  for (QValueAxis* axis : {axisX_, axisY_}) {
    connect(axis, &QValueAxis::rangeChanged, axis,
            [axis](qreal min, qreal max) { useRoundTicks(axis, min, max); });
    axis->setGridLineColor(QColor(0xe4, 0xe4, 0xe4));
    QFont font = axis->titleFont();
    font.setBold(false);
    axis->setTitleFont(font);
  }
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  setChart(chart);
  scene()->setItemIndexMethod(QGraphicsScene::NoIndex);

  setRenderHint(QPainter::Antialiasing);
  setRubberBand(QChartView::RectangleRubberBand);
  setMinimumSize(360, 280);
  setStatusTip(tr("Drag to zoom into a region; double-click to see everything again; "
                  "right-click zooms out; click a class in the legend to hide or show it."));
  // Let file drops reach the main window.
  setAcceptDrops(false);
  viewport()->setAcceptDrops(false);
}

void ScatterView::showData(const Dataset& dataset, const DatasetView& view, const QString& title) {
  QChart* c = chart();
  c->zoomReset();
  const int classes = static_cast<int>(dataset.classes());
  lightMarkers_ = dataset.rows() > kLightMarkerRows;
  {
    const DetachedChart detached(scene(), c);
    c->removeAllSeries();
    setAxisRanges(view.coords);

    std::vector<QList<QPointF>> points(static_cast<std::size_t>(classes));
    const std::vector<Index> counts = dataset.classCounts();
    for (std::size_t k = 0; k < points.size() && k < counts.size(); ++k)
      points[k].reserve(static_cast<qsizetype>(counts[k]));
    for (Index i = 0; i < view.coords.rows(); ++i) {
      const int k = dataset.y[i];
      if (k >= 0 && k < classes)
        points[static_cast<std::size_t>(k)].append(QPointF(view.coords(i, 0), view.coords(i, 1)));
    }

    for (int k = 0; k < classes; ++k) {
      auto* series = new QScatterSeries;
      series->setName(QString::fromStdString(dataset.classNames[static_cast<std::size_t>(k)]));
      styleSeries(series, k, dataset.rows());
      if (lightMarkers_) setLightMarker(series, true, devicePixelRatioF());
      c->addSeries(series);
      series->attachAxis(axisX_);
      series->attachAxis(axisY_);
      series->replace(points[static_cast<std::size_t>(k)]);
      connect(series, &QScatterSeries::hovered, this,
              [name = series->name()](const QPointF& p, bool entered) {
                if (entered)
                  QToolTip::showText(QCursor::pos(), tr("%1\n(%2, %3)")
                                                         .arg(name)
                                                         .arg(p.x(), 0, 'g', 4)
                                                         .arg(p.y(), 0, 'g', 4));
                else
                  QToolTip::hideText();
              });
    }
    // Legend entries at a readable size even when the markers are small.
    c->legend()->setMarkerShape(classes <= classPaletteSize() ? QLegend::MarkerShapeCircle
                                                              : QLegend::MarkerShapeFromSeries);
    c->legend()->setVisible(classes > 0);
    for (QLegendMarker* marker : c->legend()->markers())
      connect(marker, &QLegendMarker::clicked, this, [this, marker] { toggleSeries(marker); });
  }

  axisX_->setTitleText(QString::fromStdString(view.projection.axisNames[0]));
  axisY_->setTitleText(QString::fromStdString(view.projection.axisNames[1]));

  QString heading = title.toHtmlEscaped();
  if (view.projection.notPrivate)
    heading += tr(" &nbsp;<span style=\"color:#b00020\">\u26a0 not private: the axes are "
                  "fitted on the data</span>");
  c->setTitle(heading);
  plainTitle_ = title;
}

void ScatterView::showMessage(const QString& message) {
  chart()->zoomReset();
  {
    const DetachedChart detached(scene(), chart());
    chart()->removeAllSeries();
  }
  lightMarkers_ = false;
  chart()->legend()->setVisible(false);
  axisX_->setTitleText({});
  axisY_->setTitleText({});
  chart()->setTitle(message.toHtmlEscaped());
  plainTitle_ = message;
}

void ScatterView::toggleSeries(QLegendMarker* marker) {
  QAbstractSeries* series = marker->series();
  {
    const DetachedChart detached(scene(), chart());
    series->setVisible(!series->isVisible());
  }
  // Qt hides a hidden series' legend entry too; keep it, dimmed, so it can be clicked back.
  marker->setVisible(true);
  const qreal alpha = series->isVisible() ? 1.0 : 0.35;
  QBrush label = marker->labelBrush();
  QColor labelColour = label.color();
  labelColour.setAlphaF(static_cast<float>(alpha));
  label.setColor(labelColour);
  marker->setLabelBrush(label);
  QBrush fill = marker->brush();
  QColor fillColour = fill.color();
  fillColour.setAlphaF(static_cast<float>(alpha));
  fill.setColor(fillColour);
  marker->setBrush(fill);
}

void ScatterView::setLightMarkers(bool on) {
  const DetachedChart detached(scene(), chart());
  for (QAbstractSeries* s : chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s)) setLightMarker(scatter, on, devicePixelRatioF());
}

void ScatterView::setAxisRanges(const Eigen::MatrixXd& coords) {
  QValueAxis* axes[2] = {axisX_, axisY_};
  for (int j = 0; j < 2; ++j) {
    double lo = 0.0;
    double hi = 1.0;
    if (coords.rows() > 0) {
      lo = coords.col(j).minCoeff();
      hi = coords.col(j).maxCoeff();
    }
    double pad = 0.04 * (hi - lo);
    if (!(pad > 0.0)) pad = std::max(1.0, std::abs(lo) * 0.1);  // a constant axis
    axes[j]->setRange(lo - pad, hi + pad);
  }
}

int ScatterView::seriesCount() const { return static_cast<int>(chart()->series().size()); }

int ScatterView::pointCount() const {
  int total = 0;
  for (QAbstractSeries* s : chart()->series())
    if (auto* xy = qobject_cast<QXYSeries*>(s)) total += xy->count();
  return total;
}

QStringList ScatterView::seriesNames() const {
  QStringList names;
  for (QAbstractSeries* s : chart()->series()) names << s->name();
  return names;
}

void ScatterView::resetZoom() { chart()->zoomReset(); }

void ScatterView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) {
    resetZoom();
    event->accept();
    return;
  }
  QChartView::mouseDoubleClickEvent(event);
}

bool ScatterView::exportPng(const QString& path, QString* error) {
  // grab() renders at the widget's device pixel ratio, so a HiDPI screen gets a sharp file.
  const QPixmap pixmap = grab();
  if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
    if (error) *error = tr("Could not write the image to %1.").arg(path);
    return false;
  }
  return true;
}

bool ScatterView::exportSvg(const QString& path, QString* error) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
    if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
    return false;
  }
  QSvgGenerator generator;
  generator.setOutputDevice(&file);
  generator.setSize(size());
  generator.setViewBox(rect());
  generator.setTitle(plainTitle_);
  generator.setDescription(tr("Scatter view exported from dpstudio"));
  // An SVG should hold shapes, not thousands of little bitmaps: draw real markers for it.
  if (lightMarkers_) setLightMarkers(false);
  {
    QPainter painter(&generator);
    painter.setRenderHint(QPainter::Antialiasing);
    render(&painter, QRectF(rect()), viewport()->rect());
  }
  if (lightMarkers_) setLightMarkers(true);
  if (file.error() != QFileDevice::NoError) {
    if (error) *error = tr("Could not write %1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

bool ScatterView::exportImage(const QString& path, QString* error) {
  if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
    return exportSvg(path, error);
  return exportPng(path, error);
}

}  // namespace dpstudio::ui
