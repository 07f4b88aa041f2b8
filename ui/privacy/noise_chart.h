#pragma once
// The Noise view's plot (Qt Charts): a histogram of drawn noise norms as bars normalized to
// a density (each bar's height is count/(N·width), so the bars' total area is 1), the law's
// density of ‖b‖ (NoiseNormLaw::pdf) over the same range, a vertical line at E‖b‖, and the
// released draws marked one by one just above the axis, so a release can be found in the
// crowd of simulated draws.
//
// The range is the law's central 99.9% (from 0 when that starts near 0), widened to take
// every draw, so nothing falls outside the bars. Bins: the Rice rule, ⌈2·N^{1/3}⌉, at most 60.
// Ticks fall on round numbers (steps of 1, 2 or 5 times a power of ten).
// Exports PNG (at the screen's device pixel ratio) or SVG.

#include <QChartView>
#include <QList>
#include <QPointF>

#include <vector>

#include "core/privacy/noise_norm_law.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

// The bars of a density histogram of `values` (not empty) over [lo, hi] in `bins` equal
// bins, as the outline the plot fills: for each bin (left, 0), (left, h), (right, h),
// (right, 0), h = count/(N·width). Values outside [lo, hi] are counted in the end bins.
QList<QPointF> densityHistogramOutline(const std::vector<double>& values, double lo, double hi, int bins);

// The histogram's legend text: "1 norm drawn", "2 003 norms drawn (2 000 simulated)".
QString drawnText(std::size_t drawn, std::size_t simulated);
// The released draws' legend text: "released draw: 16.2", "3 released draws (last 16.2)".
QString releasedText(const std::vector<double>& released);

class NoiseChart : public QChartView {
  Q_OBJECT

 public:
  explicit NoiseChart(QWidget* parent = nullptr);

  // The law with every norm drawn from it: `released` by the model's releases (also
  // marked), `simulated` by the Simulate button; either may be empty.
  void showLaw(const privacy::NoiseNormLaw& law, const std::vector<double>& released,
               const std::vector<double>& simulated, const QString& title);
  void clear(const QString& title);  // nothing to plot: empty series and `title`
  // The legend below the plot; hidden by default (the Noise view's side panel is the key).
  void setLegendShown(bool shown);

  QAreaSeries* histogramSeries() const { return histogram_; }
  QLineSeries* histogramOutline() const { return bars_; }  // histogramSeries()'s upper edge
  QLineSeries* densitySeries() const { return density_; }
  QLineSeries* meanSeries() const { return mean_; }
  QScatterSeries* releasedSeries() const { return released_; }

  // Picks the format from the suffix (".svg", anything else PNG); false with *error set.
  bool exportImage(const QString& path, const QString& description, QString* error = nullptr);

 private:
  void syncLegend();

  QLineSeries* bars_;
  QLineSeries* floor_;
  QAreaSeries* histogram_;
  QLineSeries* density_;
  QLineSeries* mean_;
  QScatterSeries* released_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
};

}  // namespace dpstudio::ui
