#pragma once
// A line edit for a list of numbers ("1e-4, 3e-4, 1e-3"; commas, semicolons or spaces
// between them), checked as typed like NumberField: each item must read as a number, and
// the list must pass the field's check (core's own validation). An invalid list is marked
// in place: a red frame, a warning icon and the reason as its tooltip.

#include <QLineEdit>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NumberListField : public QLineEdit {
  Q_OBJECT

 public:
  using Check = std::function<QString(const std::vector<double>&)>;

  explicit NumberListField(QWidget* parent = nullptr);

  void setCheck(Check check);
  void setValues(const std::vector<double>& values);
  std::optional<std::vector<double>> values() const;  // nullopt while invalid
  bool isValid() const { return problem_.isEmpty(); }
  const QString& problem() const { return problem_; }
  void setHelp(const QString& help);

 public slots:
  void recheck();

 signals:
  void valueEdited();  // after every change of the text, valid or not

 protected:
  void changeEvent(QEvent* event) override;

 private:
  std::optional<std::vector<double>> parse(QString* bad) const;
  void updateMarking();

  Check check_;
  QString problem_;
  QString help_;
  QAction* warning_;
};

}  // namespace dpstudio::ui
