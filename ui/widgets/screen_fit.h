#pragma once
// Windows and dialogs no larger than the screen they open on: a classroom laptop has
// 1366×768 and a projector often 1280×720, where a window of 1400×860 put Train, Redraw and
// the status bar below the screen's edge.

#include <QSize>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace dpstudio::ui {

// `preferred`, shrunk to the available area of the screen `widget` is on (the primary
// screen before it is shown), less room for the window frame.
QSize sizeWithinScreen(const QWidget* widget, QSize preferred);

// Resizes `window` to sizeWithinScreen(preferred).
void resizeToFitScreen(QWidget* window, QSize preferred);

// After restoreGeometry(): a window saved on a larger screen is brought within this one.
void keepWithinScreen(QWidget* window);

}  // namespace dpstudio::ui
