#pragma once
// How a number field shows that its text is invalid (NumberField, NumberListField): a red
// frame, a warning icon with the reason, the reason as the tooltip; a disabled field is not
// in use and is never marked.

#include <QString>

QT_BEGIN_NAMESPACE
class QAction;
class QLineEdit;
QT_END_NAMESPACE

namespace dpstudio::ui {

void markField(QLineEdit* field, QAction* warning, const QString& problem, const QString& help);

}  // namespace dpstudio::ui
