#pragma once
// What the sweep figures share in how they look (ui/plot/utility_chart.h, the accuracy curve; ui/
// sweep/bound_chart.h, the published bounds under it): fonts, axis styling and the decade
// ranges of logarithmic axes, so the two charts stacked in the privacy–utility view read as
// one figure. Needs a QApplication (fonts).

#include <QFont>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

// The application's font scaled by `factor` (at least 9 pt before scaling), by the family it
// resolves to ("DejaVu Sans", not the alias "Sans Serif"), so that an SVG names a font other
// programs can find.
QFont chartFont(double factor, bool bold = false);

// Dark labels and axis line, faint grid lines.
void styleChartAxis(QAbstractAxis* axis);

// A logarithmic range of whole decades around [lo, hi] (groups of k decades when they span
// more than `maxTicks`), widened by 3 % of the span on each side so that markers at the ends
// are not cut; base = 10^k, the tick spacing. Invalid input gives the range of [0.1, 10].
struct LogRange {
  double min = 0, max = 0, base = 10.0;
};
LogRange logRange(double lo, double hi, int maxTicks = 10);

}  // namespace dpstudio::ui
