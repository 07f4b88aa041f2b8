#pragma once
// Widgets in reading order, laid out in as many columns as the width holds (up to a most),
// like the mechanism check boxes of the Privacy–utility page: three columns on a wide
// screen, two at 1280×720, where three would force the window wider than the screen. Its
// minimum is the fewest columns' width, so it never stops its page from narrowing; its
// height follows its width (heightForWidth), so the rows below move up when it reflows.

#include <QWidget>

#include <vector>

namespace dpstudio::ui {

class ColumnGrid : public QWidget {
  Q_OBJECT

 public:
  ColumnGrid(int fewestColumns, int mostColumns, QWidget* parent = nullptr);

  void addWidget(QWidget* widget);  // the next cell in reading order
  int columns() const { return columns_; }

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  int spacing() const;
  int columnWidth() const;          // the widest cell's preferred width
  int rowHeight() const;            // the tallest cell's preferred height
  int columnsFor(int width) const;  // as many as fit, within [fewest, most]
  int rowsFor(int columns) const;
  int widthOf(int columns) const;
  void place(int width);            // sets each cell's geometry

  int fewest_;
  int most_;
  int columns_ = 0;
  std::vector<QWidget*> cells_;
};

}  // namespace dpstudio::ui
