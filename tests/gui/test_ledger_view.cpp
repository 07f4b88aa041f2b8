// The Ledger view, offscreen: releases recorded on a worker thread reach the table only
// through the GUI thread's event loop; the totals line is the ledger's own basic-composition
// total (overall and per dataset); a δ total ≥ 1 is marked void; Clear asks first and then
// empties the ledger; CSV export keeps full precision; the main window shows its ledger.

#include <QAbstractItemModel>
#include <QAction>
#include <QFile>
#include <QIODevice>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>
#include <thread>

#include "core/privacy/tradeoff.h"
#include "tests/gui/gui_training_support.h"
#include "ui/main_window.h"
#include "ui/privacy/ledger_model.h"
#include "ui/privacy/ledger_view.h"

using dpstudio::privacy::LedgerEntry;
using dpstudio::privacy::PrivacyLedger;
using dpstudio::test::isolateSettings;
using dpstudio::ui::LedgerModel;
using dpstudio::ui::LedgerView;

namespace {

LedgerEntry release(const std::string& mechanism, double epsilon, double delta, const std::string& dataset,
                    const std::string& note = {}) {
  LedgerEntry e;
  e.mechanism = mechanism;
  e.epsilon = epsilon;
  e.delta = delta;
  e.dataset = dataset;
  e.note = note;
  return e;
}

QString cell(const LedgerView& view, int row, int column) {
  return view.model()->index(row, column).data().toString();
}

QString costText(double epsilon, double delta) {
  return QStringLiteral("\u03b5 = %1, \u03b4 = %2").arg(QString::number(epsilon, 'g', 6), QString::number(delta, 'g', 6));
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

}  // namespace

class TestLedgerView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();

  void budgetColumnFollowsTheAnswersGiven();
  void releasesFromAWorkerThreadReachTheTableOnTheGuiThread();
  void totalsAreTheLedgersOwnBasicComposition();
  void deltaTotalOfOneMarksTheGuaranteeVoid();
  void clearAsksFirstThenEmptiesTheLedger();
  void csvExportKeepsFullPrecision();
  void mainWindowShowsItsLedger();

 private:
  QTemporaryDir dir_;
};

void TestLedgerView::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_ledger_view"));
}

// The budget column follows the ledger's count of answers given, from whichever thread the
// answers come; answers past B are refused, and an entry without a budget shows nothing.
void TestLedgerView::budgetColumnFollowsTheAnswersGiven() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  LedgerEntry opening = release("prediction sensitivity (logreg, corrected)", 1.0, 0.0, "iris");
  opening.inferenceBudget = dpstudio::privacy::InferenceBudgetUse{42, 5, 1, 0, true};
  QVERIFY(ledger->record(opening).ok());
  QVERIFY(ledger->record(release("output perturbation (logreg)", 0.5, 0.0, "iris")).ok());
  QTRY_COMPARE(view.model()->rowCount(), 2);
  QCOMPARE(cell(view, 0, LedgerModel::BudgetColumn), QStringLiteral("1 of 5 answers, 4 left"));
  QCOMPARE(cell(view, 1, LedgerModel::BudgetColumn), QString());

  QSignalSpy updated(view.model(), &QAbstractItemModel::dataChanged);
  bool recorded = false;
  std::thread worker([&ledger, &opening, &recorded] {
    LedgerEntry more = opening;
    more.inferenceBudget->answers = 2;
    recorded = ledger->record(more).ok();
  });
  worker.join();
  QVERIFY(recorded);
  QTRY_COMPARE(cell(view, 0, LedgerModel::BudgetColumn), QStringLiteral("3 of 5 answers, 2 left"));
  QVERIFY(!updated.isEmpty());
  QCOMPARE(view.model()->rowCount(), 2);
  LedgerEntry over = opening;
  over.inferenceBudget->answers = 3;
  QVERIFY(!ledger->record(over).ok());  // 6 of 5: refused
  over.inferenceBudget->answers = 2;
  QVERIFY(ledger->record(over).ok());
  QTRY_COMPARE(cell(view, 0, LedgerModel::BudgetColumn), QStringLiteral("5 of 5 answers, 0 left"));
  QCOMPARE(ledger->entries().front().inferenceBudget->answers, 5);

  // A malformed budget is refused by the ledger.
  LedgerEntry bad = release("prediction sensitivity", 1.0, 0.0, "iris");
  bad.inferenceBudget = dpstudio::privacy::InferenceBudgetUse{43, 5, -1, 0, true};
  QVERIFY(!ledger->record(bad).ok());
}

