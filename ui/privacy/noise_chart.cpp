#include "ui/privacy/noise_chart.h"

#include <QAreaSeries>
#include <QFileInfo>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ui/plot/round_ticks.h"
#include "ui/plot/view_export.h"
#include "ui/training/calibration_view.h"

namespace dpstudio::ui {
namespace {

constexpr int kDensityPoints = 241;
constexpr int kMaxBins = 60;
constexpr double kTail = 5e-4;  // the range covers the law's central 1 − 2·kTail

int riceBins(std::size_t count) {
  return std::clamp(static_cast<int>(std::ceil(2.0 * std::cbrt(static_cast<double>(count)))), 1, kMaxBins);
}

}  // namespace

// Counts grouped as the calibration's numbers are ("2 003"), to match "Simulate 2 000 draws".
QString drawnText(std::size_t drawn, std::size_t simulated) {
  QString text = drawn == 1 ? QObject::tr("1 norm drawn")
                            : QObject::tr("%1 norms drawn").arg(formatDerivedValue(static_cast<double>(drawn)));
  if (simulated > 0) text += QObject::tr(" (%1 simulated)").arg(formatDerivedValue(static_cast<double>(simulated)));
  return text;
}

QString releasedText(const std::vector<double>& released) {
  if (released.empty()) return QObject::tr("no released draw yet");
  const QString last = formatDerivedValue(released.back());
  if (released.size() == 1) return QObject::tr("released draw: %1").arg(last);
  return QObject::tr("%1 released draws (last %2)").arg(formatDerivedValue(static_cast<double>(released.size())), last);
}

QList<QPointF> densityHistogramOutline(const std::vector<double>& values, double lo, double hi, int bins) {
  std::vector<long> counts(static_cast<std::size_t>(bins), 0);
  const double width = (hi - lo) / bins;
  for (double v : values) {
    const int bin = std::clamp(static_cast<int>(std::floor((v - lo) / width)), 0, bins - 1);
    ++counts[static_cast<std::size_t>(bin)];
  }
  QList<QPointF> outline;
  outline.reserve(4 * bins);
  const double scale = 1.0 / (static_cast<double>(values.size()) * width);
  for (int b = 0; b < bins; ++b) {
    const double left = lo + b * width, right = b + 1 == bins ? hi : lo + (b + 1) * width;
    const double height = static_cast<double>(counts[static_cast<std::size_t>(b)]) * scale;
    outline << QPointF(left, 0.0) << QPointF(left, height) << QPointF(right, height) << QPointF(right, 0.0);
  }
  return outline;
}

NoiseChart::NoiseChart(QWidget* parent)
    : QChartView(parent),
      // The area series does not own its outline series (Qt Charts): the view does.
      bars_(new QLineSeries(this)),
      floor_(new QLineSeries(this)),
      density_(new QLineSeries),
      mean_(new QLineSeries),
      released_(new QScatterSeries),
      axisX_(new QValueAxis),
      axisY_(new QValueAxis) {
  auto* chart = new QChart;
  chart->setTheme(QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->legend()->setVisible(false);  // the Noise view's side panel is the key on screen
  chart->setMargins(QMargins(4, 4, 4, 4));
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 0.9);
  titleFont.setBold(false);
  chart->setTitleFont(titleFont);

  histogram_ = new QAreaSeries(bars_, floor_);
  histogram_->setColor(QColor(100, 149, 237, 150));
  histogram_->setPen(QPen(Qt::white, 1.0));  // the outline's drops separate the bars

  QPen densityPen(QColor(33, 33, 33));
  densityPen.setWidthF(2.0);
  density_->setPen(densityPen);

  QPen meanPen(QColor(198, 40, 40));
  meanPen.setStyle(Qt::DashLine);
  meanPen.setWidthF(1.5);
  mean_->setPen(meanPen);

  released_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
  released_->setMarkerSize(11);
  released_->setColor(QColor(230, 120, 0));
  released_->setBorderColor(Qt::white);

  chart->addSeries(histogram_);
  chart->addSeries(density_);
  chart->addSeries(mean_);
  chart->addSeries(released_);
  axisX_->setTitleText(tr("\u2016b\u2016"));
  axisY_->setTitleText(tr("density"));
  axisX_->setLabelFormat(QStringLiteral("%g"));
  axisY_->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (QAbstractSeries* series : chart->series()) {
    series->attachAxis(axisX_);
    series->attachAxis(axisY_);
  }
  // QChartView made a chart of its own, which setChart() releases without deleting.
  QChart* made = this->chart();
  setChart(chart);
  delete made;
  setToolTip(tr("Bars: the norms \u2016b\u2016 of the noise vectors drawn, as a density (total area 1). "
                "Curve: the density of \u2016b\u2016 under the calibration. Dashed: its mean E\u2016b\u2016. "
                "Triangles: the draws of the model's releases."));
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(200, 120);
  clear(QString());
}

void NoiseChart::clear(const QString& title) {
  for (QLineSeries* series : {bars_, floor_, density_, mean_}) series->clear();
  released_->clear();
  for (QAbstractSeries* series : chart()->series()) series->setVisible(false);
  syncLegend();
  axisX_->setRange(0.0, 1.0);
  axisY_->setRange(0.0, 1.0);
  chart()->setTitle(title);
}

void NoiseChart::showLaw(const privacy::NoiseNormLaw& law, const std::vector<double>& released,
                         const std::vector<double>& simulated, const QString& title) {
  std::vector<double> all = released;
  all.insert(all.end(), simulated.begin(), simulated.end());
  double lo = law.quantile(kTail), hi = law.quantile(1.0 - kTail);
  if (lo < 0.25 * hi) lo = 0.0;  // a law that starts near 0 reads better from 0
  for (double v : all) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }

