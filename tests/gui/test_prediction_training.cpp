// Private prediction and multiparty aggregation trained from the Training dock, offscreen
// (docs/algorithms.md §3 F, G, I): a trained predictor's regions are labelled non-private, its
// answers spend the budget point by point (the answers are the ones core gives for the same
// seed), answer B + 1 is refused with core's message, and the ledger gets one entry at the
// first answer; Redraw noise is a new repetition; subsample-and-aggregate trains T teachers
// and answers; Cancel during the teachers keeps the previous model; multiparty aggregation
// with a 3-party split shows its bound and distance and is recorded once.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the window and the Training panel after answering and
// after a multiparty training as PNGs in DIR, for looking at.

#include <QLocale>
#include <QTest>
#include <QWidget>

#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QToolButton>

#include "core/data/split.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/paillier/transcript_reading.h"
#include "ui/training/transcript_diagram.h"
#include "ui/training/transcript_dialog.h"
#include "tests/common/test_support.h"
#include "core/prediction/prediction_options.h"
#include "tests/gui/prediction_dock_support.h"
#include "ui/dataset/dataset_document.h"
#include "ui/jobs/job_status_widget.h"
#include "ui/privacy/ledger_model.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/party_split_editor.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/training/prediction_fields.h"
#include "ui/training/training_controller.h"
#include "ui/widgets/number_field.h"

using dpstudio::Index;
using dpstudio::ModelKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::useExperimentNoise;
using dpstudio::test::mechanismForm;
using dpstudio::test::pressAndWaitForModel;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;
using dpstudio::ui::SeriesRole;
using dpstudio::ui::TrainingController;
namespace predict = dpstudio::predict;
namespace multiparty = dpstudio::multiparty;
using dpstudio::test::compareReports;
using dpstudio::test::fields;
using dpstudio::test::kIris;
using dpstudio::test::kTwoBlobs;

namespace {

dpstudio::ui::PredictionAnswersBox* answersBox(MainWindow& window) { return window.modelPanel()->answersBox(); }

void saveScreenshot(QWidget* widget, const QString& name) {
  const QString dir = qEnvironmentVariable("DPSTUDIO_TEST_SCREENSHOTS");
  if (dir.isEmpty()) return;
  QTest::qWait(200);  // the layouts and the ledger's queued update, as a user would see them
  widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// Asks the dock for `count` more answers, as a user would.
void answer(MainWindow& window, int count) {
  answersBox(window)->countBox()->setValue(count);
  QVERIFY(answersBox(window)->answerButton()->isEnabled());
  answersBox(window)->answerButton()->click();
}

}  // namespace

class TestPredictionTraining : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void predictionSensitivitySpendsTheBudget();
  void redrawStartsANewRepetition();
  void subsampleTrainsTeachersAndAnswers();
  void cancelDuringTeachersKeepsThePreviousModel();
  void multipartyShowsTheBoundAndIsRecorded();
  void multipartyBaselineIsItsOwnLedgerEntry();
  void paillierProtocolShowsItsTranscript();
  void paillierProtocolCancels();

 private:
  QTemporaryDir dir_;
};

void TestPredictionTraining::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_prediction_training"));
}

void TestPredictionTraining::init() { QSettings().clear(); }

