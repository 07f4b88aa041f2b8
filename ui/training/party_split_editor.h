#pragma once
// How multiparty aggregation (docs/algorithms.md §3 I) splits the training rows among K parties:
// an even split of K parties (sizes differ by at most one row), or one fraction per party —
// a list of fields with a remove button each and "Add party" — such as paper 004's
// 15/20/20/20/25 % and 10/20/20/20/30 % splits, which the Presets menu fills in.
//
// Every fraction is checked as it is typed by the check its owner installs (core's
// MultipartyOptions::validate(), prediction_fields.h), marked in place like any NumberField;
// what concerns the split as a whole (the sum, a party left without rows) is the owner's to
// say, through setSummary(), under the list.

#include <QList>
#include <QWidget>

#include <functional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
class QCheckBox;
class QGridLayout;
class QLabel;
class QSpinBox;
class QToolButton;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NumberField;

class PartySplitEditor : public QWidget {
  Q_OBJECT

 public:
  // Why `value` is not acceptable as party `party`'s fraction (0-based), or an empty string.
  using FractionCheck = std::function<QString(int party, double value)>;

  explicit PartySplitEditor(QWidget* parent = nullptr);

  bool isEven() const;
  int parties() const;  // K: the spin box's for an even split, else the number of fractions
  // The fractions as typed (uneven split); a field that does not hold a valid number gives
  // `placeholder`.
  std::vector<double> fractions(double placeholder) const;
  bool fractionsValid() const;    // every field holds a valid number
  QStringList fieldProblems() const;  // "party 2: …", one per invalid field

  void setEven(int parties);
  void setFractions(const std::vector<double>& fractions);  // an uneven split, one row each
  void setFractionCheck(FractionCheck check);
  void recheck();
  // A line under the editor: the party sizes, or what is wrong with the split as a whole.
  void setSummary(const QString& text, bool problem);

  // For tests, and for whoever drives the editor as a user would.
  QCheckBox* evenBox() const { return even_; }
  QSpinBox* partiesBox() const { return parties_; }
  NumberField* fractionField(int party) const;
  QToolButton* removeButton(int party) const;
  QToolButton* addButton() const { return add_; }
  QLabel* summaryLabel() const { return summary_; }
  // "Even, 5 parties", "Paper 004: 15/20/20/20/25 %", "Paper 004: 10/20/20/20/30 %".
  QList<QAction*> presets() const { return presets_; }

 signals:
  void edited();  // any change, valid or not

 private:
  struct Row {
    QLabel* label;
    NumberField* field;
    QToolButton* remove;
  };
  void addRow(double value);
  void removeRow(int party);
  void updateRows();

  QCheckBox* even_;
  QSpinBox* parties_;
  QWidget* list_;
  QGridLayout* grid_;
  QToolButton* add_;
  QLabel* summary_;
  QList<QAction*> presets_;
  std::vector<Row> rows_;
  FractionCheck check_;
  bool updating_ = false;  // several changes, one edited() at the end
};

}  // namespace dpstudio::ui
