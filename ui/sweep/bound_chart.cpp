#include "ui/sweep/bound_chart.h"

#include <QAreaSeries>
#include <QCursor>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

#include "ui/plot/chart_style.h"
#include "ui/plot/class_palette.h"
#include "ui/plot/round_ticks.h"

namespace dpstudio::ui {
namespace {

using experiment::BoundCurve;
using experiment::CurvePoint;

QString text(const std::string& s) { return QString::fromStdString(s); }

QString number(double value) { return QString::number(value, 'g', 3); }

double spread(const CurvePoint& p) { return std::isfinite(p.std) && p.std > 0 ? p.std : 0.0; }

// The measured points of one series, drawable on a log axis, by value.
std::vector<CurvePoint> pointsOf(const experiment::BoundFigure& figure, const std::string& key, bool logX) {
  std::vector<CurvePoint> out;
  for (const CurvePoint& p : figure.points)
    if (p.series == key && std::isfinite(p.mean) && p.mean > 0 && std::isfinite(p.value) && (!logX || p.value > 0))
      out.push_back(p);
  std::sort(out.begin(), out.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.value < b.value; });
  return out;
}

// The vacuity levels to draw, each once: label and points.
struct Level {
  QString label;
  std::vector<std::pair<double, double>> points;
};
std::vector<Level> levelsOf(const experiment::BoundFigure& figure) {
  std::vector<Level> out;
  for (const BoundCurve& curve : figure.bounds) {
    Level level{text(curve.vacuousLabel), {}};
    for (const auto& p : curve.points)
      if (p.vacuousAbove > 0) level.points.emplace_back(p.value, p.vacuousAbove);
    if (level.points.empty()) continue;
    const bool seen = std::any_of(out.begin(), out.end(), [&](const Level& l) {
      return l.label == level.label && l.points == level.points;
    });
    if (!seen) out.push_back(std::move(level));
  }
  // Two levels of one kind (e.g. two values of n) are told apart by their value.
  std::map<QString, int> count;
  for (const Level& l : out) ++count[l.label];
  for (Level& l : out)
    if (count[l.label] > 1) l.label += QStringLiteral(" (%1)").arg(number(l.points.front().second));
  return out;
}

}  // namespace

BoundChart::BoundChart(QGraphicsItem* parent) : QChart(parent) {
  setTheme(QChart::ChartThemeLight);
  setAnimationOptions(QChart::NoAnimation);
  setBackgroundRoundness(0);
  setDropShadowEnabled(false);
  setBackgroundBrush(Qt::white);
  // No plot-area frame: the view sets this chart's plot area to line up with the accuracy
  // chart's (BoundsPanel), and Qt Charts (6.4) leaves a fixed plot area's background where
  // the automatic layout had put it. The axes' lines frame the plot instead.
  setPlotAreaBackgroundVisible(false);
  setMargins(QMargins(10, 6, 16, 6));
  // No legend: a series has the accuracy chart's colour (its legend is right above), and the
  // line styles are the key under the chart (BoundsPanel); a legend here would take half of
  // a chart this small. The series keep their names for the hover texts and an export.
  legend()->setVisible(false);
  axisY_ = new QLogValueAxis;
  axisY_->setBase(10.0);
  axisY_->setLabelFormat(QStringLiteral("%.0e"));
  axisY_->setMinorTickCount(-1);
  addAxis(axisY_, Qt::AlignLeft);
  styleChartAxis(axisY_);
  setFigure({});
}

void BoundChart::attach(QAbstractSeries* series) {
  addSeries(series);
  series->attachAxis(axisX_);
  series->attachAxis(axisY_);
}