void TestPredictionTraining::predictionSensitivitySpendsTheBudget() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  useExperimentNoise(window);  // replayed below: seeded noise
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("prediction")));
  form->epsilonField()->setValue(5.0);
  fields(window)->budgetField()->setValue(5);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());

  // Trained, nothing released: the regions are θ*'s and say so; no ledger entry yet.
  const auto result = window.training()->result();
  QVERIFY(result->isPrediction());
  QCOMPARE(window.ledger().size(), std::size_t{0});
  const QString title = window.scatterView()->chart()->title();
  QVERIFY2(title.contains(QStringLiteral("regions: the non-private model \u03b8* \u2014 not released")),
           qPrintable(title));
  QVERIFY(title.contains(QLatin1String("B = 5 answers")));
  const int testRows = static_cast<int>(result->data->test.rows());
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::TestPoints), testRows);
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 0);
  QCOMPARE(answersBox(window)->budgetLabel()->text(), QStringLiteral("Budget: 5 answers, 5 remaining"));
  QVERIFY(answersBox(window)->isVisibleTo(window.modelPanel()));

  // Two answers: the first opens the budget in the ledger; the points change sets.
  QSignalSpy drawn(window.decisionOverlay(), &dpstudio::ui::DecisionOverlay::answersShown);
  answer(window, 2);
  QCOMPARE(drawn.count(), 1);
  QCOMPARE(window.ledger().size(), std::size_t{1});
  QCOMPARE(answersBox(window)->budgetLabel()->text(), QStringLiteral("Budget: 5 answers, 3 remaining"));
  QCOMPARE(answersBox(window)->budgetBar()->value(), 2);
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 2);
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredRing), 2);
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::TestPoints), testRows - 2);
  QVERIFY(!window.scatterView()->underlay().isNull());  // the regions stay

  // Three more, one at a time: the budget runs out; still one ledger entry.
  for (int remaining = 2; remaining >= 0; --remaining) {
    answer(window, 1);
    QCOMPARE(answersBox(window)->budgetLabel()->text(),
             QStringLiteral("Budget: 5 answers, %1 remaining").arg(remaining));
  }
  QCOMPARE(window.ledger().size(), std::size_t{1});
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 5);

  // Answer 6 is refused, in core's words; nothing is drawn or recorded.
  QSignalSpy refused(window.trainer(), &TrainingController::answerRefused);
  answer(window, 1);
  QCOMPARE(refused.count(), 1);
  const QString shown = answersBox(window)->messageLabel()->text();
  QVERIFY2(shown.contains(QLatin1String("inference budget spent: this predictor may give 5 answers under its "
                                        "privacy guarantee and has given 5; answer 6 refused")),
           qPrintable(shown));
  QVERIFY(answersBox(window)->messageLabel()->isVisibleTo(window.modelPanel()));
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 5);
  QCOMPARE(window.ledger().size(), std::size_t{1});

  // The answers are the ones core gives the first five test points with the run's seed,
  // as dpstudio-cli would print them; the accuracy is theirs.
  const auto& answers = *window.training()->answers();
  auto predictor = std::get<predict::PrivatePredictor>(result->prediction->predictor).freshRepetition();
  auto noise = dpstudio::privacy::makeNoiseSource(dpstudio::privacy::NoiseKind::Experiment, 1).value();
  const auto expected = predictor.answerRows(result->data->test.X.topRows(5), *noise).value();
  long long correct = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    QCOMPARE(answers.labels()[i], expected[i].label);
    correct += expected[i].label == result->data->test.y[static_cast<Index>(i)];
  }
  QCOMPARE(answers.correct(), correct);
  const QString accuracy = answersBox(window)->accuracyLabel()->text();
  QVERIFY2(accuracy.contains(QStringLiteral("on the 5 test points answered")), qPrintable(accuracy));
  QVERIFY(accuracy.contains(QLocale().toString(100.0 * static_cast<double>(correct) / 5.0, 'f', 1)));

  // The entry is the whole budget's (ε, δ), and the Ledger view reads its budget.
  const auto entry = window.ledger().entries().front();
  QVERIFY2(QString::fromStdString(entry.mechanism).startsWith(QLatin1String("Prediction sensitivity (")),
           entry.mechanism.c_str());
  QCOMPARE(entry.epsilon, 5.0);
  QCOMPARE(dpstudio::ui::ledgerBudgetText(entry, 5), QStringLiteral("5 of 5 answers, 0 left"));
  QCOMPARE(dpstudio::ui::ledgerBudgetText(entry, 7), QStringLiteral("5 answers here; 7 of 5 given in all, 0 left"));
  saveScreenshot(&window, QStringLiteral("prediction-sensitivity-window"));
  saveScreenshot(window.modelPanel(), QStringLiteral("prediction-sensitivity-panel"));
}

