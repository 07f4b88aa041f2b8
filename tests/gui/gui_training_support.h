#pragma once
// What the Training dock and decision view tests share: opening a dataset and training from
// the dock as a user would, with isolated settings. QTest macros in these helpers return
// from the helper only; the test is marked failed and its later checks report the cause.

#include <QComboBox>
#include <QApplication>
#include <QCoreApplication>
#include <QTest>
#include <QWidget>

#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>

#include "core/learn/learner.h"
#include "ui/dataset/dataset_controller.h"
#include "ui/main_window.h"
#include "ui/plot/decision_overlay.h"
#include "ui/plot/scatter_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_document.h"

namespace dpstudio::test {

inline constexpr int kTimeoutMs = 20000 * DPSTUDIO_TEST_TIMEOUT_SCALE;  // ×4 under the sanitizers

// Settings and the privacy ledger file in `dir`, away from the user's, under an application
// name of the test's own. Every main window of the test then shares that ledger file, as
// the GUI's sessions share the user's.
inline void isolateSettings(const QString& dir, const QString& application) {
  QCoreApplication::setOrganizationName(QStringLiteral("dpstudio-tests"));
  QCoreApplication::setApplicationName(application);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
  qputenv("DPSTUDIO_LEDGER_FILE", QDir(dir).filePath(QStringLiteral("ledger.json")).toUtf8());
  qputenv("DPSTUDIO_SESSION_DIR", QDir(dir).filePath(QStringLiteral("sessions")).toUtf8());
}

// Keyboard focus and window shortcuts need the active window; a bare X server (no window
// manager) does not activate one by itself.
inline void activate(QWidget& window) {
  window.activateWindow();
  QApplication::setActiveWindow(&window);
  QVERIFY(QTest::qWaitForWindowActive(&window));
}

inline void openDataset(ui::MainWindow& window, const QString& spec, int rows) {
  window.setErrorDialogsEnabled(false);
  window.openDataset(spec);
  QTRY_COMPARE_WITH_TIMEOUT(window.scatterView()->pointCount(), rows, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);
}

// Shows `window`, makes it the active window (keyboard focus and shortcuts need that) and
// opens the built-in iris: where the keyboard and layout tests start.
inline void showActiveOnIris(ui::MainWindow& window) {
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  activate(window);
  openDataset(window, QStringLiteral("builtin:iris"), 150);
}

// Trains `kind` by pressing Train in the dock and waits until its regions are drawn.
inline void trainFromDock(ui::MainWindow& window, ModelKind kind, int maxIterations = 300) {
  auto* form = window.modelPanel()->form();
  form->setModelKind(kind);
  form->maxIterationsBox()->setValue(maxIterations);
  QSignalSpy shown(&window, &ui::MainWindow::modelShown);
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());
  window.modelPanel()->trainButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
  QCOMPARE(window.training()->result()->settings.learner.kind, kind);
  QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions() &&
                               !window.scatterView()->underlay().isNull(),
                           kTimeoutMs);
}

inline ui::MechanismForm* mechanismForm(ui::MainWindow& window) {
  return window.modelPanel()->form()->mechanismForm();
}

// Seeded noise, for a test that replays a run or reads its drawn noise: the GUI draws
// release noise (the OS CSPRNG) unless the Randomness box asks for an experiment.
inline void useExperimentNoise(ui::MainWindow& window, int seed = 1) {
  ui::MechanismForm* form = mechanismForm(window);
  form->noiseSourceBox()->setCurrentIndex(form->noiseSourceBox()->findData(QStringLiteral("experiment")));
  form->seedBox()->setValue(seed);
}

// Presses `button` (Train, Redraw noise) and waits until the decision view shows the new
// model with its regions.
inline void pressAndWaitForModel(ui::MainWindow& window, QPushButton* button) {
  QSignalSpy shown(&window, &ui::MainWindow::modelShown);
  QVERIFY2(button->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
  button->click();
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions() &&
                               !window.scatterView()->underlay().isNull(),
                           kTimeoutMs);
}

// With DPSTUDIO_TEST_SCREENSHOTS=DIR, saves what `widget` shows as DIR/name.png, to look at.
inline void saveScreenshot(QWidget* widget, const QString& name) {
  const QString dir = qEnvironmentVariable("DPSTUDIO_TEST_SCREENSHOTS");
  if (!dir.isEmpty()) widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

}  // namespace dpstudio::test
