// The ledger outlives the session (issue 13 §4), offscreen: a release made in one main
// window is in the next one's Ledger view, marked as an earlier session's, with the totals
// across sessions; a private predictor's budget keeps its count; releases of dpstudio-cli
// (--ledger default) join the same totals; a corrupt ledger file is reported and kept
// aside; a newer one refuses releases until it is archived; archiving asks, then renames.
//
// Each test uses its own ledger file (DPSTUDIO_LEDGER_FILE), never the user's.

#include <QByteArray>
#include <QDate>
#include <QFileInfo>
#include <QIODevice>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include <QApplication>
#include <QBrush>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>

#include "tests/gui/gui_training_support.h"
#include "ui/privacy/ledger_model.h"
#include "ui/privacy/ledger_store.h"
#include "ui/privacy/ledger_view.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/training/training_controller.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::LedgerModel;
using dpstudio::ui::MainWindow;

namespace {

QString costText(double epsilon, double delta) {
  return QStringLiteral("\u03b5 = %1, \u03b4 = %2").arg(QString::number(epsilon, 'g', 6), QString::number(delta, 'g', 6));
}

QString cell(MainWindow& window, int row, int column) {
  return window.ledgerView()->model()->index(row, column).data().toString();
}

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Presses `button` of the next message box once it is shown (a modal exec() blocks the test).
void answerNextMessageBox(QMessageBox::StandardButton button) {
  auto* timer = new QTimer;
  QObject::connect(timer, &QTimer::timeout, timer, [timer, button] {
    for (QWidget* widget : QApplication::topLevelWidgets()) {
      auto* box = qobject_cast<QMessageBox*>(widget);
      if (!box || !box->isVisible()) continue;
      timer->stop();
      timer->deleteLater();
      box->button(button)->click();
      return;
    }
  });
  timer->start(20);
}

// Trains output perturbation on iris from the Training dock; returns the ε it recorded.
double releaseOutputPerturbation(MainWindow& window) {
  mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
  const std::size_t before = window.ledger().size();
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  if (window.ledger().size() != before + 1) return -1;
  return window.ledger().entries().back().epsilon;
}

}  // namespace

