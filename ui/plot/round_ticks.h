#pragma once
// Round axis ticks (1, 2 or 5 × 10^k) for Qt Charts value axes, set without the hang.
//
// Qt Charts builds one graphics item per tick as soon as an axis's range or tick interval
// changes. With dynamic ticks, setting a range 10^5 times wider than the current tick
// interval allows (a new dataset, a zoom reset) builds 10^5 items on the GUI thread before
// any handler can fix the interval: minutes of work and gigabytes of memory. Every range
// change of a dynamic-tick axis therefore goes through setRangeWithRoundTicks(), which
// orders the two changes so that no intermediate state has more ticks than the larger of
// the old and the new one.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QValueAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

// A round step giving about `intervals` intervals over `span`; 0 when span is not positive
// and finite.
double roundTickStep(double span, int intervals = 6);

// Sets [min, max] with dynamic ticks at round numbers about `intervals` to the axis, and a
// label format with as many decimals as the step needs. Does nothing for an empty or
// non-finite range.
void setRangeWithRoundTicks(QValueAxis* axis, double min, double max, int intervals = 6);

// Round ticks for the range the axis has now: for ranges Qt itself set (a rubber band,
// QChart::zoomReset), called from the axis's rangeChanged signal.
void fitRoundTicks(QValueAxis* axis, int intervals = 6);

// A fixed, bounded number of ticks whatever the range, until the next round-tick call:
// before a range change Qt makes to a range this code cannot know in advance
// (QChart::zoomReset restores the range of before the first zoom).
void useBoundedTicks(QValueAxis* axis);

}  // namespace dpstudio::ui
