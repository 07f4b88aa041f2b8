#include "ui/widgets/focus_follow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>

#include <vector>

namespace dpstudio::ui {
namespace {

// Remembers where the focused widget is in the viewport and, after any layout pass that
// moved it, scrolls by as much. It watches the widget and its ancestors up to the area's
// content for moves, and the content for resizes: one of them changes whenever a row above
// the widget changes height. The place is the user's: only a scroll or another focus moves
// it, never a scroll this class or Qt makes while a layout pass changes the range.
class FocusAnchor : public QObject {
 public:
  explicit FocusAnchor(QScrollArea* area) : QObject(area), area_(area) {
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) { anchor(now); });
    connect(area->verticalScrollBar(), &QScrollBar::valueChanged, this, [this] {
      if (!pending_ && !restoring_) remember();
    });
  }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    const QEvent::Type type = event->type();
    if (type == QEvent::Move || type == QEvent::Resize || type == QEvent::LayoutRequest) restoreLater();
    return QObject::eventFilter(watched, event);
  }

 private:
  void anchor(QWidget* focus) {
    for (const QPointer<QWidget>& watched : watched_)
      if (watched) watched->removeEventFilter(this);
    watched_.clear();
    QWidget* content = area_->widget();
    widget_ = content && focus && content->isAncestorOf(focus) ? focus : nullptr;
    if (!widget_) {
      releaseRoom();
      return;
    }
    for (QWidget* w = widget_; w != nullptr; w = w->parentWidget()) {
      w->installEventFilter(this);
      watched_.emplace_back(w);
      if (w == content) break;
    }
    remember();
  }

  int viewportY() const { return widget_->mapTo(area_->viewport(), QPoint(0, 0)).y(); }

  void remember() {
    if (widget_ && widget_->isVisible()) y_ = viewportY();
  }

  // Once the layout passes under way have placed every row: the widget back at its place.
  void restoreLater() {
    if (pending_ || !widget_) return;
    pending_ = true;
    QTimer::singleShot(0, this, [this] {
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      pending_ = false;
      if (!widget_ || !widget_->isVisible() || !widget_->hasFocus()) return;
      const int moved = viewportY() - y_;
      if (moved == 0) return;
      QScrollBar* bar = area_->verticalScrollBar();
      restoring_ = true;
      // Rows below the widget shrank too, and the area, scrolled to its end, cannot scroll
      // far enough: the content stays as tall as it was until the focus leaves the area.
      if (const int missing = bar->value() + moved - bar->maximum(); missing > 0) keepRoom(missing);
      bar->setValue(bar->value() + moved);
      restoring_ = false;
    });
  }

  void keepRoom(int missing) {
    QWidget* content = area_->widget();
    if (!content) return;
    if (!kept_) originalMinimum_ = content->minimumHeight();
    kept_ = content;
    content->setMinimumHeight(content->height() + missing);
    content->resize(content->width(), content->minimumHeight());  // the scroll range follows at once
  }

  void releaseRoom() {
    if (kept_) kept_->setMinimumHeight(originalMinimum_);
    kept_ = nullptr;
  }

  QScrollArea* area_;
  QPointer<QWidget> widget_;
  std::vector<QPointer<QWidget>> watched_;
  QPointer<QWidget> kept_;  // the content, while it is kept taller than its layout asks
  int originalMinimum_ = 0;
  int y_ = 0;
  bool pending_ = false;
  bool restoring_ = false;
};

void scrollToFocus(QScrollArea* area) {
  QObject::connect(qApp, &QApplication::focusChanged, area, [area](QWidget*, QWidget* now) {
    if (!now || !area->widget() || !area->widget()->isAncestorOf(now)) return;
    // Only a widget wholly out of sight: one the user clicked is in sight, and scrolling
    // under the pointer would move the next click's target.
    const QRect shown(now->mapTo(area->viewport(), QPoint(0, 0)), now->size());
    if (!area->viewport()->rect().intersects(shown)) area->ensureWidgetVisible(now);
  });
}

}  // namespace

void followFocus(QScrollArea* area) {
  scrollToFocus(area);
  new FocusAnchor(area);
}

}  // namespace dpstudio::ui
