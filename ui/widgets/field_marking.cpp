#include "ui/widgets/field_marking.h"

#include <QAction>
#include <QLineEdit>
#include <QPalette>

namespace dpstudio::ui {

void markField(QLineEdit* field, QAction* warning, const QString& problem, const QString& help) {
  const bool marked = !problem.isEmpty() && field->isEnabled();
  const QString sheet = marked ? QStringLiteral("QLineEdit { border: 1px solid #c62828; "
                                                "border-radius: 2px; background: #fff3f3; }")
                               : QString();
  // Setting the same sheet twice before the field is first shown makes Qt take the marked
  // palette for the field's own, and clearing the sheet then leaves it pink: only on a change.
  if (field->styleSheet() != sheet) {
    field->setStyleSheet(sheet);
    // A sheet set before the field moved into its form and cleared after (marked while the
    // form was still being built) leaves the marked palette behind: the stylesheet style
    // restores the palette it saved only for the parent it polished under. Resetting it makes
    // the field inherit its form's palette again.
    if (sheet.isEmpty()) field->setPalette(QPalette());
  }
  warning->setVisible(marked);
  warning->setToolTip(problem);
  field->setToolTip(marked ? problem : help);
}

}  // namespace dpstudio::ui