void TestPredictionTraining::redrawStartsANewRepetition() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  useExperimentNoise(window);  // replayed below: seeded noise
  QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("prediction")));
  fields(window)->budgetField()->setValue(3);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const auto first = window.training()->result();
  answer(window, 3);
  QCOMPARE(window.ledger().size(), std::size_t{1});
  QCOMPARE(first->prediction->remaining(), 0LL);

  // Redraw: the same θ*, a new budget and seed, nothing answered; no entry until it answers.
  QVERIFY(window.modelPanel()->redrawButton()->isEnabled());
  pressAndWaitForModel(window, window.modelPanel()->redrawButton());
  const auto second = window.training()->result();
  QVERIFY(second != first);
  QCOMPARE(second->settings.privacy.seed, first->settings.privacy.seed + 1);
  QVERIFY(second->model.theta == first->model.theta);
  QCOMPARE(second->prediction->remaining(), 3LL);
  QCOMPARE(first->prediction->remaining(), 0LL);  // the old repetition's budget stays spent
  QCOMPARE(window.training()->answers()->answered(), Index{0});
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 0);
  QCOMPARE(window.ledger().size(), std::size_t{1});
  answer(window, 1);
  QCOMPARE(window.ledger().size(), std::size_t{2});
}

void TestPredictionTraining::subsampleTrainsTeachersAndAnswers() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("subsample")));
  form->deltaField()->setValue(0.0);
  fields(window)->teachersField()->setValue(4);
  fields(window)->budgetField()->setValue(20);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());

  const auto result = window.training()->result();
  const auto& aggregate = std::get<predict::SubsampleAggregate>(result->prediction->predictor);
  QCOMPARE(aggregate.teachers().teachers(), Index{4});
  QCOMPARE(aggregate.teachers().partRows, result->data->train.rows() / 4);
  QVERIFY2(window.scatterView()->chart()->title().contains(
               QStringLiteral("plurality vote of the T = 4 non-private teachers \u2014 not released")),
           qPrintable(window.scatterView()->chart()->title()));
  QCOMPARE(window.ledger().size(), std::size_t{0});

  answer(window, 10);
  QCOMPARE(aggregate.remaining(), 10LL);  // the copy shown shares the budget
  QCOMPARE(answersBox(window)->budgetLabel()->text(), QStringLiteral("Budget: 20 answers, 10 remaining"));
  QCOMPARE(window.scatterView()->pointCount(SeriesRole::AnsweredFill), 10);
  QCOMPARE(window.ledger().size(), std::size_t{1});
  QVERIFY(QString::fromStdString(window.ledger().entries().front().mechanism).startsWith(
      QLatin1String("Subsample-and-aggregate (")));
  QCOMPARE(window.ledger().entries().front().delta, 0.0);
  QVERIFY(answersBox(window)->accuracyLabel()->text().contains(QLatin1String("teachers' plurality vote")));
}

void TestPredictionTraining::cancelDuringTeachersKeepsThePreviousModel() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  auto* settingsForm = window.modelPanel()->form();
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("prediction")));
  fields(window)->budgetField()->setValue(4);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  answer(window, 1);
  const auto previous = window.training()->result();
  QCOMPARE(window.ledger().size(), std::size_t{1});

  // LMGC teachers to a tolerance they never reach run for minutes: Cancel has them to stop.
  QVERIFY(form->setChoice(QStringLiteral("subsample")));
  settingsForm->setModelKind(ModelKind::Lmgc);
  fields(window)->teachersField()->setValue(2);
  settingsForm->toleranceField()->setText(QStringLiteral("1e-15"));
  settingsForm->maxIterationsBox()->setValue(10'000'000);
  QSignalSpy cancelled(window.trainer(), &TrainingController::trainingCancelled);
  window.modelPanel()->trainButton()->click();
  QVERIFY(window.trainer()->isTraining());
  QVERIFY(!answersBox(window)->answerButton()->isEnabled());  // no answers while training
  QTRY_VERIFY_WITH_TIMEOUT(window.jobStatus()->isVisible(), kTimeoutMs);
  window.jobStatus()->cancelButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);

  QCOMPARE(window.training()->result(), previous);
  QCOMPARE(window.training()->answers()->answered(), Index{1});
  QCOMPARE(window.ledger().size(), std::size_t{1});
  QVERIFY(answersBox(window)->answerButton()->isEnabled());
  answer(window, 1);  // the previous predictor still answers from its budget
  QCOMPARE(previous->prediction->remaining(), 2LL);
}

