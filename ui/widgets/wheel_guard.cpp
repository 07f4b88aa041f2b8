#include "ui/widgets/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFocusEvent>
#include <QMouseEvent>
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
    // The boxes and their parts (a spin box's line edit): a wheel over any of them would
    // otherwise focus the box, and so choose it.
    if (auto* widget = qobject_cast<QWidget*>(watched);
        widget && valueWidget(widget) && (widget->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus)
      widget->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  if (event->type() == QEvent::FocusIn) {
    // Chosen by the user: a click, Tab or Shift+Tab, or its label's Alt shortcut; not focus
    // a program moved there.
    const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
    if (QWidget* value = valueWidget(watched);
        value && (reason == Qt::MouseFocusReason || reason == Qt::TabFocusReason ||
                  reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason))
      chosen_ = value;
    return false;
  }
  if (event->type() == QEvent::MouseButtonPress) {
    // A press outside the chosen box (an empty spot of the dock keeps its focus) unchooses it.
    // Judged by the widget under the pointer: the same press also reaches the window and,
    // when a widget ignores it, each of its parents.
    if (chosen_) {
      const QPointF global = static_cast<QMouseEvent*>(event)->globalPosition();
      if (valueWidget(QApplication::widgetAt(global.toPoint())) != chosen_) chosen_.clear();
    }
    return false;
  }
  if (event->type() != QEvent::Wheel) return false;
  if (!watched->isWidgetType()) {
    // The window's turn comes before Qt focuses the widget under the pointer for the wheel:
    // a box polished before the guard was installed is given StrongFocus now.
    const QPointF global = static_cast<QWheelEvent*>(event)->globalPosition();
    for (QWidget* widget = QApplication::widgetAt(global.toPoint()); widget && valueWidget(widget);
         widget = widget->parentWidget())
      if ((widget->focusPolicy() & Qt::WheelFocus) == Qt::WheelFocus) widget->setFocusPolicy(Qt::StrongFocus);
    return false;
  }
  QWidget* value = valueWidget(watched);
  if (value == nullptr || !value->isEnabled() || (value->hasFocus() && value == chosen_)) return false;
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
