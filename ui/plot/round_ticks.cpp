#include "ui/plot/round_ticks.h"

#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace dpstudio::ui {
namespace {

bool usableRange(double min, double max) {
  return std::isfinite(min) && std::isfinite(max) && max > min;
}

void applyStep(QValueAxis* axis, double step) {
  axis->setTickType(QValueAxis::TicksDynamic);
  // Qt places ticks by adding the interval repeatedly, so the tick at zero can come out as
  // -1e-17 and read "-0.0"; an anchor a hair above zero keeps it on the positive side.
  axis->setTickAnchor(step * 1e-9);
  axis->setTickInterval(step);
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

}  // namespace

double roundTickStep(double span, int intervals) {
  if (!(span > 0.0) || !std::isfinite(span) || intervals < 1) return 0.0;
  const double raw = span / intervals;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  return (norm < 1.5 ? 1.0 : norm < 3.5 ? 2.0 : norm < 7.5 ? 5.0 : 10.0) * magnitude;
}

void setRangeWithRoundTicks(QValueAxis* axis, double min, double max, int intervals) {
  if (!usableRange(min, max)) return;
  const double step = roundTickStep(max - min, intervals);
  if (!(step > 0.0)) return;
  // Widening: the coarser step first, so the old (narrow) range gets fewer ticks, not more.
  // Narrowing, or fixed ticks (a bounded count whatever the range): the range first.
  if (axis->tickType() == QValueAxis::TicksDynamic && step >= axis->tickInterval()) {
    applyStep(axis, step);
    axis->setRange(min, max);
  } else {
    axis->setRange(min, max);
    applyStep(axis, step);
  }
}

void fitRoundTicks(QValueAxis* axis, int intervals) {
  const double step = roundTickStep(axis->max() - axis->min(), intervals);
  if (!(step > 0.0)) return;
  if (axis->tickType() == QValueAxis::TicksDynamic && axis->tickInterval() == step) return;
  applyStep(axis, step);
}

void useBoundedTicks(QValueAxis* axis) { axis->setTickType(QValueAxis::TicksFixed); }

}  // namespace dpstudio::ui
