#pragma once
// A scroll area that scrolls to the widget inside it that takes the keyboard focus, however
// it got it: Qt does so for Tab, but not for a label's Alt shortcut (Alt+M focused the
// Mechanism box out of sight) or a focus a program moves. Only a widget wholly out of sight
// is scrolled to, so that a click never makes the area jump.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QScrollArea;
QT_END_NAMESPACE

namespace dpstudio::ui {

void scrollToFocus(QScrollArea* area);

}  // namespace dpstudio::ui
