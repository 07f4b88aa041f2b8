// A first class, scripted: what a teacher does in the first minutes, in a row, with the
// window shown, asserting after every step that the GUI thread stayed responsive (issue 9).
// Each case is named after what it once broke:
//
// - switching dataset after training hung the window for minutes (Qt Charts built one tick
//   per old tick interval over the new, 10^5 times wider, range);
// - Redraw noise silently repeated the previous ε after the dock had changed it;
// - the ledger counted one dataset under two names (training vs a predictor's answers);
// - Train fell out of a 1366×768 window once a private mechanism was chosen.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves what each step shows.

#include <QAbstractAxis>
#include <QCoreApplication>
#include <QPoint>
#include <QPointF>
#include <QPushButton>
#include <QRect>
#include <QRectF>
#include <QSettings>
#include <QSignalSpy>
#include <QSizeF>
#include <QStringList>
#include <QTest>
#include <QWidget>

#include <QAbstractSpinBox>
#include <QApplication>
#include <QLineEdit>
#include <QCheckBox>
#include <QChart>
#include <QValueAxis>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFrame>
#include <QLabel>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <QWheelEvent>

#include <algorithm>
#include <set>

#include "tests/common/test_support.h"
#include "tests/gui/gui_training_support.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/privacy/ledger_model.h"
#include "ui/privacy/ledger_view.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

// The longest time the GUI thread went without running its event loop, measured by a timer
// that should fire every 10 ms.
class StallMeter {
 public:
  StallMeter() {
    clock_.start();
    timer_.setInterval(10);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      maxGapMs_ = std::max(maxGapMs_, clock_.restart());
    });
    timer_.start();
  }
  void reset() {
    clock_.restart();
    maxGapMs_ = 0;
  }
  qint64 maxGapMs() const { return std::max(maxGapMs_, clock_.elapsed()); }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 maxGapMs_ = 0;
};

// Longer than any honest step on a loaded CI machine; far shorter than the minutes the
// tick hang took.
constexpr qint64 kMaxStallMs = 3000;

// Picks `spec` in the Dataset dock's Built-in list, as a person does, and waits for it.
void chooseBuiltin(MainWindow& window, const QString& spec) {
  QComboBox* box = window.datasetPanel()->builtinBox();
  const int index = box->findData(spec);
  QVERIFY2(index >= 0, qPrintable(spec));
  QSignalSpy shown(&window, &MainWindow::datasetShown);
  box->setCurrentIndex(index);
  emit box->activated(index);
  QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isBusy(), kTimeoutMs);
}

void typeInto(ui::NumberField* field, const QString& text) {
  field->setFocus();
  field->selectAll();
  QTest::keyClicks(field, text);
}

// An ordered sequence in which every ordered pair of `names` follows one another once
// (an Euler circuit of the complete directed graph, by Hierholzer's algorithm).
QStringList everyOrderedPair(const QStringList& names) {
  const int n = static_cast<int>(names.size());
  std::vector<std::vector<int>> next(n);
  for (int a = 0; a < n; ++a)
    for (int b = n - 1; b >= 0; --b)
      if (a != b) next[a].push_back(b);
  std::vector<int> stack{0}, circuit;
  while (!stack.empty()) {
    const int v = stack.back();
    if (next[v].empty()) {
      circuit.push_back(v);
      stack.pop_back();
    } else {
      stack.push_back(next[v].back());
      next[v].pop_back();
    }
  }
  QStringList out;
  for (auto it = circuit.rbegin(); it != circuit.rend(); ++it) out << names[*it];
  return out;
}

}  // namespace

class TestWalkthrough : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void switchingDatasetAfterTrainingStaysResponsive();
  void zoomResetAfterDeepZoomStaysResponsive();
  void redrawUsesWhatTheDockShows();
  void ledgerCountsOneDatasetUnderOneName();
  void trainStaysInALaptopWindow();
  void quittingKeepsTheReleasesWithoutAsking();
  void separateTestFileReplacesTheSplit();
  void restoredSettingsAreShownAndCanBeReset();
  void oneVsRestReportsEachClass();

 private:
  QTemporaryDir settingsDir_;
};