class TestLedgerPersistence : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString ledger_;
  int n_ = 0;

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_ledger_persistence"));
  }
  // A ledger file of its own for each test.
  void init() {
    ledger_ = dir_.filePath(QStringLiteral("ledger%1/ledger.json").arg(++n_));
    qputenv("DPSTUDIO_LEDGER_FILE", ledger_.toUtf8());
  }

  void aReleaseIsInTheNextWindowWithTheTotals() {
    double epsilon = 0;
    {
      MainWindow window;
      QCOMPARE(window.ledgerStore()->path(), ledger_);
      openDataset(window, QStringLiteral("builtin:iris"), 150);
      epsilon = releaseOutputPerturbation(window);
      QVERIFY(epsilon > 0);
      QTRY_COMPARE(window.ledgerView()->model()->rowCount(), 1);
      QCOMPARE(cell(window, 0, LedgerModel::SessionColumn), QStringLiteral("this session"));
      QVERIFY(QFile::exists(ledger_));  // on disk from the release on, not at quitting
    }
    MainWindow next;
    next.setErrorDialogsEnabled(false);
    QCOMPARE(next.ledger().size(), std::size_t{0});  // the session is new...
    LedgerModel* model = next.ledgerView()->model();
    QCOMPARE(model->rowCount(), 1);                  // ...and shows the earlier one's release
    QVERIFY(model->isHistoryRow(0));
    QCOMPARE(cell(next, 0, LedgerModel::SessionColumn), QStringLiteral("dpstudio"));
    QVERIFY(model->index(0, LedgerModel::SessionColumn).data(Qt::ToolTipRole).toString().contains(QStringLiteral("pid")));
    QVERIFY2(cell(next, 0, LedgerModel::TimeColumn).contains(QDate::currentDate().toString(Qt::ISODate)) ||
                 cell(next, 0, LedgerModel::TimeColumn).contains(QDate::currentDate().addDays(-1).toString(Qt::ISODate)),
             qPrintable(cell(next, 0, LedgerModel::TimeColumn)));  // an earlier session's release carries its date
    QVERIFY(model->index(0, LedgerModel::MechanismColumn).data(Qt::ForegroundRole).isValid());  // drawn apart
    QVERIFY(cell(next, 0, LedgerModel::MechanismColumn).startsWith(QStringLiteral("Output perturbation")));
    QString totals = next.ledgerView()->totalsLabel()->text();
    QVERIFY2(totals.contains(QStringLiteral("all sessions:</b> ") + costText(epsilon, 0) + " over 1 release"),
             qPrintable(totals));
    QVERIFY2(totals.contains(QStringLiteral("builtin:iris: ") + costText(epsilon, 0)), qPrintable(totals));
    QVERIFY(next.ledgerView()->clearButton()->isEnabled());

    // A release in this session adds to the totals across sessions.
    openDataset(next, QStringLiteral("builtin:iris"), 150);
    const double second = releaseOutputPerturbation(next);
    QTRY_COMPARE(model->rowCount(), 2);
    QCOMPARE(cell(next, 1, LedgerModel::SessionColumn), QStringLiteral("this session"));
    totals = next.ledgerView()->totalsLabel()->text();
    QVERIFY2(totals.contains(QStringLiteral("builtin:iris: ") + costText(epsilon + second, 0)), qPrintable(totals));
    QVERIFY2(totals.contains(QStringLiteral("(1 in this session: ") + costText(second, 0)), qPrintable(totals));
  }

  // A private predictor's budget: the entry its first answer opened keeps the answers given,
  // and the next session shows what is left of it.
  void aBudgetKeepsItsCountAcrossSessions() {
    {
      MainWindow window;
      window.setErrorDialogsEnabled(false);
      openDataset(window, QStringLiteral("builtin:iris"), 150);
      QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("prediction")));
      pressAndWaitForModel(window, window.modelPanel()->trainButton());
      auto* answers = window.modelPanel()->answersBox();
      answers->countBox()->setValue(3);
      answers->answerButton()->click();
      QTRY_COMPARE(window.ledger().size(), std::size_t{1});
      answers->countBox()->setValue(2);
      answers->answerButton()->click();
      QTRY_COMPARE(window.ledger().entries().front().inferenceBudget->counted(), 5LL);
    }
    MainWindow next;
    QCOMPARE(next.ledgerView()->model()->rowCount(), 1);
    const auto& entry = next.ledgerView()->model()->history().front();
    QVERIFY(entry.inferenceBudget);
    QCOMPARE(entry.inferenceBudget->counted(), 5LL);  // the later answers' count was kept too
    QVERIFY(cell(next, 0, LedgerModel::BudgetColumn).startsWith(QStringLiteral("5 of ")));
  }

  // dpstudio-cli --ledger default writes the GUI's file: its releases are in the Ledger view
  // (when its page is turned to, and after the window's next release) and in the same
  // dataset's total.
  void cliReleasesJoinTheTotals() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    QProcess cli;
    cli.start(QStringLiteral(DPSTUDIO_CLI_PATH),
              {"train", "--train", "builtin:iris", "--unit-rows", "--model", "softmax", "--mechanism", "output",
               "--epsilon", "0.5", "--ledger", "default"});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    // Turning to the Ledger page reloads the file.
    window.show();
    window.centralTabs()->setCurrentIndex(0);
    window.centralTabs()->setCurrentWidget(window.ledgerView());
    QTRY_COMPARE(window.ledgerView()->model()->rowCount(), 1);
    QCOMPARE(cell(window, 0, LedgerModel::SessionColumn), QStringLiteral("dpstudio-cli train"));
    const double gui = releaseOutputPerturbation(window);
    QTRY_COMPARE(window.ledgerView()->model()->rowCount(), 2);
    QCOMPARE(cell(window, 0, LedgerModel::SessionColumn), QStringLiteral("dpstudio-cli train"));
    const QString totals = window.ledgerView()->totalsLabel()->text();
    QVERIFY2(totals.contains(QStringLiteral("builtin:iris: ") + costText(0.5 + gui, 0)), qPrintable(totals));
  }

  void aCorruptLedgerIsReportedAndKeptAside() {
    QVERIFY(QDir().mkpath(QFileInfo(ledger_).absolutePath()));
    QFile f(ledger_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"dpstudio-ledger\", \"version\": 1, \"entries\": [{\"id\": 3}]}");
    f.close();
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QLabel* label = window.ledgerView()->fileLabel();
    QVERIFY(!label->isHidden());
    QVERIFY2(label->text().contains(QDir::toNativeSeparators(ledger_)) && label->text().contains(QStringLiteral("corrupt")) &&
                 label->text().contains(QStringLiteral("entry 1: id must be a non-empty string")),
             qPrintable(label->text()));
    const QStringList aside = QFileInfo(ledger_).absoluteDir().entryList({QStringLiteral("ledger.json.corrupt-*")});
    QCOMPARE(aside.size(), 1);
    QVERIFY(label->text().contains(aside[0]));
    // The new ledger takes releases.
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    QVERIFY(releaseOutputPerturbation(window) > 0);
    QVERIFY(QFile::exists(ledger_));
  }

  // A ledger a later dpstudio wrote is left as it is; releases are refused (none may be
  // missing from it) until the user archives it.
  void aNewerLedgerRefusesReleasesUntilArchived() {
    QVERIFY(QDir().mkpath(QFileInfo(ledger_).absolutePath()));
    const QByteArray newer = "{\"format\": \"dpstudio-ledger\", \"version\": 9, \"entries\": []}";
    QFile f(ledger_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(newer);
    f.close();
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    QLabel* label = window.ledgerView()->fileLabel();
    QVERIFY(!label->isHidden());
    QVERIFY2(label->text().contains(QStringLiteral("version 9 is newer")), qPrintable(label->text()));
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
    QSignalSpy failed(window.trainer(), &ui::TrainingController::trainingFailed);
    window.modelPanel()->trainButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
    QVERIFY2(failed.front().front().toString().contains(QStringLiteral("privacy ledger")),
             qPrintable(failed.front().front().toString()));
    QCOMPARE(window.ledger().size(), std::size_t{0});
    QCOMPARE(bytesOf(ledger_), newer);

    QVERIFY(window.ledgerView()->clearButton()->isEnabled() || true);
    answerNextMessageBox(QMessageBox::Yes);
    window.ledgerView()->requestClear();  // Archive History…
    QVERIFY(!QFile::exists(ledger_));
    const QStringList archived = QFileInfo(ledger_).absoluteDir().entryList({QStringLiteral("ledger.json.archived-*")});
    QCOMPARE(archived.size(), 1);
    QCOMPARE(bytesOf(QFileInfo(ledger_).absoluteDir().filePath(archived[0])), newer);
    QVERIFY(releaseOutputPerturbation(window) > 0);
  }

  void archiveAsksThenRenamesAside() {
    {
      MainWindow window;
      window.setErrorDialogsEnabled(false);
      openDataset(window, QStringLiteral("builtin:iris"), 150);
      QVERIFY(releaseOutputPerturbation(window) > 0);
    }
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    ui::LedgerView* view = window.ledgerView();
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(view->clearButton()->text(), QStringLiteral("Archive History\u2026"));
    const QByteArray before = bytesOf(ledger_);

    answerNextMessageBox(QMessageBox::Cancel);
    view->clearButton()->click();
    QCOMPARE(view->model()->rowCount(), 1);
    QCOMPARE(bytesOf(ledger_), before);

    answerNextMessageBox(QMessageBox::Yes);
    view->clearButton()->click();
    QCOMPARE(view->model()->rowCount(), 0);
    QVERIFY(view->totalsLabel()->text().contains(QStringLiteral("No private releases")));
    QVERIFY(!QFile::exists(ledger_));
    const QStringList archived = QFileInfo(ledger_).absoluteDir().entryList({QStringLiteral("ledger.json.archived-*")});
    QCOMPARE(archived.size(), 1);
    QCOMPARE(bytesOf(QFileInfo(ledger_).absoluteDir().filePath(archived[0])), before);  // kept, whole
    QVERIFY(view->fileLabel()->text().contains(archived[0]));
    MainWindow after;
    QCOMPARE(after.ledgerView()->model()->rowCount(), 0);
  }
};

QTEST_MAIN(TestLedgerPersistence)
#include "test_ledger_persistence.moc"
