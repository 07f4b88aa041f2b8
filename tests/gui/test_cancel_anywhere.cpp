// Cancel anywhere (issue 15 item 4): every kind of job the window runs — opening a file,
// training with each mechanism, an audit, a sweep — is cancelled at seeded random moments,
// many times, and the window must stay consistent: nothing half-shown, a release in the ledger
// exactly when one was shown, the buttons usable again. Then each kind is running when the
// window closes, which must exit promptly without a crash. Under the `asan` preset the same
// test checks for leaks and use-after-free of the jobs' late results.

#include <QDir>
#include <QElapsedTimer>
#include <QIODevice>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <QCheckBox>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <functional>
#include <memory>

#include "tests/gui/gui_training_support.h"
#include "ui/privacy/audit_form.h"
#include "ui/privacy/audit_view.h"
#include "ui/sweep/sweep_form.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"
#include "ui/training/training_controller.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

constexpr int kCancelsPerKind = 5;
constexpr int kLongestWaitMs = 250;
constexpr int kSettleMs = 30000;

// A CSV large enough that reading it takes a while: rows of 8 numbers and a class.
QString writeLargeCsv(const QString& dir, int rows) {
  const QString path = QDir(dir).filePath(QStringLiteral("large.csv"));
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return {};
  QTextStream out(&file);
  out << "a,b,c,d,e,f,g,h,class\n";
  QRandomGenerator random(7);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < 8; ++j) out << QString::number(random.generateDouble() * 10 - 5, 'f', 4) << ',';
    out << (i % 3) << '\n';
  }
  return path;
}

struct MechanismCase {
  const char* choice;
  ModelKind model;
  const char* dataset;
  int rows;
};

// Each private mechanism with a model and data it fits, and training without one.
const MechanismCase kMechanisms[] = {
    {"none", ModelKind::Lmgc, "builtin:digits", 1797},
    {"output", ModelKind::LogisticRegression, "builtin:digits", 1797},
    {"objective", ModelKind::HuberSvm, "builtin:digits", 1797},
    {"loss", ModelKind::Softmax, "builtin:digits", 1797},
    {"dplmgc", ModelKind::Lmgc, "builtin:digits", 1797},
    {"dpsgd", ModelKind::Softmax, "builtin:digits", 1797},
    {"prediction", ModelKind::LogisticRegression, "builtin:digits", 1797},
    {"subsample", ModelKind::LogisticRegression, "builtin:digits", 1797},
    {"multiparty", ModelKind::LogisticRegression, "builtin:breast_cancer", 569},
};

}  // namespace

class TestCancelAnywhere : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    isolateSettings(settingsDir_.path(), QStringLiteral("test_cancel_anywhere"));
  }

  void cancellingAnOpenKeepsOneWholeDataset();
  void cancellingTrainingReleasesOnlyWhatIsShown_data();
  void cancellingTrainingReleasesOnlyWhatIsShown();
  void cancellingAnAuditLeavesItRunnable();
  void cancellingASweepKeepsItsFinishedTrials();
  void closingDuringEachKindOfJobExitsPromptly_data();
  void closingDuringEachKindOfJobExitsPromptly();

 private:
  QTemporaryDir settingsDir_;
  QRandomGenerator random_{20261127};

  int randomWaitMs() { return static_cast<int>(random_.bounded(kLongestWaitMs + 1)); }
};

void TestCancelAnywhere::cancellingAnOpenKeepsOneWholeDataset() {
  QTemporaryDir dir;
  const QString large = writeLargeCsv(dir.path(), 200000);
  QVERIFY(!large.isEmpty());
  MainWindow window;
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  for (int k = 0; k < kCancelsPerKind; ++k) {
    const auto before = window.document()->dataset();
    window.openDataset(large);
    QTest::qWait(randomWaitMs());
    window.controller()->cancel();  // what the status bar's Cancel does
    QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kSettleMs);
    // Either the open finished before the cancel (the new rows, whole) or nothing changed.
    const auto after = window.document()->dataset();
    QVERIFY(after);
    QVERIFY2(after == before || after->rows() == 200000, qPrintable(QString::number(after->rows())));
    QCOMPARE(failed.count(), 0);
    if (after != before) openDataset(window, QStringLiteral("builtin:iris"), 150);
  }
  // The window still opens what it is asked to.
  openDataset(window, QStringLiteral("builtin:wine"), 178);
}

void TestCancelAnywhere::cancellingTrainingReleasesOnlyWhatIsShown_data() {
  QTest::addColumn<QString>("choice");
  QTest::addColumn<int>("model");
  QTest::addColumn<QString>("dataset");
  QTest::addColumn<int>("rows");
  for (const MechanismCase& c : kMechanisms)
    QTest::newRow(c.choice) << QString::fromLatin1(c.choice) << static_cast<int>(c.model)
                            << QString::fromLatin1(c.dataset) << c.rows;
}