void TestWalkthrough::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  isolateSettings(settingsDir_.path(), QStringLiteral("test_walkthrough"));
}

void TestWalkthrough::init() { QSettings().clear(); }

void TestWalkthrough::switchingDatasetAfterTrainingStaysResponsive() {
  MainWindow window;
  window.resize(1400, 860);
  window.show();
  window.setErrorDialogsEnabled(false);
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  StallMeter meter;
  const QStringList names = {QStringLiteral("builtin:iris"), QStringLiteral("builtin:breast_cancer"),
                             QStringLiteral("builtin:digits"), QStringLiteral("builtin:wine"),
                             QStringLiteral("builtin:blobs")};
  const QStringList order = everyOrderedPair(names);
  QCOMPARE(order.size(), names.size() * (names.size() - 1) + 1);
  std::set<std::pair<QString, QString>> switched;
  for (int i = 0; i < order.size(); ++i) {
    meter.reset();
    chooseBuiltin(window, order[i]);
    QVERIFY2(meter.maxGapMs() < kMaxStallMs,
             qPrintable(QStringLiteral("opening %1 after %2 stalled the GUI thread for %3 ms")
                            .arg(order[i], i > 0 ? order[i - 1] : QStringLiteral("nothing"))
                            .arg(meter.maxGapMs())));
    QCOMPARE(window.document()->source().spec, order[i]);
    if (i > 0) switched.insert({order[i - 1], order[i]});
    // The axes show a handful of ticks, not thousands.
    for (QAbstractAxis* axis : window.scatterView()->chart()->axes()) {
      auto* value = qobject_cast<QValueAxis*>(axis);
      QVERIFY(value);
      QVERIFY2((value->max() - value->min()) / value->tickInterval() < 50.0, qPrintable(order[i]));
    }
    saveScreenshot(&window, QStringLiteral("walkthrough-switch-%1").arg(i, 2, 10, QLatin1Char('0')));
    if (i + 1 < order.size()) {
      meter.reset();
      trainFromDock(window, ModelKind::LogisticRegression, 200);
      QVERIFY2(meter.maxGapMs() < kMaxStallMs,
               qPrintable(QStringLiteral("training on %1 stalled the GUI thread for %2 ms")
                              .arg(order[i])
                              .arg(meter.maxGapMs())));
    }
  }
  QCOMPARE(switched.size(), static_cast<std::size_t>(names.size() * (names.size() - 1)));
}

void TestWalkthrough::zoomResetAfterDeepZoomStaysResponsive() {
  MainWindow window;
  window.resize(1400, 860);
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::LogisticRegression, 200);
  ui::ScatterView* view = window.scatterView();
  // A deep rubber-band zoom (Qt's own zoom stack), then another dataset and Reset Zoom.
  const QRectF plot = view->chart()->plotArea();
  for (int i = 0; i < 6; ++i)
    view->chart()->zoomIn(QRectF(plot.center() - QPointF(plot.width() / 40, plot.height() / 40),
                                 QSizeF(plot.width() / 20, plot.height() / 20)));
  StallMeter meter;
  chooseBuiltin(window, QStringLiteral("builtin:breast_cancer"));
  view->resetZoom();
  QVERIFY2(meter.maxGapMs() < kMaxStallMs, qPrintable(QString::number(meter.maxGapMs())));
  for (QAbstractAxis* axis : view->chart()->axes()) {
    auto* value = qobject_cast<QValueAxis*>(axis);
    QVERIFY((value->max() - value->min()) / value->tickInterval() < 50.0);
  }
}

