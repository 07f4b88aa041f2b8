#include "ui/widgets/number_field.h"

#include <QAction>
#include <QEvent>
#include <QLocale>
#include <QStyle>

#include "ui/widgets/field_marking.h"

namespace dpstudio::ui {

NumberField::NumberField(QWidget* parent)
    : QLineEdit(parent), warning_(new QAction(this)) {
  warning_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  warning_->setVisible(false);
  addAction(warning_, QLineEdit::TrailingPosition);
  recheck();  // an empty field is not a number
  connect(this, &QLineEdit::textChanged, this, [this] {
    recheck();
    emit valueEdited();
  });
}

void NumberField::setCheck(Check check) {
  check_ = std::move(check);
  recheck();
}

void NumberField::setValue(double value) {
  // 'g' with 17 significant digits would show 1e-4 as 0.00010000000000000000479;
  // QLocale's shortest representation reads back exactly and looks like what was typed.
  setText(QLocale::c().toString(value, 'g', QLocale::FloatingPointShortest));
}

std::optional<double> NumberField::parse() const {
  const QString input = text().trimmed();
  bool ok = false;
  double v = QLocale::c().toDouble(input, &ok);
  if (!ok) v = locale().toDouble(input, &ok);
  if (!ok) return std::nullopt;
  return v;
}

std::optional<double> NumberField::value() const {
  if (!isValid()) return std::nullopt;
  return parse();
}

void NumberField::setHelp(const QString& help) {
  help_ = help;
  updateMarking();
}

void NumberField::setOptional(bool optional) {
  optional_ = optional;
  recheck();
}

void NumberField::recheck() {
  QString problem;
  if (text().trimmed().isEmpty()) {
    if (!optional_) problem = tr("Enter a number.");
  } else if (const std::optional<double> v = parse(); !v) {
    problem = tr("\u201c%1\u201d is not a number.").arg(text().trimmed());
  } else if (check_) {
    problem = check_(*v);
  }
  const bool changed = problem != problem_;
  const bool validityFlipped = problem.isEmpty() != problem_.isEmpty();
  problem_ = problem;
  if (!changed) return;
  updateMarking();
  if (validityFlipped) emit validityChanged(problem_.isEmpty());
}

void NumberField::updateMarking() { markField(this, warning_, problem_, help_); }

void NumberField::changeEvent(QEvent* event) {
  QLineEdit::changeEvent(event);
  if (event->type() == QEvent::EnabledChange) updateMarking();
}

}  // namespace dpstudio::ui
