#include "ui/widgets/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QWheelEvent>
#include <QWidget>

namespace dpstudio::ui {
namespace {

// The value widget a wheel event over `widget` would change (a spin box's line edit is its
// child), or nullptr.
QWidget* valueWidget(QObject* object) {
  for (auto* widget = qobject_cast<QWidget*>(object); widget != nullptr; widget = widget->parentWidget()) {
    if (qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QComboBox*>(widget)) return widget;
    if (widget->isWindow() || qobject_cast<QAbstractScrollArea*>(widget)) return nullptr;
  }
  return nullptr;
}

}  // namespace

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Polish) {
    if (auto* widget = qobject_cast<QWidget*>(watched);
        widget && (qobject_cast<QAbstractSpinBox*>(widget) || qobject_cast<QComboBox*>(widget)) &&
        (widget->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus)
      widget->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (event->type() != QEvent::Wheel) return false;
  QWidget* value = valueWidget(watched);
  if (value == nullptr || value->hasFocus() || !value->isEnabled()) return false;
  // Whichever widget sees the event first (a spin box's line edit, or the box) sends it to
  // the scroll area's viewport, and accepting it here ends its way up.
  for (QWidget* up = value->parentWidget(); up != nullptr; up = up->parentWidget()) {
    if (auto* area = qobject_cast<QAbstractScrollArea*>(up)) {
      auto* wheel = static_cast<QWheelEvent*>(event);
      const QPointF local = area->viewport()->mapFromGlobal(wheel->globalPosition());
      QWheelEvent forwarded(local, wheel->globalPosition(), wheel->pixelDelta(), wheel->angleDelta(),
                            wheel->buttons(), wheel->modifiers(), wheel->phase(), wheel->inverted(),
                            wheel->source());
      QCoreApplication::sendEvent(area->viewport(), &forwarded);
      break;
    }
    if (up->isWindow()) break;
  }
  event->accept();
  return true;
}

}  // namespace dpstudio::ui
