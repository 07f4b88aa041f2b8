#pragma once
// The bounds chart of the privacy–utility view (core/experiment/bound_figure.h), drawn under
// the accuracy chart: for one bounded quantity, each measured series as a solid line with its
// ± one standard deviation band (the accuracy chart's colour of that series), each published
// bound as a dashed line of the same colour, and each bound's vacuity level as a dotted grey
// line. The y axis is logarithmic.
//
// Honest about what does not fit: a bound far above everything measured would squeeze the
// measurements into the bottom of the chart, so the y axis ends one decade above the
// measurements and the vacuity levels, and a bound beyond that is drawn at the top edge
// (clipped) with an upward triangle at each such value, counted by clippedPoints(). Values ≤ 0
// cannot be drawn on a log axis: left out (the figure's notes say so). No legend: the colours
// are the accuracy chart's, and the view writes the key of the line styles under the chart.
//
// Hovering a series shows what it is: a bound's theorem, formula, δ, caveat and "as published:
// the paper's constants, not verified by this product"; a measurement's mean, sd and count.
// Needs a QApplication, on its thread (Qt Charts).

#include <QChart>
#include <QList>

#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "core/experiment/bound_figure.h"

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace dpstudio::ui {

class BoundChart : public QChart {
  Q_OBJECT

 public:
  explicit BoundChart(QGraphicsItem* parent = nullptr);

  // The colour index (classColor) of a measured series by key: the accuracy chart's.
  using ColourOf = std::function<int(const std::string& seriesKey)>;
  // Shows `figure`; x over `xRange` when given (the accuracy chart's, so the two align),
  // else over the figure's values.
  void setFigure(const experiment::BoundFigure& figure, const ColourOf& colourOf = {},
                 std::optional<std::pair<double, double>> xRange = std::nullopt);

  const experiment::BoundFigure& figure() const { return figure_; }
  const QList<QLineSeries*>& measuredSeries() const { return measured_; }  // figure().series order
  const QList<QAreaSeries*>& bandSeries() const { return bands_; }
  const QList<QLineSeries*>& boundSeries() const { return bounds_; }       // figure().bounds order
  const QList<QLineSeries*>& levelSeries() const { return levels_; }       // distinct vacuity levels
  QScatterSeries* clippedSeries() const { return clipped_; }               // null: nothing clipped
  int clippedPoints() const;
  QAbstractAxis* xAxis() const { return axisX_; }
  QLogValueAxis* yAxis() const { return axisY_; }
  double clipLevel() const { return clipLevel_; }

  // The hover texts (also for tests).
  QString boundDescription(int index) const;
  QString measuredDescription(int index, double x) const;

 private:
  void rebuild(const ColourOf& colourOf);
  void setRanges(std::optional<std::pair<double, double>> xRange);
  void fill();
  void attach(QAbstractSeries* series);

  experiment::BoundFigure figure_;
  QList<QLineSeries*> measured_;
  QList<QAreaSeries*> bands_;
  QList<QLineSeries*> bounds_;
  QList<QLineSeries*> levels_;
  QScatterSeries* clipped_ = nullptr;
  QAbstractAxis* axisX_ = nullptr;
  QLogValueAxis* axisY_ = nullptr;
  double clipLevel_ = 0;
};

}  // namespace dpstudio::ui