void TestWalkthrough::redrawUsesWhatTheDockShows() {
  MainWindow window;
  window.resize(1400, 860);
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  auto* form = mechanismForm(window);
  form->setMechanism(mech::MechanismKind::Output);
  typeInto(form->epsilonField(), QStringLiteral("1"));
  ui::ModelPanel* panel = window.modelPanel();
  pressAndWaitForModel(window, panel->trainButton());
  QCOMPARE(window.training()->result()->settings.privacy.options.epsilon, 1.0);
  QVERIFY(panel->redrawButton()->isEnabled());
  QVERIFY(!panel->staleLabel()->isVisibleTo(panel));

  // ε changed in the dock: the result shown is stale, and Redraw would repeat ε = 1.
  typeInto(form->epsilonField(), QStringLiteral("50"));
  QVERIFY(!panel->redrawButton()->isEnabled());
  QVERIFY2(panel->redrawButton()->toolTip().contains(QStringLiteral("Train")), qPrintable(panel->redrawButton()->toolTip()));
  QVERIFY(panel->staleLabel()->isVisibleTo(panel));
  QVERIFY2(panel->staleLabel()->text().contains(QStringLiteral("1 \u2192 50")), qPrintable(panel->staleLabel()->text()));
  QVERIFY2(window.scatterView()->titleText().contains(QStringLiteral("stale")),
           qPrintable(window.scatterView()->titleText()));
  saveScreenshot(&window, QStringLiteral("walkthrough-stale"));
  // Ctrl+R does nothing while stale.
  const std::size_t before = window.ledger().size();
  QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
  QTest::qWait(200);
  QCOMPARE(window.ledger().size(), before);

  // Back to ε = 1: the same settings again, Redraw is back.
  typeInto(form->epsilonField(), QStringLiteral("1"));
  QVERIFY(panel->redrawButton()->isEnabled());
  QVERIFY(!panel->staleLabel()->isVisibleTo(panel));

  // An invalid ε: Redraw is off with the reason.
  typeInto(form->epsilonField(), QStringLiteral("-3"));
  QVERIFY(!panel->redrawButton()->isEnabled());
  QVERIFY(panel->redrawButton()->toolTip().contains(QStringLiteral("epsilon"), Qt::CaseInsensitive) ||
          panel->redrawButton()->toolTip().contains(QStringLiteral("\u03b5")));

  // Train with ε = 50: the ledger records what the dock shows.
  typeInto(form->epsilonField(), QStringLiteral("50"));
  pressAndWaitForModel(window, panel->trainButton());
  QCOMPARE(window.ledger().entries().back().epsilon, 50.0);
  QVERIFY(!panel->staleLabel()->isVisibleTo(panel));
  QVERIFY(!window.scatterView()->titleText().contains(QStringLiteral("stale")));

  // Another mechanism in the dock: the Output perturbation result is marked stale.
  form->setMechanism(mech::MechanismKind::Objective);
  QVERIFY(panel->staleLabel()->isVisibleTo(panel));
  QVERIFY2(panel->staleLabel()->text().contains(QStringLiteral("Objective perturbation")),
           qPrintable(panel->staleLabel()->text()));
}

void TestWalkthrough::ledgerCountsOneDatasetUnderOneName() {
  MainWindow window;
  window.resize(1400, 860);
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  auto* form = mechanismForm(window);
  ui::ModelPanel* panel = window.modelPanel();
  form->setMechanism(mech::MechanismKind::Output);
  pressAndWaitForModel(window, panel->trainButton());
  QVERIFY(form->setChoice(QStringLiteral("prediction")));
  pressAndWaitForModel(window, panel->trainButton());
  panel->answersBox()->countBox()->setValue(3);
  panel->answersBox()->answerButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(window.ledger().size(), std::size_t{2}, kTimeoutMs);
  const auto entries = window.ledger().entries();
  QCOMPARE(entries[0].dataset, entries[1].dataset);
  QCOMPARE(entries[0].dataset, std::string("builtin:iris"));
  QCOMPARE(window.ledger().totalFor("builtin:iris").epsilon, entries[0].epsilon + entries[1].epsilon);
  // The short columns show their whole text ("…" for δ and the time before).
  QTableView* table = window.ledgerView()->table();
  for (int column : {ui::LedgerModel::TimeColumn, ui::LedgerModel::EpsilonColumn, ui::LedgerModel::DeltaColumn})
    for (int row = 0; row < 2; ++row) {
      const QString text = table->model()->index(row, column).data().toString();
      QTRY_VERIFY2(table->columnWidth(column) > table->fontMetrics().horizontalAdvance(text), qPrintable(text));
    }
  // One style of mechanism name: "Mechanism (Model)".
  QVERIFY2(entries[0].mechanism.rfind("Output perturbation (", 0) == 0, entries[0].mechanism.c_str());
  QVERIFY2(entries[1].mechanism.rfind("Prediction sensitivity (", 0) == 0, entries[1].mechanism.c_str());
  QCOMPARE(QString::fromStdString(entries[0].mechanism).section(QLatin1Char('('), 1),
           QString::fromStdString(entries[1].mechanism).section(QLatin1Char('('), 1));
}