void BoundChart::setFigure(const experiment::BoundFigure& figure, const ColourOf& colourOf,
                           std::optional<std::pair<double, double>> xRange) {
  figure_ = figure;
  // The x axis follows the figure's kind (log for ε, λ, n; linear for D, C, K).
  const bool log = figure_.logAxis;
  if (!axisX_ || (qobject_cast<QLogValueAxis*>(axisX_) != nullptr) != log) {
    removeAllSeries();
    measured_.clear();
    bands_.clear();
    bounds_.clear();
    levels_.clear();
    clipped_ = nullptr;
    if (axisX_) {
      removeAxis(axisX_);
      delete axisX_;
    }
    if (log) {
      auto* axis = new QLogValueAxis;
      axis->setBase(10.0);
      axis->setLabelFormat(QStringLiteral("%g"));
      axis->setMinorTickCount(-1);
      axisX_ = axis;
    } else {
      axisX_ = new QValueAxis;
    }
    addAxis(axisX_, Qt::AlignBottom);
    styleChartAxis(axisX_);
  }
  // Under the accuracy chart the x axis is that chart's (its title is there) and the panel's
  // header names the quantity: no title and no x title, so the plot keeps the height.
  axisX_->setTitleVisible(false);
  axisY_->setTitleText(text(figure_.quantitySymbol));
  rebuild(colourOf);
  setRanges(xRange);
  fill();
}

void BoundChart::rebuild(const ColourOf& colourOf) {
  removeAllSeries();
  measured_.clear();
  bands_.clear();
  bounds_.clear();
  levels_.clear();
  clipped_ = nullptr;
  std::map<std::string, QColor> colours;
  for (std::size_t i = 0; i < figure_.series.size(); ++i) {
    const int index = colourOf ? colourOf(figure_.series[i].key) : -1;
    colours[figure_.series[i].key] = classColor(index >= 0 ? index : static_cast<int>(i));
  }
  // Bands at the back, then measurements, bounds, levels and the clipped marks.
  for (const auto& series : figure_.series) {
    auto* band = new QAreaSeries;
    band->setUpperSeries(new QLineSeries(band));
    band->setLowerSeries(new QLineSeries(band));
    QColor shade = colours[series.key];
    shade.setAlphaF(0.16);
    band->setBrush(shade);
    band->setPen(Qt::NoPen);
    attach(band);
    for (QLegendMarker* marker : legend()->markers(band)) marker->setVisible(false);
    bands_.append(band);
  }
  for (std::size_t i = 0; i < figure_.series.size(); ++i) {
    auto* line = new QLineSeries;
    QPen pen(colours[figure_.series[i].key]);
    pen.setWidthF(2.0);
    line->setPen(pen);
    line->setPointsVisible(true);
    line->setMarkerSize(6.0);
    line->setName(tr("%1 (measured)").arg(text(figure_.series[i].title)));
    attach(line);
    const int index = static_cast<int>(i);
    connect(line, &QLineSeries::hovered, this, [this, index](const QPointF& point, bool entered) {
      if (entered) QToolTip::showText(QCursor::pos(), measuredDescription(index, point.x()));
      else QToolTip::hideText();
    });
    measured_.append(line);
  }
  for (std::size_t i = 0; i < figure_.bounds.size(); ++i) {
    const BoundCurve& curve = figure_.bounds[i];
    auto* line = new QLineSeries;
    QPen pen(colours.count(curve.seriesKeys.front()) ? colours[curve.seriesKeys.front()] : QColor(40, 40, 40));
    pen.setWidthF(2.0);
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    line->setName(text(curve.label));
    attach(line);
    const int index = static_cast<int>(i);
    connect(line, &QLineSeries::hovered, this, [this, index](const QPointF&, bool entered) {
      if (entered) QToolTip::showText(QCursor::pos(), boundDescription(index));
      else QToolTip::hideText();
    });
    bounds_.append(line);
  }
  for (const Level& level : levelsOf(figure_)) {
    auto* line = new QLineSeries;
    QPen pen(QColor(110, 110, 110));
    pen.setWidthF(1.4);
    pen.setStyle(Qt::DotLine);
    line->setPen(pen);
    line->setName(level.label);
    attach(line);
    levels_.append(line);
  }
}

