#pragma once
// Spin boxes and combo boxes take the mouse wheel only when the user chose them: clicked or
// tabbed into them, with no click elsewhere since.
//
// Qt's default lets the wheel change any spin box or combo box under the pointer, and a box
// keeps the keyboard focus after a click on an empty spot of its dock, so scrolling down a
// dock of parameters changed the seed, the model or a count on the way. Installed on the
// application, the guard gives those widgets StrongFocus (the wheel no longer focuses them),
// remembers the value widget the user last clicked or tabbed into (forgotten at a press
// anywhere else), and passes a wheel over any other to the scroll area around it, which
// scrolls as the user meant.

#include <QObject>
#include <QPointer>
#include <QWidget>

namespace dpstudio::ui {

class WheelGuard : public QObject {
  Q_OBJECT

 public:
  explicit WheelGuard(QObject* parent = nullptr) : QObject(parent) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QPointer<QWidget> chosen_;  // the value widget the user clicked or tabbed into last
};

}  // namespace dpstudio::ui
