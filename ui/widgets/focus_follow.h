#pragma once
// How a scroll area of fields follows the keyboard focus.
//
// - It scrolls to the widget inside it that takes the focus, however it got it: Qt does so
//   for Tab, but not for a label's Alt shortcut (Alt+M focused the Mechanism box out of
//   sight) or a focus a program moves. Only a widget wholly out of sight is scrolled to, so
//   that a click never makes the area jump.
// - It keeps the focused widget where it is on the screen when rows above it change height:
//   ticking "Norm bound R" and typing into it rewrote the calibration above it and moved the
//   form 16 px one way and 68 px the other, and the next click landed in Split seed (issue
//   33). Where rows below it shrink too and the area is scrolled to its end, the content is
//   kept as tall as it was until the focus leaves the area; where it cannot scroll far enough
//   up (its top), the widget still moves.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QScrollArea;
QT_END_NAMESPACE

namespace dpstudio::ui {

void followFocus(QScrollArea* area);

}  // namespace dpstudio::ui
