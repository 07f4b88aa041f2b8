#pragma once
// A line edit for one number, checked as the user types: the text must read as a number
// (C locale, or the user's locale) and pass the field's check, typically core's own
// validation (LearnerSpec::validate() and friends), so the GUI never disagrees with what a
// training would reject. An invalid field is marked in place: a red frame, a warning icon,
// and the reason as its tooltip; forms collect problem() to say why they cannot run. A
// disabled field keeps its problem() but is not marked: it is not in use.

#include <QLineEdit>
#include <QString>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NumberField : public QLineEdit {
  Q_OBJECT

 public:
  // Why a parsed value is not acceptable ("λ must be finite and > 0"), or an empty string.
  using Check = std::function<QString(double)>;

  explicit NumberField(QWidget* parent = nullptr);

  // The check may depend on other fields; call recheck() when they change.
  void setCheck(Check check);
  void setValue(double value);  // shortest text that reads back as the same double
  std::optional<double> value() const;  // nullopt while invalid, or empty
  // An optional field accepts an empty text (value() nullopt): "chosen for you", which the
  // placeholder text says.
  void setOptional(bool optional);
  bool isValid() const { return problem_.isEmpty(); }
  const QString& problem() const { return problem_; }
  // The tooltip shown while the value is fine.
  void setHelp(const QString& help);

 public slots:
  void recheck();

 signals:
  void validityChanged(bool valid);
  void valueEdited();  // after every change of the text, valid or not

 protected:
  void changeEvent(QEvent* event) override;

 private:
  std::optional<double> parse() const;
  void updateMarking();

  Check check_;
  bool optional_ = false;
  QString problem_;
  QString help_;
  QAction* warning_;
};

}  // namespace dpstudio::ui