void BoundChart::setRanges(std::optional<std::pair<double, double>> xRange) {
  const bool logX = figure_.logAxis;
  // x: the accuracy chart's range, or the values.
  double xlo = HUGE_VAL, xhi = -HUGE_VAL;
  for (const CurvePoint& p : figure_.points) xlo = std::min(xlo, p.value), xhi = std::max(xhi, p.value);
  for (const BoundCurve& c : figure_.bounds)
    for (const auto& p : c.points) xlo = std::min(xlo, p.value), xhi = std::max(xhi, p.value);
  if (auto* logAxis = qobject_cast<QLogValueAxis*>(axisX_)) {
    const LogRange span = xRange ? LogRange{xRange->first, xRange->second, logAxis->base()}
                                 : (xlo <= xhi ? logRange(xlo, xhi) : logRange(0.1, 10.0));
    logAxis->setRange(span.min, span.max);
  } else if (auto* valueAxis = qobject_cast<QValueAxis*>(axisX_)) {
    const double pad = std::max(0.5, 0.04 * (xhi - xlo));
    if (xRange) setRangeWithRoundTicks(valueAxis, xRange->first, xRange->second);
    else if (xlo <= xhi) setRangeWithRoundTicks(valueAxis, xlo - pad, xhi + pad);
    else setRangeWithRoundTicks(valueAxis, 0.0, 1.0);
  }
  // y: one decade above what is measured and the vacuity levels; every drawable value below.
  double top = 0, low = HUGE_VAL;
  for (const auto& s : figure_.series)
    for (const CurvePoint& p : pointsOf(figure_, s.key, logX)) {
      top = std::max(top, p.mean + spread(p));
      low = std::min(low, p.mean - spread(p) > 0 ? p.mean - spread(p) : p.mean);
    }
  for (const BoundCurve& c : figure_.bounds)
    for (const auto& p : c.points)
      if (p.vacuousAbove > 0) top = std::max(top, p.vacuousAbove), low = std::min(low, p.vacuousAbove);
  if (!(top > 0))  // only bounds so far
    for (const BoundCurve& c : figure_.bounds)
      for (const auto& p : c.points)
        if (p.bound > 0 && std::isfinite(p.bound)) top = std::max(top, p.bound);
  if (!(top > 0)) top = 1.0;
  top *= 10.0;
  for (const BoundCurve& c : figure_.bounds)
    for (const auto& p : c.points)
      if (p.bound > 0 && p.bound <= top) low = std::min(low, p.bound);
  if (!(low < top)) low = top / 100.0;
  // As many decades labelled as fit (a label per ~28 px; more and Qt elides them all to "…").
  const double height = plotArea().height() > 0 ? plotArea().height() : 120.0;
  const LogRange range = logRange(low, top, std::max(2, static_cast<int>(height / 28.0)));
  if (range.base > axisY_->base()) axisY_->setBase(range.base);
  axisY_->setRange(range.min, range.max);
  if (range.base < axisY_->base()) axisY_->setBase(range.base);
  axisY_->setMinorTickCount(range.base == 10.0 ? -1 : 0);
  // Clipped bounds sit on the top tick (the padded edge would cut their marks).
  clipLevel_ = std::pow(10.0, std::floor(std::log10(range.max) + 1e-9));
}

