// Issue 33: a class by keyboard alone. Open one's own CSV (Ctrl+O and a typed path), train
// (Ctrl+T), choose a mechanism (Alt+M and the arrows), turn to every view (Ctrl+D, U, 3, 4,
// 5), run a sweep (Ctrl+Shift+S) and an audit (Tab to its fields and its Run button), export
// the view (Ctrl+E) and the model (Ctrl+Shift+E). No mouse event and no call into the window
// that a person could not make: the test presses keys where the focus is and reads what the
// window shows. After every step the focus is on a widget a person can see, in the window
// or the dialog it opened.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves what each step shows.

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <functional>
#include <random>

#include "tests/common/test_files.h"
#include "tests/common/test_support.h"
#include "tests/gui/gui_training_support.h"
#include "ui/privacy/audit_form.h"
#include "ui/privacy/audit_view.h"
#include "ui/privacy/ledger_view.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_list_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

// A newcomer's file: two overlapping classes in three measured columns, with a header.
QString writeOwnCsv(const QTemporaryDir& dir) {
  std::mt19937 generator(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  QByteArray text = "height,weight,age,outcome\n";
  for (int i = 0; i < 240; ++i) {
    const bool yes = i % 2 == 0;
    const double shift = yes ? 1.2 : -1.2;
    text += QByteArray::number(170 + 8 * (noise(generator) + shift), 'f', 1) + ',' +
            QByteArray::number(70 + 10 * (noise(generator) + 0.5 * shift), 'f', 1) + ',' +
            QByteArray::number(std::round(40 + 12 * noise(generator))) + ',' + (yes ? "yes" : "no") + '\n';
  }
  return writeFile(dir, QStringLiteral("own.csv"), text);
}

// The widget with the keyboard focus, which must be one a person sees.
QWidget* focused() {
  QWidget* focus = QApplication::focusWidget();
  if (!focus || !focus->isVisible() || focus->width() <= 0 || focus->height() <= 0) return nullptr;
  return focus;
}

void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
  QWidget* focus = focused();
  QVERIFY2(focus, "no visible widget has the keyboard focus");
  QTest::keyClick(focus, key, modifiers);
}

// Answers the next file dialog as a person does: the file name field has the focus; select
// what it holds, type `path`, press Enter. Returns at once; `answered` is set once done.
void answerFileDialog(const QString& path, bool* answered) {
  auto attempt = std::make_shared<std::function<void()>>();
  *attempt = [path, answered, attempt] {
    auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
    auto* name = qobject_cast<QLineEdit*>(QApplication::focusWidget());
    if (!dialog || !name || !dialog->isAncestorOf(name)) {
      QTimer::singleShot(20, *attempt);
      return;
    }
    QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(name, path);
    QTest::keyClick(name, Qt::Key_Return);
    *answered = true;
  };
  QTimer::singleShot(0, *attempt);
}

// A window manager makes the window active again when its dialog closes; the offscreen
// platform has none. Then the focus is where it was, or in the window.
void backFromDialog(MainWindow& window) {
  activate(window);
  QTRY_VERIFY(focused());
  QVERIFY(window.isAncestorOf(focused()));
}

// Tabs from the focus until `target` has it (at most 100 stops).
bool tabTo(QWidget* target) {
  for (int i = 0; i < 100 && !target->hasFocus(); ++i) {
    QWidget* focus = focused();
    if (!focus) return false;
    QTest::keyClick(focus, Qt::Key_Tab);
  }
  return target->hasFocus();
}

}  // namespace

class TestKeyboardWalkthrough : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void aClassByKeyboardAlone();

 private:
  QTemporaryDir settingsDir_;
};

void TestKeyboardWalkthrough::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  isolateSettings(settingsDir_.path(), QStringLiteral("test_keyboard_walkthrough"));
  QSettings().clear();
}

