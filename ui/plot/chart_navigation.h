#pragma once
// Mouse navigation a plot user expects, on top of QChartView's rubber band (left drag) and
// right-click zoom-out: the wheel zooms about the cursor, and dragging with the middle
// button (or Shift + left button) pans. Both change the value axes' ranges directly, so
// everything that follows the axes (the decision regions) follows them too.
//
// Installs itself as an event filter on the view's viewport; owned by the view.

#include <QObject>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QChartView;
class QMouseEvent;
class QValueAxis;
class QWheelEvent;
QT_END_NAMESPACE

namespace dpstudio::ui {

class ChartNavigation : public QObject {
  Q_OBJECT

 public:
  // The axes must belong to the view's chart (horizontal, vertical).
  ChartNavigation(QChartView* view, QValueAxis* axisX, QValueAxis* axisY);

  // Zooms by `factor` (> 1: in) keeping the value under `viewPos` where it is.
  void zoomAt(QPointF viewPos, double factor);
  // Moves the visible range by a drag of `pixels` (view coordinates).
  void panBy(QPointF pixels);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool wheel(QWheelEvent* event);
  bool press(QMouseEvent* event);
  bool move(QMouseEvent* event);
  bool release(QMouseEvent* event);

  QChartView* view_;
  // Compared against, never called through, in eventFilter(): the viewport still sends
  // events while the view is being destroyed, when calling into view_ is undefined.
  QObject* viewport_;
  QValueAxis* axisX_;
  QValueAxis* axisY_;
  bool panning_ = false;
  QPointF lastPos_;
};

}  // namespace dpstudio::ui
