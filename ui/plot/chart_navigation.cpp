#include "ui/plot/chart_navigation.h"

#include <QChart>
#include <QChartView>
#include <QMouseEvent>
#include <QValueAxis>
#include <QWheelEvent>

#include <cmath>

#include "ui/plot/round_ticks.h"

namespace dpstudio::ui {
namespace {

// One wheel notch (120 units) zooms by this factor; touchpads send fractions of a notch.
constexpr double kZoomPerNotch = 1.2;

}  // namespace

ChartNavigation::ChartNavigation(QChartView* view, QValueAxis* axisX, QValueAxis* axisY)
    : QObject(view), view_(view), viewport_(view->viewport()), axisX_(axisX), axisY_(axisY) {
  view_->viewport()->installEventFilter(this);
}

void ChartNavigation::zoomAt(QPointF viewPos, double factor) {
  QChart* chart = view_->chart();
  const QRectF plot = chart->plotArea();
  const QPointF chartPos = chart->mapFromScene(view_->mapToScene(viewPos.toPoint()));
  if (!plot.contains(chartPos) || !(factor > 0.0)) return;
  // The fraction of the way across the plot, which the zoom must keep.
  const double fx = (chartPos.x() - plot.left()) / plot.width();
  const double fy = (plot.bottom() - chartPos.y()) / plot.height();
  auto rescale = [factor](QValueAxis* axis, double fraction) {
    const double span = axis->max() - axis->min();
    const double anchor = axis->min() + fraction * span;
    const double newSpan = span / factor;
    if (!(newSpan > 1e-12 * std::max(1.0, std::abs(anchor))) || !std::isfinite(newSpan)) return;
    setRangeWithRoundTicks(axis, anchor - fraction * newSpan, anchor + (1.0 - fraction) * newSpan);
  };
  rescale(axisX_, fx);
  rescale(axisY_, fy);
}

void ChartNavigation::panBy(QPointF pixels) {
  const QRectF plot = view_->chart()->plotArea();
  if (plot.width() <= 0 || plot.height() <= 0) return;
  // Dragging right moves the content right, i.e. the visible range left.
  const double dx = -pixels.x() / plot.width() * (axisX_->max() - axisX_->min());
  const double dy = pixels.y() / plot.height() * (axisY_->max() - axisY_->min());
  axisX_->setRange(axisX_->min() + dx, axisX_->max() + dx);
  axisY_->setRange(axisY_->min() + dy, axisY_->max() + dy);
}

bool ChartNavigation::eventFilter(QObject* watched, QEvent* event) {
  if (watched != viewport_) return false;
  switch (event->type()) {
    case QEvent::Wheel: return wheel(static_cast<QWheelEvent*>(event));
    case QEvent::MouseButtonPress: return press(static_cast<QMouseEvent*>(event));
    case QEvent::MouseMove: return move(static_cast<QMouseEvent*>(event));
    case QEvent::MouseButtonRelease: return release(static_cast<QMouseEvent*>(event));
    default: return false;
  }
}

bool ChartNavigation::wheel(QWheelEvent* event) {
  const double notches = event->angleDelta().y() / 120.0;
  if (notches == 0.0) return false;
  zoomAt(event->position(), std::pow(kZoomPerNotch, notches));
  event->accept();
  return true;
}

bool ChartNavigation::press(QMouseEvent* event) {
  const bool panButton = event->button() == Qt::MiddleButton ||
                         (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
  if (!panButton) return false;
  panning_ = true;
  lastPos_ = event->position();
  view_->viewport()->setCursor(Qt::ClosedHandCursor);
  event->accept();
  return true;  // keeps QChartView from starting a rubber band
}

bool ChartNavigation::move(QMouseEvent* event) {
  if (!panning_) return false;
  panBy(event->position() - lastPos_);
  lastPos_ = event->position();
  event->accept();
  return true;
}

bool ChartNavigation::release(QMouseEvent* event) {
  if (!panning_) return false;
  panning_ = false;
  view_->viewport()->unsetCursor();
  event->accept();
  return true;
}

}  // namespace dpstudio::ui