void TestPredictionTraining::multipartyShowsTheBoundAndIsRecorded() {
  MainWindow window;
  window.show();
  openDataset(window, kTwoBlobs, 200);
  auto* settingsForm = window.modelPanel()->form();
  settingsForm->normBoundBox()->setChecked(true);
  settingsForm->normBoundField()->setValue(6.0);
  settingsForm->lambdaField()->setValue(0.01);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("multiparty")));
  form->epsilonField()->setValue(2.0);
  fields(window)->partyEditor()->setFractions({0.2, 0.3, 0.5});

  // The live calibration is core's for n_(1) of the training part's split.
  const auto& dataset = *window.document()->dataset();
  const auto split = dpstudio::stratifiedSplit(dataset.y, dataset.classes(), 0.25, 1);
  const auto n = static_cast<Index>(split.value().train.size());
  multiparty::MultipartyOptions options;
  options.lambda = 0.01;
  options.epsilon = 2.0;
  options.fractions = {0.2, 0.3, 0.5};
  const auto sizes = multiparty::partySizes(n, options).value();
  const Index smallest = *std::min_element(sizes.begin(), sizes.end());
  const auto want = multiparty::calibrateMultiparty(options, smallest, 2).value();
  QVERIFY(form->calibration().has_value());
  compareReports(*form->calibration(), want);

  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const auto result = window.training()->result();
  QVERIFY(result->release && result->multiparty);
  QCOMPARE(result->multiparty->partySizes, sizes);
  QCOMPARE(result->multiparty->bound, *want.value("theorem_4_2_bound"));
  QVERIFY(result->multiparty->distance > 0);
  // The released model's regions, the all-data model dashed over them.
  QVERIFY(window.scatterView()->seriesNames().contains(QStringLiteral("all-data non-private model (dashed)")));
  auto* panel = window.modelPanel();
  QVERIFY2(panel->distanceLabel()->text().contains(dpstudio::ui::formatDerivedValue(result->multiparty->bound)),
           qPrintable(panel->distanceLabel()->text()));
  QVERIFY(panel->distanceLabel()->text().contains(dpstudio::ui::formatDerivedValue(result->multiparty->distance)));
  QVERIFY(panel->distanceLabel()->text().contains(QLatin1String("NOT private")));
  QVERIFY(panel->partiesLabel()->text().contains(QStringLiteral("n\u208d\u2081\u208e = %1").arg(smallest)));
  // The all-data DP baseline was not asked for: not drawn, not shown.
  QVERIFY(!result->multiparty->allDataPrivate);
  QVERIFY(!panel->baselineLabel()->isVisibleTo(panel));
  QVERIFY(panel->noiseLabel()->text().contains(QStringLiteral("\u2016\u03b7\u2016 = ")));
  QVERIFY(panel->testAccuracyLabel()->text().contains(QLatin1String("all-data non-private")));

  // One release, one entry.
  QCOMPARE(window.ledger().size(), std::size_t{1});
  const auto entry = window.ledger().entries().front();
  QVERIFY2(QString::fromStdString(entry.mechanism).startsWith(QLatin1String("Multiparty")),
           entry.mechanism.c_str());
  QCOMPARE(entry.epsilon, 2.0);
  QVERIFY(QString::fromStdString(entry.note).contains(QLatin1String("K = 3 parties")));
  saveScreenshot(&window, QStringLiteral("multiparty-window"));
  saveScreenshot(window.modelPanel(), QStringLiteral("multiparty-panel"));

  // Redraw: a new noise draw, a new entry.
  pressAndWaitForModel(window, panel->redrawButton());
  QVERIFY(window.training()->result()->release->model.theta != result->release->model.theta);
  QCOMPARE(window.ledger().size(), std::size_t{2});

  // As published, the ledger records the ε that can be proven for the paper's noise.
  form->calibrationBox()->setCurrentIndex(form->calibrationBox()->findData(QStringLiteral("published")));
  pressAndWaitForModel(window, panel->trainButton());
  const auto& published = window.training()->result()->release->report;
  QCOMPARE(window.ledger().size(), std::size_t{3});
  QCOMPARE(window.ledger().entries().back().epsilon, *published.value("epsilon_provable"));
  QVERIFY(QString::fromStdString(window.ledger().entries().back().note).contains(QLatin1String("NOT differentially private")));
}

