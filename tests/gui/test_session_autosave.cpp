// Session autosave (issue 15 item 5): the sweeps shown are saved as they finish; a session
// that dies (a forked child SIGKILLed after saving, as a crash would leave it) is found by
// the next window, whose Privacy–utility tab shows its sweeps again, and is then gone; a
// session that closed, or one still open, is never taken for a crashed one.

#include <QFileInfo>
#include <QStringList>
#include <QStatusBar>
#include <QTest>

#include <QDir>
#include <QTabWidget>
#include <QTemporaryDir>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/gui/gui_training_support.h"
#include "ui/session_autosave.h"
#include "ui/sweep/sweep_form.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

constexpr int kSweepTimeoutMs = 60000;

// A session that saved `sweeps` and was then killed: a forked child, SIGKILLed.
bool leaveCrashedSession(const QString& folder, const std::vector<experiment::TrialTable>& sweeps) {
  const pid_t child = fork();
  if (child == 0) {
    ui::SessionAutosave session(folder);
    if (session.sessionFolder().isEmpty() || !session.saveSweeps(sweeps)) _exit(1);
    std::raise(SIGKILL);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

QStringList sessionEntries(const QString& folder) {
  return QDir(folder).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestSessionAutosave : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    isolateSettings(dir_.path(), QStringLiteral("test_session_autosave"));
    sessions_ = QDir(dir_.path()).filePath(QStringLiteral("sessions"));
  }

  void savedSweepsReplaceTheOldOnes();
  void aCrashedSessionsSweepsComeBackOnce();
  void quittingKeepsTheSweepsForTheNextStart();

 private:
  // Runs a small sweep on iris in `window` to its end.
  void runSmallSweep(MainWindow& window);

  QTemporaryDir dir_;
  QString sessions_;
};

void TestSessionAutosave::runSmallSweep(MainWindow& window) {
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  ui::SweepView* view = window.sweepView();
  view->form()->setRepeats(3);
  view->startButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);
}

void TestSessionAutosave::savedSweepsReplaceTheOldOnes() {
  QTemporaryDir folder;
  ui::SessionAutosave session(folder.path());
  QVERIFY(!session.sessionFolder().isEmpty());
  experiment::TrialTable table;
  table.layout.title = "t";
  table.layout.values = {1.0};
  table.layout.series = {{"output", "Output perturbation", true}};
  table.layout.totalTrials = 1;
  QVERIFY(session.saveSweeps({table, table}));
  QCOMPARE(QDir(session.sessionFolder()).entryList(QDir::Files).size(), 2);
  QVERIFY(session.saveSweeps({table}));
  QCOMPARE(QDir(session.sessionFolder()).entryList(QDir::Files).size(), 1);
  // Open sessions are not crashed ones, even in another SessionAutosave of this process.
  ui::SessionAutosave other(folder.path());
  QVERIFY(!other.recoverCrashed().has_value());
}

void TestSessionAutosave::aCrashedSessionsSweepsComeBackOnce() {
  std::vector<experiment::TrialTable> sweeps;
  {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    runSmallSweep(window);
    sweeps = window.sweepView()->session()->tables();
    QCOMPARE(sweeps.size(), std::size_t{1});
    QVERIFY(!sweeps.front().trials.empty());
    // The finished sweep was saved in the window's own session folder.
    QTRY_VERIFY_WITH_TIMEOUT(!QDir(window.autosave()->sessionFolder()).entryList(QDir::Files).isEmpty(), 5000);
  }
  QVERIFY2(sessionEntries(sessions_).isEmpty(), qPrintable(sessionEntries(sessions_).join(", ")));  // a clean end

  QVERIFY(leaveCrashedSession(sessions_, sweeps));
  QCOMPARE(sessionEntries(sessions_).size(), 2);  // its lock file and its folder

  {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    ui::SweepSession* restored = window.sweepView()->session();
    QTRY_COMPARE_WITH_TIMEOUT(restored->sweepCount(), 1, 5000);
    QVERIFY(restored->showsRestored());
    QCOMPARE(window.centralTabs()->currentWidget(), window.sweepView());
    QCOMPARE(restored->finishedTrials(), static_cast<long long>(sweeps.front().trials.size()));
    QCOMPARE(restored->lastTable().layout, sweeps.front().layout);
    QVERIFY(!restored->curve().series.empty());
    QVERIFY(restored->boundedQuantities().empty());
    QVERIFY(restored->whyNoBounds().contains(QStringLiteral("restored")));
    saveScreenshot(&window, QStringLiteral("restored-sweeps"));
    // The crashed session is gone; only this window's session remains while it is open.
    QCOMPARE(sessionEntries(sessions_).size(), 2);
    QVERIFY(sessionEntries(sessions_).join(QLatin1Char(' ')).contains(QFileInfo(window.autosave()->sessionFolder()).fileName()));

    // A second window while the first is open restores nothing: the first is alive.
    MainWindow second;
    second.setErrorDialogsEnabled(false);
    QTest::qWait(100);
    QCOMPARE(second.sweepView()->session()->sweepCount(), 0);
  }
  MainWindow next;
  next.setErrorDialogsEnabled(false);
  QTest::qWait(100);
  QCOMPARE(next.sweepView()->session()->sweepCount(), 0);
}

// Issue 33: quitting dropped a sweep of 5 268 trials without a word. A window closed with a
// sweep shown keeps it; the next start shows it once, and says so in the status bar.
void TestSessionAutosave::quittingKeepsTheSweepsForTheNextStart() {
  std::vector<experiment::TrialTable> sweeps;
  {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    runSmallSweep(window);
    sweeps = window.sweepView()->session()->tables();
    QVERIFY(window.close());
  }
  QCOMPARE(sessionEntries(sessions_).size(), 2);  // the kept folder and its mark
  {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    ui::SweepSession* restored = window.sweepView()->session();
    QTRY_COMPARE_WITH_TIMEOUT(restored->sweepCount(), 1, 5000);
    QCOMPARE(restored->finishedTrials(), static_cast<long long>(sweeps.front().trials.size()));
    QCOMPARE(restored->lastTable().layout, sweeps.front().layout);
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Last session")),
             qPrintable(window.statusBar()->currentMessage()));
  }
  // Destroyed without close() (no quit): nothing kept, and the kept sweeps were taken once.
  MainWindow next;
  next.setErrorDialogsEnabled(false);
  QTest::qWait(100);
  QCOMPARE(next.sweepView()->session()->sweepCount(), 0);
  // A window closed without any sweep keeps nothing.
  QVERIFY(next.close());
}

QTEST_MAIN(TestSessionAutosave)
#include "test_session_autosave.moc"
