#include "ui/dataset/class_balance_widget.h"

#include <QPainter>
#include <QPaintEvent>

#include <algorithm>

#include "ui/plot/class_palette.h"

namespace dpstudio::ui {

ClassBalanceWidget::ClassBalanceWidget(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  setToolTip(tr("Rows per class; the bar shows each class's share of the dataset."));
}

void ClassBalanceWidget::setCounts(const QStringList& names, const std::vector<long long>& counts) {
  names_ = names;
  counts_ = counts;
  total_ = 0;
  for (long long c : counts_) total_ += c;
  updateGeometry();
  update();
}

void ClassBalanceWidget::clear() { setCounts({}, {}); }

int ClassBalanceWidget::rowHeight() const { return fontMetrics().height() + 4; }

int ClassBalanceWidget::shownRows() const {
  const int n = static_cast<int>(counts_.size());
  return n <= maxRows() ? n : maxRows() + 1;  // the last row summarises the rest
}

QSize ClassBalanceWidget::sizeHint() const {
  return {220, std::max(1, shownRows()) * rowHeight() + 2};
}

QSize ClassBalanceWidget::minimumSizeHint() const { return {160, sizeHint().height()}; }

void ClassBalanceWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm = fontMetrics();
  const int h = rowHeight();
  const int n = static_cast<int>(counts_.size());
  if (n == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, tr("No dataset"));
    return;
  }

  // Columns: swatch | name | bar | "count (pct%)".
  int nameWidth = 0;
  for (int k = 0; k < std::min(n, maxRows()); ++k)
    nameWidth = std::max(nameWidth, fm.horizontalAdvance(names_[k]) + 2);  // + rounding slack
  nameWidth = std::min(nameWidth, width() * 2 / 5);
  const QString widest = QStringLiteral("%1 (100.0%)").arg(total_);
  const int countWidth = fm.horizontalAdvance(widest);
  const int swatch = fm.ascent() - 2;
  const int x0 = 2;
  const int nameX = x0 + swatch + 6;
  const int barX = nameX + nameWidth + 8;
  const int countX = width() - countWidth - 2;
  const int barWidth = std::max(10, countX - barX - 8);
  long long largest = 1;
  for (long long c : counts_) largest = std::max(largest, c);

  const QColor text = palette().color(QPalette::WindowText);
  const QColor track = palette().color(QPalette::Midlight);
  for (int row = 0; row < shownRows(); ++row) {
    const int y = row * h;
    const int mid = y + h / 2;
    if (row == maxRows()) {  // summary of the classes not drawn
      long long rest = 0;
      for (int k = maxRows(); k < n; ++k) rest += counts_[static_cast<std::size_t>(k)];
      p.setPen(text);
      p.drawText(QRect(nameX, y, width() - nameX, h), Qt::AlignVCenter,
                 tr("… %1 more classes, %2 rows").arg(n - maxRows()).arg(rest));
      break;
    }
    const long long count = counts_[static_cast<std::size_t>(row)];
    const QColor colour = classColor(row);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawEllipse(QRectF(x0, mid - swatch / 2.0, swatch, swatch));

    p.setPen(text);
    p.drawText(QRect(nameX, y, nameWidth, h), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(names_[row], Qt::ElideRight, nameWidth));

    const int barHeight = std::max(4, h / 2);
    const QRectF trackRect(barX, mid - barHeight / 2.0, barWidth, barHeight);
    p.setPen(Qt::NoPen);
    p.setBrush(track);
    p.drawRoundedRect(trackRect, 2, 2);
    QRectF fill = trackRect;
    fill.setWidth(barWidth * static_cast<double>(count) / static_cast<double>(largest));
    p.setBrush(colour);
    p.drawRoundedRect(fill, 2, 2);

    const double pct = total_ > 0 ? 100.0 * static_cast<double>(count) / static_cast<double>(total_) : 0.0;
    p.setPen(text);
    p.drawText(QRect(countX, y, countWidth, h), Qt::AlignVCenter | Qt::AlignRight,
               QStringLiteral("%1 (%2%)").arg(count).arg(pct, 0, 'f', 1));
  }
}

}  // namespace dpstudio::ui
