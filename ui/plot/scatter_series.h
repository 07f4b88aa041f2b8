#pragma once
// What the scatter view draws, and how: the content it is given (point sets per class and
// role, closed curves, legend keys) and the Qt Charts series made from it. Marker size
// follows the number of points, marker shape the class (so that classes sharing a colour
// after the palette wraps still differ), training points are filled and test points
// hollow, and large clouds are drawn with pre-rendered "light marker" images.
//
// Every series carries its role and class as dynamic properties, so that legend clicks and
// tests can find all series of a class or a role without a parallel list.

#include <QList>
#include <QPointF>
#include <QString>

#include <vector>

#include "core/data/dataset.h"

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace dpstudio::ui {

// What a series stands for. Points: one class's points, filled, with a legend entry.
// TestPoints: hollow, no legend entry of their own (a Key stands for all of them).
// Curve: a closed line in a class colour, no legend entry. Key: an empty series that is
// only a legend entry for every series of one role. ReferenceCurve: a dashed closed line in
// a class colour, no legend entry: the non-private model's ellipse beside a private one.
// AnsweredFill and AnsweredRing: test points a private predictor has answered, drawn as a
// dot filled in the colour of the released label (AnsweredFill, one series per released
// class) inside a thick ring in the colour of the true label (AnsweredRing, one series per
// true class), so that a wrong answer is a dot of another colour in its ring; no legend
// entries of their own.
// (New roles go last: a series stores its role as an int.)
enum class SeriesRole { Points, TestPoints, Curve, Key, ReferenceCurve, AnsweredFill, AnsweredRing };

struct PointSet {
  QString name;  // legend text: the class name
  int classIndex = 0;
  SeriesRole role = SeriesRole::Points;  // Points, TestPoints, AnsweredFill or AnsweredRing
  QList<QPointF> points;
};

struct ClassCurve {
  int classIndex = 0;
  SeriesRole role = SeriesRole::Curve;  // Curve or ReferenceCurve
  QList<QPointF> points;
  bool closed = true;     // the last point joins the first (an ellipse; not a strip's edge)
  QString tooltip;        // shown while hovering the curve
};

struct LegendKey {
  QString name;
  SeriesRole standsFor = SeriesRole::TestPoints;  // any role but Key
};

struct ScatterContent {
  std::vector<PointSet> pointSets;
  std::vector<ClassCurve> curves;
  std::vector<LegendKey> keys;
  QString axisTitles[2];
  QString title;      // plain text (export metadata); also the title if titleHtml is empty
  QString titleHtml;  // rich text shown above the plot
};

// Above this many points each marker is drawn as a pre-rendered image (a Qt Charts "light
// marker") instead of a QGraphicsItem of its own: 60 000 items take a second to build and
// ~200 ms to repaint, images ~15 ms.
inline constexpr Index kLightMarkerRows = 3000;

// A styled, tagged series for a set; totalPoints is the number shown over all sets (dense
// clouds get smaller, lighter markers). The points are added by the caller once the series
// is in a chart.
QScatterSeries* makePointSeries(const PointSet& set, Index totalPoints);
QLineSeries* makeCurveSeries(const ClassCurve& curve);
QAbstractSeries* makeKeySeries(const LegendKey& key);

// Switches a point series between per-point items and light-marker images at `dpr`.
void setLightMarker(QScatterSeries* series, bool on, qreal dpr);

SeriesRole roleOf(const QAbstractSeries* series);
int classOf(const QAbstractSeries* series);  // -1 for keys
SeriesRole keyTarget(const QAbstractSeries* key);

}  // namespace dpstudio::ui
