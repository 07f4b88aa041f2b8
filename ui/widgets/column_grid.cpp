#include "ui/widgets/column_grid.h"

#include <QResizeEvent>
#include <QStyle>

#include <algorithm>

namespace dpstudio::ui {

// No QLayout: a widget with a layout is measured through the layout (QWidgetItem), which
// knows nothing of heightForWidth here; the cells are placed by hand instead.
ColumnGrid::ColumnGrid(int fewestColumns, int mostColumns, QWidget* parent)
    : QWidget(parent), fewest_(std::max(1, fewestColumns)), most_(std::max(fewest_, mostColumns)) {
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
}

void ColumnGrid::addWidget(QWidget* widget) {
  widget->setParent(this);
  cells_.push_back(widget);
  updateGeometry();
  place(width());
}

int ColumnGrid::spacing() const {
  return std::max(0, style()->pixelMetric(QStyle::PM_LayoutHorizontalSpacing, nullptr, this));
}

int ColumnGrid::columnWidth() const {
  int widest = 0;
  for (const QWidget* cell : cells_) widest = std::max(widest, cell->sizeHint().width());
  return widest;
}

int ColumnGrid::rowHeight() const {
  int tallest = 0;
  for (const QWidget* cell : cells_) tallest = std::max(tallest, cell->sizeHint().height());
  return tallest;
}

int ColumnGrid::widthOf(int columns) const { return columns * columnWidth() + (columns - 1) * spacing(); }

int ColumnGrid::columnsFor(int width) const {
  int columns = fewest_;
  while (columns < most_ && widthOf(columns + 1) <= width) ++columns;
  return columns;
}

int ColumnGrid::rowsFor(int columns) const {
  return (static_cast<int>(cells_.size()) + columns - 1) / columns;
}

int ColumnGrid::heightForWidth(int width) const {
  const int rows = rowsFor(columnsFor(width));
  return rows * rowHeight() + std::max(0, rows - 1) * spacing() / 2;
}

QSize ColumnGrid::minimumSizeHint() const { return {widthOf(fewest_), heightForWidth(widthOf(fewest_))}; }

QSize ColumnGrid::sizeHint() const { return {widthOf(most_), heightForWidth(widthOf(most_))}; }

void ColumnGrid::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const int before = columns_;
  place(event->size().width());
  if (columns_ != before) updateGeometry();  // the height changed with the rows
}

void ColumnGrid::place(int width) {
  columns_ = columnsFor(width);
  const int cellWidth = std::max(columnWidth(), (width - (columns_ - 1) * spacing()) / columns_);
  const int height = rowHeight();
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const int row = static_cast<int>(i) / columns_;
    const int column = static_cast<int>(i) % columns_;
    cells_[i]->setGeometry(column * (cellWidth + spacing()), row * (height + spacing() / 2), cellWidth, height);
  }
}

}  // namespace dpstudio::ui
