#include "ui/widgets/focus_follow.h"

#include <QApplication>
#include <QScrollArea>

namespace dpstudio::ui {

void scrollToFocus(QScrollArea* area) {
  QObject::connect(qApp, &QApplication::focusChanged, area, [area](QWidget*, QWidget* now) {
    if (!now || !area->widget() || !area->widget()->isAncestorOf(now)) return;
    // Only a widget wholly out of sight: one the user clicked is in sight, and scrolling
    // under the pointer would move the next click's target.
    const QRect shown(now->mapTo(area->viewport(), QPoint(0, 0)), now->size());
    if (!area->viewport()->rect().intersects(shown)) area->ensureWidgetVisible(now);
  });
}

}  // namespace dpstudio::ui
