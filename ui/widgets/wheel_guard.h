#pragma once
// Spin boxes and combo boxes take the mouse wheel only when they have the keyboard focus.
//
// Qt's default lets the wheel change any spin box or combo box under the pointer, so
// scrolling down a dock of parameters changes the seed, the model or a count on the way.
// Installed on the application, the guard gives those widgets StrongFocus (the wheel no
// longer focuses them) and passes a wheel over an unfocused one to the scroll area around
// it, which scrolls as the user meant.

#include <QObject>

namespace dpstudio::ui {

class WheelGuard : public QObject {
  Q_OBJECT

 public:
  explicit WheelGuard(QObject* parent = nullptr) : QObject(parent) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace dpstudio::ui
