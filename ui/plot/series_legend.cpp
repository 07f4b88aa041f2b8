#include "ui/plot/series_legend.h"

#include <QCheckBox>
#include <QIcon>
#include <QPainter>
#include <QPixmap>
#include <QResizeEvent>
#include <QSignalBlocker>

#include <algorithm>

namespace dpstudio::ui {
namespace {

// The line as the chart draws it: a short stroke in its pen, a dot for a mean's points.
QIcon lineIcon(const LegendEntry& entry, qreal devicePixelRatio) {
  const QSize size(28, 14);
  QPixmap pixmap(size * devicePixelRatio);
  pixmap.setDevicePixelRatio(devicePixelRatio);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  QPen pen = entry.pen;
  pen.setWidthF(std::min<qreal>(std::max<qreal>(pen.widthF(), 2.0), 3.0));
  painter.setPen(pen);
  const qreal middle = size.height() / 2.0;
  painter.drawLine(QPointF(1, middle), QPointF(size.width() - 1, middle));
  if (entry.marked) {
    painter.setPen(Qt::NoPen);
    painter.setBrush(pen.color());
    painter.drawEllipse(QPointF(size.width() / 2.0, middle), 4.0, 4.0);
  }
  return QIcon(pixmap);
}

}  // namespace

constexpr int kMargin = 8;   // left and right, as the chart's plot margin
constexpr int kSpacing = 14;  // between entries in a row

SeriesLegend::SeriesLegend(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("seriesLegend"));
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

QStringList SeriesLegend::names() const {
  QStringList out;
  for (const LegendEntry& entry : entries_) out << entry.name;
  return out;
}

void SeriesLegend::setEntries(const std::vector<LegendEntry>& entries) {
  const bool sameLines = entries == entries_;
  entries_ = entries;
  if (!sameLines) {
    rebuild();
    return;
  }
  for (std::size_t i = 0; i < boxes_.size() && i < entries_.size(); ++i) {
    const QSignalBlocker quiet(boxes_[i]);
    boxes_[i]->setChecked(entries_[i].shown);
  }
}

void SeriesLegend::rebuild() {
  for (QCheckBox* box : boxes_) delete box;
  boxes_.clear();
  for (const LegendEntry& entry : entries_) {
    auto* box = new QCheckBox(entry.name, this);
    box->setObjectName(QStringLiteral("legendEntry"));
    box->setIcon(lineIcon(entry, devicePixelRatioF()));
    box->setIconSize(QSize(28, 14));
    box->setChecked(entry.shown);
    box->setToolTip(tr("Show or hide \u201c%1\u201d on the chart").arg(entry.name));
    const QString name = entry.name;
    connect(box, &QCheckBox::toggled, this, [this, name](bool on) { emit shownChanged(name, on); });
    box->show();
    boxes_.push_back(box);
  }
  updateGeometry();
  const std::vector<QRect> places = placesAt(width());
  for (std::size_t i = 0; i < boxes_.size(); ++i) boxes_[i]->setGeometry(places[i]);
}

std::vector<QRect> SeriesLegend::placesAt(int width) const {
  std::vector<QRect> places;
  const int right = std::max(width - kMargin, kMargin + 1);
  int x = kMargin, y = 0, rowHeight = 0;
  for (const QCheckBox* box : boxes_) {
    const QSize size = box->sizeHint();
    if (x > kMargin && x + size.width() > right) {  // the next row
      x = kMargin;
      y += rowHeight;
      rowHeight = 0;
    }
    // A name wider than the row is cut at its edge; the tooltip has it whole.
    places.emplace_back(x, y, std::min(size.width(), right - x), size.height());
    x += size.width() + kSpacing;
    rowHeight = std::max(rowHeight, size.height());
  }
  return places;
}

int SeriesLegend::heightForWidth(int width) const {
  int bottom = 0;
  for (const QRect& place : placesAt(width)) bottom = std::max(bottom, place.bottom() + 1);
  return bottom;
}

// Narrowing never stops at the legend: at the minimum, one entry a row.
QSize SeriesLegend::minimumSizeHint() const { return {2 * kMargin + 120, heightForWidth(2 * kMargin + 120)}; }

QSize SeriesLegend::sizeHint() const {
  int total = 2 * kMargin;
  for (const QCheckBox* box : boxes_) total += box->sizeHint().width() + kSpacing;
  return {total, heightForWidth(total)};
}

void SeriesLegend::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const std::vector<QRect> places = placesAt(width());
  for (std::size_t i = 0; i < boxes_.size(); ++i) boxes_[i]->setGeometry(places[i]);
}

}  // namespace dpstudio::ui