void BoundChart::fill() {
  const bool logX = figure_.logAxis;
  const double bottom = axisY_->min();
  for (qsizetype i = 0; i < measured_.size(); ++i) {
    QList<QPointF> mean, upper, lower;
    for (const CurvePoint& p : pointsOf(figure_, figure_.series[static_cast<std::size_t>(i)].key, logX)) {
      mean.append({p.value, p.mean});
      upper.append({p.value, p.mean + spread(p)});
      lower.append({p.value, std::max(bottom, p.mean - spread(p))});
    }
    measured_[i]->replace(mean);
    bands_[i]->upperSeries()->replace(upper);
    bands_[i]->lowerSeries()->replace(lower);
  }
  QList<QPointF> clipped;
  for (qsizetype i = 0; i < bounds_.size(); ++i) {
    QList<QPointF> points;
    for (const auto& p : figure_.bounds[static_cast<std::size_t>(i)].points) {
      if (!(p.bound > 0) || !std::isfinite(p.value) || (logX && p.value <= 0)) continue;
      const bool over = !(p.bound <= clipLevel_);
      points.append({p.value, over ? clipLevel_ : p.bound});
      if (over) clipped.append({p.value, clipLevel_});
    }
    bounds_[i]->replace(points);
  }
  const auto* logAxisX = qobject_cast<QLogValueAxis*>(axisX_);
  const auto* valueAxisX = qobject_cast<QValueAxis*>(axisX_);
  const double xMin = logAxisX ? logAxisX->min() : valueAxisX->min();
  const double xMax = logAxisX ? logAxisX->max() : valueAxisX->max();
  const auto levels = levelsOf(figure_);
  for (qsizetype i = 0; i < levels_.size() && i < static_cast<qsizetype>(levels.size()); ++i) {
    QList<QPointF> points;
    const auto& drawn = levels[static_cast<std::size_t>(i)].points;
    const bool flat = std::all_of(drawn.begin(), drawn.end(), [&](const auto& p) { return p.second == drawn.front().second; });
    if (flat) {  // one level for every value: across the x range, as a reference line
      const double y = std::min(drawn.front().second, clipLevel_);
      points = {{xMin, y}, {xMax, y}};
    } else {
      for (const auto& [x, y] : drawn) points.append({x, std::min(y, clipLevel_)});
    }
    levels_[i]->replace(points);
  }
  if (!clipped.isEmpty()) {
    clipped_ = new QScatterSeries;
    clipped_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    clipped_->setMarkerSize(11.0);
    clipped_->setColor(QColor(60, 60, 60));
    clipped_->setBorderColor(QColor(60, 60, 60));
    clipped_->setName(tr("Bound above the chart: clipped"));
    attach(clipped_);
    clipped_->replace(clipped);
  }
}

int BoundChart::clippedPoints() const { return clipped_ ? static_cast<int>(clipped_->count()) : 0; }

QString BoundChart::boundDescription(int index) const {
  if (index < 0 || index >= static_cast<int>(figure_.bounds.size())) return {};
  const BoundCurve& c = figure_.bounds[static_cast<std::size_t>(index)];
  QStringList lines{tr("%1, as published: the paper's formula and constants, not verified by this product")
                        .arg(text(c.source)),
                    text(c.formula)};
  if (figure_.quantity != experiment::BoundedQuantity::ParameterDistance)
    lines << tr("Holds with probability \u2265 %1 (\u03b4 = %2) if the paper's proof does.")
                 .arg(1.0 - figure_.delta)
                 .arg(figure_.delta);
  QStringList titles;
  for (const std::string& t : c.seriesTitles) titles << text(t);
  lines << tr("For: %1").arg(titles.join(QStringLiteral("; ")));
  QStringList values;
  for (const auto& p : c.points) values << QStringLiteral("%1 at %2").arg(number(p.bound), number(p.value));
  lines << tr("Bound: %1").arg(values.join(QStringLiteral(", ")));
  if (c.vacuousSomewhere())
    lines << tr("Vacuous for these data where it is above the dotted line: %1.").arg(text(c.vacuousMeaning));
  if (!c.caveat.empty()) lines << text(c.caveat);
  return lines.join('\n');
}

QString BoundChart::measuredDescription(int index, double x) const {
  if (index < 0 || index >= static_cast<int>(figure_.series.size())) return {};
  const std::string& key = figure_.series[static_cast<std::size_t>(index)].key;
  const auto position = [this](double v) { return figure_.logAxis ? std::log10(std::max(v, 1e-300)) : v; };
  const CurvePoint* nearest = nullptr;
  for (const CurvePoint& p : figure_.points)
    if (p.series == key && (!nearest || std::abs(position(p.value) - position(x)) <
                                            std::abs(position(nearest->value) - position(x))))
      nearest = &p;
  if (!nearest) return {};
  return tr("%1 (measured)\n%2 = %3\nmean %4 \u00b1 %5 (std), %6 trials\n%7")
      .arg(text(figure_.series[static_cast<std::size_t>(index)].title), text(figure_.axis))
      .arg(nearest->value, 0, 'g', 4)
      .arg(nearest->mean, 0, 'g', 4)
      .arg(nearest->std, 0, 'g', 3)
      .arg(nearest->count)
      .arg(text(figure_.definition));
}

}  // namespace dpstudio::ui
