#include "ui/widgets/number_list_field.h"

#include <QAction>
#include <QEvent>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>
#include <QStyle>

#include "ui/widgets/field_marking.h"

namespace dpstudio::ui {

NumberListField::NumberListField(QWidget* parent) : QLineEdit(parent), warning_(new QAction(this)) {
  warning_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  warning_->setVisible(false);
  addAction(warning_, QLineEdit::TrailingPosition);
  recheck();
  connect(this, &QLineEdit::textChanged, this, [this] {
    recheck();
    emit valueEdited();
  });
}

void NumberListField::setCheck(Check check) {
  check_ = std::move(check);
  recheck();
}

void NumberListField::setValues(const std::vector<double>& values) {
  QStringList items;
  for (double v : values) items << QLocale::c().toString(v, 'g', QLocale::FloatingPointShortest);
  setText(items.join(QStringLiteral(", ")));
}

std::optional<std::vector<double>> NumberListField::parse(QString* bad) const {
  // The C locale only: a decimal comma would be ambiguous with the separator.
  static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
  std::vector<double> out;
  for (const QString& item : text().split(separators, Qt::SkipEmptyParts)) {
    bool ok = false;
    const double v = QLocale::c().toDouble(item, &ok);
    if (!ok) {
      *bad = item;
      return std::nullopt;
    }
    out.push_back(v);
  }
  return out;
}

std::optional<std::vector<double>> NumberListField::values() const {
  if (!isValid()) return std::nullopt;
  QString bad;
  return parse(&bad);
}

void NumberListField::setHelp(const QString& help) {
  help_ = help;
  updateMarking();
}

void NumberListField::recheck() {
  QString problem;
  QString bad;
  const std::optional<std::vector<double>> parsed = parse(&bad);
  if (!parsed) problem = tr("\u201c%1\u201d is not a number.").arg(bad);
  else if (parsed->empty()) problem = tr("Enter one or more numbers, separated by commas.");
  else if (check_) problem = check_(*parsed);
  if (problem == problem_) return;
  problem_ = problem;
  updateMarking();
}

void NumberListField::updateMarking() { markField(this, warning_, problem_, help_); }

void NumberListField::changeEvent(QEvent* event) {
  QLineEdit::changeEvent(event);
  if (event->type() == QEvent::EnabledChange) updateMarking();
}

}  // namespace dpstudio::ui
