#include "ui/widgets/screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace dpstudio::ui {
namespace {

// The title bar and borders a window manager adds around the client area.
constexpr int kFrameWidth = 16;
constexpr int kFrameHeight = 40;

QRect availableArea(const QWidget* widget) {
  const QScreen* screen = widget && widget->screen() ? widget->screen() : QGuiApplication::primaryScreen();
  return screen ? screen->availableGeometry() : QRect(0, 0, 1366, 768);
}

}  // namespace

QSize sizeWithinScreen(const QWidget* widget, QSize preferred) {
  const QRect area = availableArea(widget);
  return preferred.boundedTo(QSize(area.width() - kFrameWidth, area.height() - kFrameHeight));
}

void resizeToFitScreen(QWidget* window, QSize preferred) {
  window->resize(sizeWithinScreen(window, preferred));
}

void keepWithinScreen(QWidget* window) {
  const QRect area = availableArea(window);
  const QSize fitted = sizeWithinScreen(window, window->size());
  if (fitted != window->size()) window->resize(fitted);
  QRect frame = window->frameGeometry();
  if (!area.contains(frame.topLeft())) window->move(area.topLeft());
}

}  // namespace dpstudio::ui
