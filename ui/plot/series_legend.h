#pragma once
// A chart's legend as widgets beside the chart view: one check box per line, its pen as the
// icon and its whole name, packed in rows that wrap at the widget's width (its height
// follows its width: heightForWidth). Qt Charts' own legend cannot wrap: on a 1280×720 screen it stood to the right of a plot half its
// width and cut every name short ("Output perturbation, …"). A check box also takes the
// keyboard, which a legend marker does not. Unticking an entry asks for its line to be
// hidden; the owner hides it and sets the entries again.

#include <QColor>
#include <QPen>
#include <QRect>
#include <QString>
#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

struct LegendEntry {
  QString name;
  QPen pen;              // the line's pen: colour, width and dash
  bool marked = false;   // the line shows points (a mean over repetitions)
  bool shown = true;     // ticked
  bool operator==(const LegendEntry& other) const {
    return name == other.name && pen == other.pen && marked == other.marked;
  }
};

class SeriesLegend : public QWidget {
  Q_OBJECT

 public:
  explicit SeriesLegend(QWidget* parent = nullptr);

  // Rebuilds the boxes when the lines changed; otherwise only their ticks follow `entries`
  // (the focus stays where it was while a sweep redraws the chart).
  void setEntries(const std::vector<LegendEntry>& entries);
  const std::vector<LegendEntry>& entries() const { return entries_; }
  QStringList names() const;

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 signals:
  void shownChanged(const QString& name, bool shown);  // the user ticked or unticked it

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void rebuild();
  // Each box's place at `width`, in reading order; no QLayout (as ColumnGrid: a layout
  // would not pass heightForWidth through).
  std::vector<QRect> placesAt(int width) const;

  std::vector<QCheckBox*> boxes_;
  std::vector<LegendEntry> entries_;
};

}  // namespace dpstudio::ui