void TestKeyboardWalkthrough::aClassByKeyboardAlone() {
  QTemporaryDir files;
  QVERIFY(files.isValid());
  const QString csv = writeOwnCsv(files);
  MainWindow window;
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  activate(window);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);

  // Open: Ctrl+O, the path typed into the dialog.
  bool answered = false;
  answerFileDialog(csv, &answered);
  press(Qt::Key_O, Qt::ControlModifier);
  QTRY_VERIFY(answered);
  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), 240, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);
  QVERIFY(window.windowTitle().contains(QStringLiteral("own")));
  backFromDialog(window);

  // Train what the dock offers a newcomer's file.
  QSignalSpy shown(&window, &MainWindow::modelShown);
  press(Qt::Key_T, Qt::ControlModifier);
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
  saveScreenshot(&window, QStringLiteral("keyboard-1-trained"));

  // Output perturbation: Alt+M to the Mechanism box, Home, then Down until it is chosen.
  QComboBox* mechanism = mechanismForm(window)->mechanismBox();
  press(Qt::Key_M, Qt::AltModifier);
  QTRY_VERIFY(mechanism->hasFocus());
  press(Qt::Key_Home);
  for (int i = 0; i < mechanism->count() && mechanism->currentData().toString() != QStringLiteral("output"); ++i)
    press(Qt::Key_Down);
  QCOMPARE(mechanism->currentData().toString(), QStringLiteral("output"));
  // A private mechanism needs the rows' public range, which only the user knows: tick it,
  // type it, train.
  auto* settingsForm = window.modelPanel()->form();
  QVERIFY(!settingsForm->isValid());
  QVERIFY(tabTo(settingsForm->featureRangeBox()));
  press(Qt::Key_Space);
  QVERIFY(settingsForm->featureRangeBox()->isChecked());
  QVERIFY(tabTo(settingsForm->featureRangeField()));
  QTest::keyClicks(focused(), QStringLiteral("0, 250"));
  QTRY_VERIFY2(settingsForm->isValid(), qPrintable(settingsForm->problems().join(QStringLiteral("; "))));
  press(Qt::Key_T, Qt::ControlModifier);
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions(), kTimeoutMs);

  // Every page, each with the focus inside it (or the focus kept, on the decision view).
  QTabWidget* tabs = window.centralTabs();
  const struct {
    Qt::Key key;
    const char* page;
  } pages[] = {{Qt::Key_U, "sweepView"}, {Qt::Key_4, "auditPage"}, {Qt::Key_5, "noisePage"},
               {Qt::Key_3, "ledgerPage"}, {Qt::Key_D, "decisionView"}};
  for (const auto& step : pages) {
    press(step.key, Qt::ControlModifier);
    QTRY_COMPARE(tabs->currentWidget()->objectName(), QString::fromLatin1(step.page));
    QTRY_VERIFY2(focused(), step.page);
    if (step.key != Qt::Key_D) QVERIFY2(tabs->currentWidget()->isAncestorOf(focused()), step.page);
  }
  // One release: the first model was not private (the file has no public range until it is declared).
  QCOMPARE(window.ledgerView()->table()->model()->rowCount(), 1);

  // A sweep by the Training dock's shortcut, pressed on the decision view.
  QSignalSpy swept(window.sweepView()->session(), &ui::SweepSession::finished);
  press(Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
  QTRY_COMPARE(tabs->currentWidget(), static_cast<QWidget*>(window.sweepView()));
  QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 6 * kTimeoutMs);
  QVERIFY2(!swept.front().at(1).toBool(), qPrintable(swept.front().at(0).toString()));
  QVERIFY(window.sweepView()->session()->finishedTrials() > 0);
  saveScreenshot(&window, QStringLiteral("keyboard-2-sweep"));

  // The audit: its page, 200 trials typed into its field, Tab to Run, Space.
  ui::AuditView* audit = window.auditView();
  press(Qt::Key_4, Qt::ControlModifier);
  QVERIFY(tabTo(audit->form()->trialsBox()));
  press(Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(focused(), QStringLiteral("200"));
  QCOMPARE(audit->form()->trialsBox()->value(), 200);
  QVERIFY(tabTo(audit->runButton()));
  QSignalSpy audited(audit, &ui::AuditView::resultShown);
  press(Qt::Key_Space);
  QTRY_COMPARE_WITH_TIMEOUT(audited.count(), 1, 6 * kTimeoutMs);
  QVERIFY(!audit->verdictLabel()->text().isEmpty());
  QTRY_VERIFY(focused());
  saveScreenshot(&window, QStringLiteral("keyboard-3-audit"));

  // Export the decision view and the model, each through its dialog.
  press(Qt::Key_D, Qt::ControlModifier);
  const QString image = files.filePath(QStringLiteral("view.png"));
  answered = false;
  answerFileDialog(image, &answered);
  press(Qt::Key_E, Qt::ControlModifier);
  QTRY_VERIFY(answered);
  QTRY_VERIFY(QFileInfo(image).size() > 0);
  backFromDialog(window);
  const QString bundle = files.filePath(QStringLiteral("own.dpmodel"));
  answered = false;
  answerFileDialog(bundle, &answered);
  press(Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
  QTRY_VERIFY(answered);
  QTRY_VERIFY(QFileInfo(bundle).size() > 0);
  QFile written(bundle);
  QVERIFY(written.open(QIODevice::ReadOnly));
  QCOMPARE(written.read(2), QByteArray("PK"));  // a zip
  backFromDialog(window);
}

QTEST_MAIN(TestKeyboardWalkthrough)
#include "test_keyboard_walkthrough.moc"