void TestCancelAnywhere::cancellingTrainingReleasesOnlyWhatIsShown() {
  QFETCH(QString, choice);
  QFETCH(int, model);
  QFETCH(QString, dataset);
  QFETCH(int, rows);
  MainWindow window;
  openDataset(window, dataset, rows);
  auto* form = window.modelPanel()->form();
  form->setModelKind(static_cast<ModelKind>(model));
  form->unitRowsBox()->setChecked(true);  // inside the unit ball, as every mechanism needs
  QVERIFY2(mechanismForm(window)->setChoice(choice), qPrintable(choice));
  QSignalSpy released(window.trainer(), &ui::TrainingController::released);
  QSignalSpy answered(window.trainer(), &ui::TrainingController::answered);
  QSignalSpy failed(window.trainer(), &ui::TrainingController::trainingFailed);
  const std::size_t ledgerBefore = window.ledger().size();
  for (int k = 0; k < kCancelsPerKind; ++k) {
    QPushButton* train = window.modelPanel()->trainButton();
    QVERIFY2(train->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
    train->click();
    QTest::qWait(randomWaitMs());
    window.trainer()->cancel();  // what the status bar's Cancel does
    QTRY_VERIFY_WITH_TIMEOUT(!window.trainer()->isBusy(), kSettleMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
    // A release is in the ledger once, and only when it was shown; a predictor releases at
    // its first answer, which this test never asks for.
    QCOMPARE(window.ledger().size(), ledgerBefore + static_cast<std::size_t>(released.count() + answered.count()));
    QTRY_VERIFY_WITH_TIMEOUT(window.modelPanel()->trainButton()->isEnabled(), kSettleMs);
  }
  // After all that, a training runs to its end (a short one: LMGC on digits takes long).
  form->maxIterationsBox()->setValue(50);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
}

void TestCancelAnywhere::cancellingAnAuditLeavesItRunnable() {
  MainWindow window;
  ui::AuditView* view = window.auditView();
  view->form()->setMechanism(QStringLiteral("output"));
  view->form()->setModel(ModelKind::LogisticRegression);
  view->form()->trialsBox()->setValue(20000);
  for (int k = 0; k < kCancelsPerKind; ++k) {
    QVERIFY2(view->runButton()->isEnabled(), qPrintable(view->problemLabel()->text()));
    view->runButton()->click();
    QVERIFY(view->isRunning());
    QTest::qWait(randomWaitMs());
    view->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), kSettleMs);
    QVERIFY(view->runButton()->isEnabled());
  }
  QCOMPARE(window.ledger().size(), std::size_t{0});  // an audit is an experiment
  view->form()->trialsBox()->setValue(200);
  view->runButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), kSettleMs);
  QVERIFY2(view->result().has_value(), qPrintable(view->statusLabel()->text()));
}

void TestCancelAnywhere::cancellingASweepKeepsItsFinishedTrials() {
  MainWindow window;
  openDataset(window, QStringLiteral("builtin:digits"), 1797);
  // The dock's settings (restored from the tests before) are what the sweep varies.
  window.modelPanel()->form()->setModelKind(ModelKind::LogisticRegression);
  QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("output")));
  ui::SweepView* view = window.sweepView();
  view->form()->setRepeats(200);
  for (int k = 0; k < kCancelsPerKind; ++k) {
    QVERIFY2(view->startButton()->isEnabled(), qPrintable(view->statusLabel()->text()));
    view->startButton()->click();
    QVERIFY(view->session()->isRunning());
    QTest::qWait(randomWaitMs());
    view->cancelButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSettleMs);
    const long long finished = view->session()->finishedTrials();
    QVERIFY(finished >= 0);
    // The finished trials stay: nothing is dropped after the sweep ended.
    QTest::qWait(50);
    QCOMPARE(view->session()->finishedTrials(), finished);
  }
  QCOMPARE(window.ledger().size(), std::size_t{0});  // a sweep is an experiment
}

void TestCancelAnywhere::closingDuringEachKindOfJobExitsPromptly_data() {
  QTest::addColumn<QString>("kind");
  for (const char* kind : {"open", "train", "private-train", "audit", "sweep"}) QTest::newRow(kind) << QString::fromLatin1(kind);
}

void TestCancelAnywhere::closingDuringEachKindOfJobExitsPromptly() {
  QFETCH(QString, kind);
  QTemporaryDir dir;
  auto* window = new MainWindow;
  window->show();
  openDataset(*window, QStringLiteral("builtin:digits"), 1797);
  window->modelPanel()->form()->setModelKind(ModelKind::LogisticRegression);
  QVERIFY(mechanismForm(*window)->setChoice(QStringLiteral("output")));
  std::function<bool()> running;
  if (kind == QLatin1String("open")) {
    const QString large = writeLargeCsv(dir.path(), 200000);
    window->openDataset(large);
    running = [window] { return window->controller()->isBusy(); };
  } else if (kind == QLatin1String("train") || kind == QLatin1String("private-train")) {
    window->modelPanel()->form()->setModelKind(ModelKind::Lmgc);  // the slowest to train
    QVERIFY(mechanismForm(*window)->setChoice(kind == QLatin1String("train") ? QStringLiteral("none")
                                                                             : QStringLiteral("dplmgc")));
    QVERIFY2(window->modelPanel()->trainButton()->isEnabled(), qPrintable(window->modelPanel()->problemLabel()->text()));
    window->modelPanel()->trainButton()->click();
    running = [window] { return window->trainer()->isBusy(); };
  } else if (kind == QLatin1String("audit")) {
    window->auditView()->form()->trialsBox()->setValue(20000);
    window->auditView()->runButton()->click();
    running = [window] { return window->auditView()->isRunning(); };
  } else {
    window->sweepView()->form()->setRepeats(1000);
    window->sweepView()->startButton()->click();
    running = [window] { return window->sweepView()->session()->isRunning(); };
  }
  QTest::qWait(randomWaitMs());
  const bool stillRunning = running();
  QElapsedTimer clock;
  clock.start();
  window->close();
  delete window;
  QVERIFY2(clock.elapsed() < 5000, "closing cancels the job instead of waiting for it");
  if (!stillRunning) qInfo("the %s job had finished before the window closed", qPrintable(kind));
}

QTEST_MAIN(TestCancelAnywhere)
#include "test_cancel_anywhere.moc"
