#pragma once
// Shows and hides rows of a QFormLayout by taking them out of the layout and putting them
// back in their place, instead of QFormLayout::setRowVisible. In Qt 6.4 a form with a
// height-for-width item (a word-wrapped note, the parties editor) sizes its rows through a
// table with one place per shown row, and setupHfwLayoutData walks every row, hidden ones
// too: a hidden row writes its zero size into the place it had when last shown, which a
// shown row may have now. That row is then laid out zero pixels tall and still takes Tab
// (private selection's ε, DP-SGD's fields, multiparty's Baseline and Aggregation: issue 33).
// A row that is not in the layout has no place to write into.
//
// The rows are the form's widget rows (a label and a field, or one spanning widget), known
// by their field. The form is built by appending (addRow): rows added after some were taken
// out come after them.

#include <QPointer>
#include <QtGlobal>

#include <vector>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QWidget;
QT_END_NAMESPACE

namespace dpstudio::ui {

class FormRows {
 public:
  explicit FormRows(QFormLayout* form) : form_(form) {}

  // Shows or hides the row whose field (or spanning widget) is `field`.
  void setShown(QWidget* field, bool shown);
  bool isShown(const QWidget* field) const;

 private:
  struct Row {
    QPointer<QWidget> label;  // null for a spanning row
    QPointer<QWidget> field;
    bool shown = true;
  };

  void adoptNewRows();  // the form's rows not known yet, appended in the form's order
  Row* find(const QWidget* field);

  QFormLayout* form_;
  std::vector<Row> rows_;  // every row, in the form's order, shown or not
};

}  // namespace dpstudio::ui
