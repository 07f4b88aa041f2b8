#include "ui/plot/scatter_series.h"

#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>

#include <algorithm>
#include <array>
#include <cmath>

#include "ui/plot/class_palette.h"

namespace dpstudio::ui {
namespace {

const char* const kClassProperty = "dpstudioClass";
const char* const kRoleProperty = "dpstudioRole";
const char* const kKeyTargetProperty = "dpstudioKeyTarget";

void tag(QAbstractSeries* series, SeriesRole role, int classIndex) {
  series->setProperty(kRoleProperty, static_cast<int>(role));
  series->setProperty(kClassProperty, classIndex);
}

// Smaller, lighter markers as the cloud grows, so that dense regions stay readable.
qreal markerSizeFor(Index points) {
  if (points <= 400) return 9.0;
  if (points <= kLightMarkerRows) return 7.0;
  if (points <= 20000) return 5.0;
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

void styleSeries(QScatterSeries* series, int classIndex, Index points, bool hollow) {
  QColor colour = classColor(classIndex);
  series->setMarkerShape(markerShapeFor(classIndex));
  const bool dense = points > kLightMarkerRows;
  if (hollow) {
    // A ring one step larger than the filled markers so that it reads as "the same kind of
    // point, drawn open" rather than as a smaller class.
    series->setMarkerSize(markerSizeFor(points) + 1.0);
    if (dense) colour.setAlphaF(0.8f);
    series->setPen(QPen(colour, dense ? 1.2 : 1.6));
    series->setBrush(Qt::NoBrush);  // not setColor(): that would make the brush solid
    return;
  }
  series->setMarkerSize(markerSizeFor(points));
  if (dense) {
    colour.setAlphaF(points > 20000 ? 0.6f : 0.75f);
    series->setPen(Qt::NoPen);
  } else {
    series->setPen(QPen(QColor(255, 255, 255, 200), 0.8));
  }
  series->setColor(colour);
  series->setBrush(colour);
}

QImage lightMarkerImage(const QScatterSeries* series, qreal dpr) {
  const qreal size = series->markerSize();
  const int pixels = std::max(1, static_cast<int>(std::ceil(size * dpr)));
  QImage image(pixels, pixels, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  image.setDevicePixelRatio(dpr);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  // Hollow (test) markers are all pen; filled ones all brush, so that thousands of
  // overlapping markers do not turn into a mesh of outlines.
  const bool hollow = series->brush().style() == Qt::NoBrush;
  const qreal inset = hollow ? series->pen().widthF() / 2.0 : 0.5;
  painter.setPen(hollow ? series->pen() : QPen(Qt::NoPen));
  painter.setBrush(series->brush());
  const QRectF box = QRectF(0.0, 0.0, size, size).adjusted(inset, inset, -inset, -inset);
  switch (series->markerShape()) {
    case QScatterSeries::MarkerShapeRectangle: painter.drawRect(box); break;
    case QScatterSeries::MarkerShapeTriangle:
      painter.drawPolygon(QPolygonF{box.bottomLeft(), box.bottomRight(), {box.center().x(), box.top()}});
      break;
    default: painter.drawEllipse(box); break;
  }
  return image;
}

}  // namespace

// An answered test point: the ring is wider than a test point's and the dot inside it a
// little smaller than a training point, with a white gap between them, so that both colours
// read even when they are the same.
void styleAnswered(QScatterSeries* series, int classIndex, Index points, bool ring) {
  const qreal base = markerSizeFor(points);
  series->setMarkerShape(markerShapeFor(classIndex));
  const QColor colour = classColor(classIndex);
  if (ring) {
    series->setMarkerSize(base + 7.0);
    series->setPen(QPen(colour, 2.4));
    series->setBrush(Qt::NoBrush);
    return;
  }
  series->setMarkerSize(base);
  series->setPen(QPen(Qt::white, 1.2));
  series->setColor(colour);
  series->setBrush(colour);
}

QScatterSeries* makePointSeries(const PointSet& set, Index totalPoints) {
  auto* series = new QScatterSeries;
  tag(series, set.role, set.classIndex);
  switch (set.role) {
    case SeriesRole::TestPoints:
      series->setName(QObject::tr("%1 (test)").arg(set.name));
      styleSeries(series, set.classIndex, totalPoints, true);
      break;
    case SeriesRole::AnsweredFill:
      series->setName(QObject::tr("private answer: %1").arg(set.name));
      styleAnswered(series, set.classIndex, totalPoints, false);
      break;
    case SeriesRole::AnsweredRing:
      series->setName(QObject::tr("answered; true label: %1").arg(set.name));
      styleAnswered(series, set.classIndex, totalPoints, true);
      break;
    default:
      series->setName(set.name);
      styleSeries(series, set.classIndex, totalPoints, false);
      break;
  }
  return series;
}

QLineSeries* makeCurveSeries(const ClassCurve& curve) {
  auto* series = new QLineSeries;
  const bool reference = curve.role == SeriesRole::ReferenceCurve;
  tag(series, reference ? SeriesRole::ReferenceCurve : SeriesRole::Curve, curve.classIndex);
  // The reference is thinner and dashed: there to compare with, not the model shown.
  QPen pen(classColor(curve.classIndex), reference ? 1.6 : 2.0);
  if (reference) pen.setStyle(Qt::DashLine);
  series->setPen(pen);
  return series;
}

QAbstractSeries* makeKeySeries(const LegendKey& key) {
  // An empty series in grey, drawn like the role it stands for.
  const QColor grey(0x55, 0x55, 0x55);
  QAbstractSeries* series = nullptr;
  if (key.standsFor == SeriesRole::Curve || key.standsFor == SeriesRole::ReferenceCurve) {
    auto* line = new QLineSeries;
    QPen pen(grey, 2.0);
    if (key.standsFor == SeriesRole::ReferenceCurve) pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    series = line;
  } else {
    auto* marker = new QScatterSeries;
    marker->setMarkerSize(9.0);
    if (key.standsFor == SeriesRole::TestPoints || key.standsFor == SeriesRole::AnsweredRing) {
      marker->setPen(QPen(grey, key.standsFor == SeriesRole::AnsweredRing ? 2.4 : 1.6));
      marker->setBrush(Qt::NoBrush);
    } else {
      marker->setPen(QPen(Qt::white, 0.8));
      marker->setBrush(grey);
    }
    series = marker;
  }
  series->setName(key.name);
  tag(series, SeriesRole::Key, -1);
  series->setProperty(kKeyTargetProperty, static_cast<int>(key.standsFor));
  return series;
}

void setLightMarker(QScatterSeries* series, bool on, qreal dpr) {
  series->setLightMarker(on ? lightMarkerImage(series, dpr) : QImage());
  // The per-point items stay hidden while the images are drawn in their place.
  series->setPointsVisible(!on);
}

SeriesRole roleOf(const QAbstractSeries* series) {
  return static_cast<SeriesRole>(series->property(kRoleProperty).toInt());
}

int classOf(const QAbstractSeries* series) { return series->property(kClassProperty).toInt(); }

SeriesRole keyTarget(const QAbstractSeries* key) {
  return static_cast<SeriesRole>(key->property(kKeyTargetProperty).toInt());
}

}  // namespace dpstudio::ui