void TestWalkthrough::trainStaysInALaptopWindow() {
  MainWindow window;
  window.resize(1366, 768);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  ui::ModelPanel* panel = window.modelPanel();
  const auto trainVisible = [&] {
    QPushButton* train = panel->trainButton();
    const QRect inWindow(train->mapTo(&window, QPoint(0, 0)), train->size());
    return train->isVisible() && window.rect().contains(inWindow);
  };
  QVERIFY(trainVisible());
  const QPoint trainAt = panel->trainButton()->mapTo(&window, QPoint(0, 0));
  const int dockWidth = panel->trainButton()->window() == &window ? panel->actionBar()->width() : 0;
  for (const QString& choice : {QStringLiteral("output"), QStringLiteral("dpsgd"), QStringLiteral("prediction"),
                                QStringLiteral("subsample"), QStringLiteral("none")}) {
    QVERIFY2(mechanismForm(window)->setChoice(choice), qPrintable(choice));
    QCoreApplication::processEvents();
    QVERIFY2(trainVisible(), qPrintable(choice));
    // Train stays where it is, and the dock keeps its width.
    QTRY_COMPARE(panel->trainButton()->mapTo(&window, QPoint(0, 0)), trainAt);
    QCOMPARE(panel->actionBar()->width(), dockWidth);
    saveScreenshot(&window, QStringLiteral("walkthrough-1366-%1").arg(choice));
  }
}

// The ledger is in its file from the release on (issue 13 §4): quitting asks nothing and
// loses nothing; the next window shows the release as an earlier session's.
void TestWalkthrough::quittingKeepsTheReleasesWithoutAsking() {
  std::size_t before = 0;
  {
    MainWindow window;
    window.show();
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    before = window.ledgerView()->model()->history().size();
    mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    QCOMPARE(window.ledger().size(), std::size_t{1});
    window.setErrorDialogsEnabled(true);
    QVERIFY(window.close());  // a question would block here
    QVERIFY(!QApplication::activeModalWidget());
  }
  MainWindow next;
  QCOMPARE(next.ledger().size(), std::size_t{0});
  QCOMPARE(next.ledgerView()->model()->history().size(), before + 1);
  QVERIFY(QString::fromStdString(next.ledgerView()->model()->history().back().mechanism).startsWith("Output perturbation"));
}