void TestLedgerView::releasesFromAWorkerThreadReachTheTableOnTheGuiThread() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  QCOMPARE(view.model()->rowCount(), 0);
  bool recorded = true;  // QTest's checks are for the test's thread: report after join()
  std::thread worker([&ledger, &recorded] {
    for (int i = 0; i < 3; ++i)
      recorded = recorded &&
                 ledger->record(release("output perturbation (logreg)", 0.5 * (i + 1), 0.0, "iris")).ok();
  });
  worker.join();
  QVERIFY(recorded);
  // The observer ran on the worker: nothing may have touched the model before the GUI
  // thread processed the queued resync.
  QCOMPARE(view.model()->rowCount(), 0);
  QTRY_COMPARE(view.model()->rowCount(), 3);
  QCOMPARE(view.table()->model()->rowCount(), 3);
  QCOMPARE(cell(view, 0, LedgerModel::IndexColumn), QStringLiteral("1"));
  QCOMPARE(cell(view, 1, LedgerModel::MechanismColumn), QStringLiteral("output perturbation (logreg)"));
  QCOMPARE(cell(view, 2, LedgerModel::EpsilonColumn), QStringLiteral("1.5"));
  QCOMPARE(cell(view, 2, LedgerModel::DeltaColumn), QStringLiteral("0"));
  QCOMPARE(cell(view, 2, LedgerModel::DatasetColumn), QStringLiteral("iris"));
  QVERIFY(!cell(view, 0, LedgerModel::TimeColumn).isEmpty());

  // A burst from several threads at once: every release arrives, once.
  std::thread a([&ledger] {
    for (int i = 0; i < 50; ++i) (void)ledger->record(release("prediction sensitivity", 0.01, 0.0, "wine"));
  });
  std::thread b([&ledger] {
    for (int i = 0; i < 50; ++i) (void)ledger->record(release("dpsgd", 0.01, 1e-7, "wine"));
  });
  a.join();
  b.join();
  QTRY_COMPARE(view.model()->rowCount(), 103);
  for (int row = 0; row < 103; ++row) QCOMPARE(cell(view, row, LedgerModel::IndexColumn), QString::number(row + 1));
}

void TestLedgerView::totalsAreTheLedgersOwnBasicComposition() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  QVERIFY(view.totalsLabel()->text().contains(QStringLiteral("No private releases")));
  QVERIFY(!view.clearButton()->isEnabled());
  (void)ledger->record(release("objective perturbation (logreg)", 1.0, 0.0, "iris"));
  (void)ledger->record(release("output perturbation (softmax)", 0.25, 1e-5, "wine"));
  (void)ledger->record(release("dplmgc (lmgc)", 0.5, 2e-5, "iris"));
  QTRY_COMPARE(view.model()->rowCount(), 3);
  const auto total = ledger->total();
  QCOMPARE(total.epsilon, 1.75);
  const QString text = view.totalsLabel()->text();
  QVERIFY2(text.contains(costText(total.epsilon, total.delta)), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("iris: ") + costText(ledger->totalFor("iris").epsilon, ledger->totalFor("iris").delta)),
           qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("wine: ") + costText(0.25, 1e-5)), qPrintable(text));
  // Each dataset's total read for one person in it (issue 35): a 1 % belief's largest posterior.
  const double iris = dpstudio::privacy::posteriorBoundAt(0.01, 1.5, ledger->totalFor("iris").delta, 0.01).value();
  QVERIFY2(text.contains(QStringLiteral("at most %1 % against a test wrong for 1 %").arg(100 * iris, 0, 'f', 1)),
           qPrintable(text));
  QVERIFY(text.contains(QStringLiteral("3 releases")));
  QVERIFY(view.clearButton()->isEnabled());
  QVERIFY(view.voidLabel()->isHidden());
}