  double top = 0.0;
  QList<QPointF> curve;
  curve.reserve(kDensityPoints);
  for (int i = 0; i < kDensityPoints; ++i) {
    const double r = lo + (hi - lo) * i / (kDensityPoints - 1);
    const double y = law.pdf(r);
    curve << QPointF(r, std::isfinite(y) ? y : 0.0);
    if (std::isfinite(y)) top = std::max(top, y);
  }
  density_->replace(curve);
  density_->setName(tr("density of \u2016b\u2016"));

  if (all.empty()) {
    bars_->clear();
    floor_->clear();
  } else {
    const QList<QPointF> outline = densityHistogramOutline(all, lo, hi, riceBins(all.size()));
    for (const QPointF& p : outline) top = std::max(top, p.y());
    bars_->replace(outline);
    floor_->replace(QList<QPointF>{{lo, 0.0}, {hi, 0.0}});
  }
  histogram_->setName(drawnText(all.size(), simulated.size()));

  const double yMax = top > 0.0 ? 1.12 * top : 1.0;
  const double mean = law.mean();
  mean_->replace(QList<QPointF>{{mean, 0.0}, {mean, yMax}});
  mean_->setName(tr("E\u2016b\u2016 = %1").arg(formatDerivedValue(mean)));

  QList<QPointF> marks;
  for (double v : released) marks << QPointF(v, 0.04 * yMax);  // just above the axis, visible
  released_->replace(marks);
  released_->setName(releasedText(released));

  setRangeWithRoundTicks(axisX_, lo, hi, 5);
  // The round ticks' own label format: as many decimals as the step needs, whatever the
  // magnitude. (%g printed the first tick, anchored a hair above zero, as "5e-11".)
  setRangeWithRoundTicks(axisY_, 0.0, yMax, 3);
  histogram_->setVisible(!all.empty());
  density_->setVisible(true);
  mean_->setVisible(true);
  released_->setVisible(!released.empty());
  syncLegend();
  chart()->setTitle(title);
}

void NoiseChart::setLegendShown(bool shown) { chart()->legend()->setVisible(shown); }

void NoiseChart::syncLegend() {
  // A hidden series keeps its legend entry otherwise.
  for (QLegendMarker* marker : chart()->legend()->markers()) marker->setVisible(marker->series()->isVisible());
}

bool NoiseChart::exportImage(const QString& path, const QString& description, QString* error) {
  if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
    return writeViewSvg(this, path, chart()->title(), description, error);
  return writeViewPng(this, path, error);
}

}  // namespace dpstudio::ui