void TestWalkthrough::separateTestFileReplacesTheSplit() {
  // a9a.t could not be used in the GUI: a LIBSVM test file, read with the dataset's feature
  // count, instead of the held-out part.
  MainWindow window;
  window.resize(1400, 860);
  window.show();
  const QString file = QString::fromStdString(fixture("a9a_head.libsvm"));
  openDataset(window, file, 300);
  QVERIFY(!window.document()->testDataset());
  QVERIFY(window.datasetPanel()->openTestButton()->isEnabled());
  window.openTestFile(file);
  QTRY_VERIFY_WITH_TIMEOUT(window.document()->testDataset(), kTimeoutMs);
  QCOMPARE(window.document()->testDataset()->rows(), Index{300});
  QCOMPARE(window.document()->testDataset()->features(), window.document()->dataset()->features());
  QVERIFY(window.datasetPanel()->testLabel()->text().contains(QStringLiteral("a9a_head.libsvm")));
  QVERIFY(!window.modelPanel()->form()->testFractionField()->isEnabled());
  trainFromDock(window, ModelKind::LogisticRegression, 300);
  const auto& result = *window.training()->result();
  QCOMPARE(result.data->train.rows(), Index{300});  // nothing held out
  QCOMPARE(result.data->test.rows(), Index{300});
  QVERIFY(result.testAccuracy.has_value());

  // Remove: the model measured on the test file goes, the split is back.
  window.datasetPanel()->removeTestButton()->click();
  QVERIFY(!window.document()->testDataset());
  QVERIFY(!window.training()->hasModel());
  QVERIFY(window.modelPanel()->form()->testFractionField()->isEnabled());
  trainFromDock(window, ModelKind::LogisticRegression, 300);
  QVERIFY(window.training()->result()->data->test.rows() > 0);
  QVERIFY(window.training()->result()->data->train.rows() < 300);

  // A test file whose labels the dataset never saw is refused, and the split stays.
  QSignalSpy failed(&window, &MainWindow::loadFailed);
  window.openTestFile(QString::fromStdString(fixture("csv/mixed.csv")));
  QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
  QVERIFY(!window.document()->testDataset());
}

void TestWalkthrough::restoredSettingsAreShownAndCanBeReset() {
  {
    MainWindow first;
    first.show();
    // A first start restores nothing.
    QVERIFY(!first.modelPanel()->restoredBanner()->isVisibleTo(first.modelPanel()));
    typeInto(mechanismForm(first)->epsilonField(), QStringLiteral("50"));
    first.modelPanel()->form()->unitRowsBox()->setChecked(true);
    QVERIFY(first.close());  // saves
  }
  MainWindow second;
  second.show();
  ui::ModelPanel* panel = second.modelPanel();
  QVERIFY(panel->restoredBanner()->isVisibleTo(panel));
  const QString text = panel->restoredLabel()->text();
  QVERIFY2(text.contains(QStringLiteral("unit rows off \u2192 on")), qPrintable(text));
  QVERIFY2(text.contains(QStringLiteral("\u03b5 1 \u2192 50")), qPrintable(text));
  QCOMPARE(mechanismForm(second)->epsilonField()->text(), QStringLiteral("50"));
  QVERIFY(panel->form()->unitRowsBox()->isChecked());
  // Use Defaults: everything as at a first start.
  auto* defaults = panel->restoredBanner()->findChild<QPushButton*>(QStringLiteral("useDefaultsButton"));
  QVERIFY(defaults);
  defaults->click();
  QVERIFY(!panel->restoredBanner()->isVisibleTo(panel));
  QCOMPARE(mechanismForm(second)->epsilonField()->text(), QStringLiteral("1"));
  QVERIFY(!panel->form()->unitRowsBox()->isChecked());
}

void TestWalkthrough::oneVsRestReportsEachClass() {
  // Iris with logistic regression is three binary problems: the Result group used to show
  // their iterations summed ("converged after 64 iterations") as if they were one run.
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::LogisticRegression, 300);
  const TrainedModel& shown = window.training()->result()->shownModel();
  QCOMPARE(shown.classSummaries.size(), std::size_t{3});
  QStringList perClass;
  for (const OptimizeSummary& s : shown.classSummaries) perClass << QString::number(s.iterations);
  bool found = false;
  for (QLabel* label : window.modelPanel()->findChildren<QLabel*>())
    if (label->text().contains(QStringLiteral("per class: ") + perClass.join(QStringLiteral(", ")))) found = true;
  QVERIFY2(found, qPrintable(perClass.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestWalkthrough)
#include "test_walkthrough.moc"