namespace {

// Multiparty on the two blobs, K = 2 even parties (one DGK comparison: ~10 s with 2048-bit
// keys), aggregated by `protocol`.
void chooseMultiparty(MainWindow& window, multiparty::AggregationProtocolKind protocol) {
  auto* settingsForm = window.modelPanel()->form();
  settingsForm->normBoundBox()->setChecked(true);
  settingsForm->normBoundField()->setValue(6.0);
  settingsForm->lambdaField()->setValue(0.01);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("multiparty")));
  form->epsilonField()->setValue(2.0);
  fields(window)->partyEditor()->setEven(2);
  QComboBox* box = fields(window)->protocolBox();
  QVERIFY(box->isVisibleTo(window.modelPanel()));
  box->setCurrentIndex(box->findData(static_cast<int>(protocol)));
  QCOMPARE(form->settings().multiparty->protocol, protocol);
}

}  // namespace

// Issue 16: the GUI releases through paper 004's Paillier protocol, and its transcript opens
// as a sequence diagram whose messages show what they reveal; the JSON exports as written.
void TestPredictionTraining::paillierProtocolShowsItsTranscript() {
  MainWindow window;
  window.show();
  openDataset(window, kTwoBlobs, 200);
  chooseMultiparty(window, multiparty::AggregationProtocolKind::TrustedCurator);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  auto* panel = window.modelPanel();
  QVERIFY(panel->protocolLabel()->text().contains(QLatin1String("trusted curator")));
  QVERIFY(!panel->transcriptButton()->isVisibleTo(panel));
  QVERIFY(!panel->showTranscript());

  chooseMultiparty(window, multiparty::AggregationProtocolKind::Paillier);
  QSignalSpy shown(&window, &MainWindow::modelShown);
  panel->trainButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 6 * kTimeoutMs);
  const auto result = window.training()->result();
  QVERIFY(result->release && result->multiparty);
  const std::string& json = result->multiparty->transcriptJson;
  QVERIFY(!json.empty());
  const auto record = dpstudio::test::orDie(multiparty::paillier::parseTranscriptJson(json, "test"));
  QVERIFY(record.released());
  QCOMPARE(record.parties, 2);
  QCOMPARE(record.keyBits, 2048u);
  QVERIFY(panel->protocolLabel()->text().contains(QLatin1String("Paillier protocol, 2048-bit keys")));
  QVERIFY(panel->transcriptButton()->isVisibleTo(panel));
  QCOMPARE(window.ledger().size(), std::size_t{2});  // the curator's run and this one

  auto* dialog = panel->showTranscript();
  QVERIFY(dialog);
  QVERIFY(QTest::qWaitForWindowExposed(dialog));
  auto* diagram = dialog->diagram();
  QCOMPARE(diagram->record().messages.size(), record.messages.size());
  QCOMPARE(dialog->stageTable()->rowCount(), static_cast<int>(record.stages.size()));
  QVERIFY(dialog->summaryLabel()->text().contains(QLatin1String("released")));
  // Click a message as a person would: its arrow, in the scrolled diagram.
  const int pick = static_cast<int>(record.messages.size()) / 2;
  const auto& picked = record.messages[static_cast<std::size_t>(pick)];
  QTest::mouseClick(diagram, Qt::LeftButton, {}, diagram->arrowCentre(pick));
  QCOMPARE(diagram->selected(), pick);
  const QString details = dialog->detailsLabel()->text();
  QVERIFY2(details.contains(QString::fromStdString(picked.kind).toHtmlEscaped()) &&
               details.contains(QString::fromStdString(picked.reveals).toHtmlEscaped()) &&
               details.contains(QStringLiteral("%1 bytes").arg(picked.bytes)),
           qPrintable(details));
  QTest::keyClick(diagram, Qt::Key_Down);
  QCOMPARE(diagram->selected(), pick + 1);
  QCOMPARE(diagram->messageAt(QPoint(1, 1)), -1);  // the lane names, not a message
  saveScreenshot(dialog, QStringLiteral("paillier-transcript"));

  // Export writes the JSON as the CLI's --transcript does; File ▸ Open Protocol Transcript reads it.
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("transcript.json"));
  QString error;
  QVERIFY2(dialog->exportTo(path, &error), qPrintable(error));
  QFile file(path);
  QVERIFY(file.open(QIODevice::ReadOnly));
  QCOMPARE(file.readAll().toStdString(), json);
  file.close();
  QString problem;
  auto* reopened = dpstudio::ui::TranscriptDialog::openFile(path, &window, &problem);
  QVERIFY2(reopened, qPrintable(problem));
  QCOMPARE(reopened->diagram()->record().messages.size(), record.messages.size());
  reopened->close();
  QFile broken(dir.filePath(QStringLiteral("broken.json")));
  QVERIFY(broken.open(QIODevice::WriteOnly));
  broken.write(QByteArray::fromStdString(json).replace("\"receiver\": \"Charlie\"", "\"receiver\": \"Mallory\""));
  broken.close();
  QVERIFY(!dpstudio::ui::TranscriptDialog::openFile(broken.fileName(), &window, &problem));
  QVERIFY2(problem.contains(QLatin1String("broken.json")) && problem.contains(QLatin1String("receiver")) &&
               problem.contains(QLatin1String("Mallory")),
           qPrintable(problem));
  dialog->close();
}

