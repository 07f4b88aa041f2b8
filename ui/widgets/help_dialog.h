#pragma once
// Help → Algorithms (F1): the compiled-in algorithms reference (docs/algorithms.md)
// rendered as Markdown, with a find field. Non-modal, so it can stay open beside the Model
// dock while a user reads the formula behind a number shown there; its geometry is kept in
// QSettings.

#include <QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QTextBrowser;
QT_END_NAMESPACE

namespace dpstudio::ui {

class HelpDialog : public QDialog {
  Q_OBJECT

 public:
  // The resource the dialog renders.
  static QString algorithmsResource() { return QStringLiteral(":/help/algorithms.md"); }

  explicit HelpDialog(QWidget* parent = nullptr);
  ~HelpDialog() override;

  QTextBrowser* browser() const { return browser_; }
  QLineEdit* searchField() const { return search_; }

 public slots:
  // Selects the next occurrence of the search text after the current selection (case
  // insensitive), wrapping round to the top once; false, with a "not found" note, if there
  // is none.
  bool findNext();

 protected:
  void hideEvent(QHideEvent* event) override;

 private:
  // While typing, the match is looked for from the start of the current one, so that it
  // grows with the text instead of jumping to the next occurrence.
  void findAsTyped();
  bool findFrom(int position);
  void saveGeometrySetting() const;

  QTextBrowser* browser_;
  QLineEdit* search_;
  QLabel* status_;
};

}  // namespace dpstudio::ui