void TestLedgerView::deltaTotalOfOneMarksTheGuaranteeVoid() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  (void)ledger->record(release("output perturbation (logreg)", 1.0, 0.6, "iris"));
  QTRY_COMPARE(view.model()->rowCount(), 1);
  QVERIFY(view.voidLabel()->isHidden());
  (void)ledger->record(release("output perturbation (logreg)", 1.0, 0.4, "iris"));
  QTRY_COMPARE(view.model()->rowCount(), 2);
  QVERIFY(ledger->total().delta >= 1.0);
  QVERIFY(!view.voidLabel()->isHidden());
  QVERIFY(view.voidLabel()->text().contains(QStringLiteral("void")));
  ledger->clear();
  QTRY_COMPARE(view.model()->rowCount(), 0);
  QVERIFY(view.voidLabel()->isHidden());
}

void TestLedgerView::clearAsksFirstThenEmptiesTheLedger() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  (void)ledger->record(release("output perturbation (logreg)", 1.0, 0.0, "iris"));
  (void)ledger->record(release("output perturbation (logreg)", 2.0, 0.0, "iris"));
  QTRY_COMPARE(view.model()->rowCount(), 2);

  answerNextMessageBox(QMessageBox::Cancel);
  view.clearButton()->click();
  QCOMPARE(ledger->size(), std::size_t{2});
  QCOMPARE(view.model()->rowCount(), 2);

  answerNextMessageBox(QMessageBox::Yes);
  view.clearButton()->click();
  QCOMPARE(ledger->size(), std::size_t{0});
  QTRY_COMPARE(view.model()->rowCount(), 0);
  QVERIFY(view.totalsLabel()->text().contains(QStringLiteral("No private releases")));

  // A new session numbers its releases from 1 again.
  (void)ledger->record(release("dpsgd (softmax)", 0.5, 1e-5, "digits"));
  QTRY_COMPARE(view.model()->rowCount(), 1);
  QCOMPARE(cell(view, 0, LedgerModel::IndexColumn), QStringLiteral("1"));
}

void TestLedgerView::csvExportKeepsFullPrecision() {
  auto ledger = std::make_shared<PrivacyLedger>();
  LedgerView view(ledger);
  (void)ledger->record(release("output perturbation, \"gaussian\"", 0.1 + 0.2, 1e-5, "iris", "a, b"));
  QTRY_COMPARE(view.model()->rowCount(), 1);
  const QString path = dir_.filePath(QStringLiteral("ledger.csv"));
  QString error;
  QVERIFY2(view.exportCsv(path, &error), qPrintable(error));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 2);
  // The first seven columns as before the ledger file; session and the user's dataset name after them.
  QCOMPARE(lines[0], QStringLiteral("index,time,mechanism,epsilon,delta,dataset,note,session,dataset_name"));
  QVERIFY2(lines[1].startsWith(QStringLiteral("1,")), qPrintable(lines[1]));
  QVERIFY2(lines[1].contains(QStringLiteral(",\"output perturbation, \"\"gaussian\"\"\",0.30000000000000004,1.0000000000000001e-05,"
                                            "\"iris\",\"a, b\",\"\",\"\"")),
           qPrintable(lines[1]));
}

void TestLedgerView::mainWindowShowsItsLedger() {
  dpstudio::ui::MainWindow window;
  QVERIFY(window.ledgerView());
  QVERIFY(window.auditView());
  std::thread worker([&window] {
    (void)window.ledger().record(release("subsample-and-aggregate (logreg, corrected)", 1.0, 0.0, "iris"));
  });
  worker.join();
  QTRY_COMPARE(window.ledgerView()->model()->rowCount(), 1);
  QVERIFY(window.ledgerView()->totalsLabel()->text().contains(costText(1.0, 0.0)));
  // Both views can be toggled from the View menu.
  QStringList viewActions;
  for (QAction* action : window.findChildren<QAction*>()) viewActions << action->text();
  QVERIFY(viewActions.contains(QStringLiteral("&Ledger")));
  QVERIFY(viewActions.contains(QStringLiteral("&Audit")));
}

QTEST_MAIN(TestLedgerView)
#include "test_ledger_view.moc"