// Cancel during the protocol stops it between steps: the previous model stays, nothing is
// released or recorded.
void TestPredictionTraining::paillierProtocolCancels() {
  MainWindow window;
  window.show();
  openDataset(window, kTwoBlobs, 200);
  chooseMultiparty(window, multiparty::AggregationProtocolKind::TrustedCurator);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const auto previous = window.training()->result();
  chooseMultiparty(window, multiparty::AggregationProtocolKind::Paillier);
  QSignalSpy cancelled(window.trainer(), &TrainingController::trainingCancelled);
  window.modelPanel()->trainButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(window.jobStatus()->isVisible(), kTimeoutMs);
  QTest::qWait(1500);  // into the protocol: the local models take milliseconds
  QElapsedTimer clock;
  clock.start();
  window.jobStatus()->cancelButton()->click();
  // At most one protocol step (a DGK comparison, ~10 s at 2048 bits on one core) later.
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 3 * kTimeoutMs);
  qInfo("cancelled after %lld ms", static_cast<long long>(clock.elapsed()));
  QCOMPARE(window.training()->result(), previous);
  QCOMPARE(window.ledger().size(), std::size_t{1});
}

// Issue 13 bug 1: the all-data DP baseline is a second ε-DP release from the same rows. It is
// an experiment option, off by default; when asked for it is drawn, shown, and recorded in
// the ledger as its own entry (before, one entry recorded ε while 2ε were spent).
void TestPredictionTraining::multipartyBaselineIsItsOwnLedgerEntry() {
  MainWindow window;
  window.show();
  openDataset(window, kTwoBlobs, 200);
  auto* settingsForm = window.modelPanel()->form();
  settingsForm->normBoundBox()->setChecked(true);
  settingsForm->normBoundField()->setValue(6.0);
  settingsForm->lambdaField()->setValue(0.01);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("multiparty")));
  form->epsilonField()->setValue(1.5);
  QVERIFY(!fields(window)->baselineBox()->isChecked());  // off by default
  fields(window)->baselineBox()->setChecked(true);
  QVERIFY(settingsForm->settings().privacy.multiparty->allDataBaseline);

  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const auto result = window.training()->result();
  QVERIFY(result->multiparty && result->multiparty->allDataPrivate);
  auto* panel = window.modelPanel();
  QVERIFY(panel->baselineLabel()->isVisibleTo(panel));
  QVERIFY(panel->baselineLabel()->text().contains(QLatin1String("second release")));

  QCOMPARE(window.ledger().size(), std::size_t{2});
  const auto entries = window.ledger().entries();
  QVERIFY2(QString::fromStdString(entries[0].mechanism).startsWith(QLatin1String("Multiparty")),
           entries[0].mechanism.c_str());
  QVERIFY2(QString::fromStdString(entries[1].mechanism).startsWith(QLatin1String("Multiparty all-data DP baseline")),
           entries[1].mechanism.c_str());
  QCOMPARE(entries[0].epsilon, 1.5);
  QCOMPARE(entries[1].epsilon, 1.5);
  QCOMPARE(window.ledger().total().epsilon, 3.0);
}

QTEST_MAIN(TestPredictionTraining)
#include "test_prediction_training.moc"
