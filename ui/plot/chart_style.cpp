#include "ui/plot/chart_style.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QFontInfo>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace dpstudio::ui {

QFont chartFont(double factor, bool bold) {
  QFont font = QApplication::font();
  font.setFamily(QFontInfo(font).family());
  const double base = font.pointSizeF() > 0 ? font.pointSizeF() : 9.0;
  font.setPointSizeF(std::max(base, 9.0) * factor);
  font.setBold(bold);
  return font;
}

void styleChartAxis(QAbstractAxis* axis) {
  axis->setLabelsFont(chartFont(1.0));
  axis->setTitleFont(chartFont(1.1));
  axis->setLabelsColor(QColor(30, 30, 30));
  axis->setTitleBrush(QColor(30, 30, 30));
  QPen line(QColor(60, 60, 60));
  line.setWidthF(1.0);
  axis->setLinePen(line);
  axis->setGridLineColor(QColor(0, 0, 0, 30));
  axis->setMinorGridLineColor(QColor(0, 0, 0, 12));
}

LogRange logRange(double lo, double hi, int maxTicks) {
  if (!(lo > 0.0) || !(hi >= lo) || !std::isfinite(hi)) return logRange(0.1, 10.0, maxTicks);
  int lo10 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int hi10 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (hi10 == lo10) {  // one power of ten: show the decades on either side
    --lo10;
    ++hi10;
  }
  const int k = std::max(1, (hi10 - lo10 + maxTicks - 1) / maxTicks);
  lo10 = static_cast<int>(std::floor(static_cast<double>(lo10) / k)) * k;
  hi10 = static_cast<int>(std::ceil(static_cast<double>(hi10) / k)) * k;
  const double pad = 0.03 * (hi10 - lo10);
  return {std::pow(10.0, lo10 - pad), std::pow(10.0, hi10 + pad), std::pow(10.0, k)};
}

}  // namespace dpstudio::ui
