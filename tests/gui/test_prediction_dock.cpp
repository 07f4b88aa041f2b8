// The private-prediction mechanisms and multiparty aggregation in the Model dock, offscreen
// (ALGORITHMS §3 F, G, I): each shows the parameters it uses; an invalid budget, number of
// teachers or party split disables Train with core's reason; the live calibration is core's
// (calibratePrediction, calibrateMultiparty with n_(1) of the training part's split); a
// trained predictor's regions are labelled non-private, its answers spend the budget point
// by point (the answers are the ones core gives for the same seed), answer B + 1 is refused
// with core's message, and the ledger gets one entry at the first answer; Redraw noise is a
// new repetition; subsample-and-aggregate trains T teachers and answers; Cancel during the
// teachers keeps the previous model; multiparty aggregation with a 3-party split shows its
// bound and distance and is recorded once; the choices persist.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the window and the Model panel after answering and
// after a multiparty training as PNGs in DIR, for looking at.

#include <QtTest>

#include <QAction>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QToolButton>

#include "core/data/split.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"
#include "tests/gui/gui_training_support.h"
#include "ui/calibration_view.h"
#include "ui/dataset_document.h"
#include "ui/job_status_widget.h"
#include "ui/ledger_model.h"
#include "ui/mechanism_form.h"
#include "ui/number_field.h"
#include "ui/party_split_editor.h"
#include "ui/prediction_answers.h"
#include "ui/prediction_answers_box.h"
#include "ui/prediction_fields.h"
#include "ui/training_controller.h"

using dpstudio::Index;
using dpstudio::ModelKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::mechanismForm;
using dpstudio::test::pressAndWaitForModel;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;
using dpstudio::ui::SeriesRole;
using dpstudio::ui::TrainingController;
namespace predict = dpstudio::predict;
namespace multiparty = dpstudio::multiparty;

namespace {

const QString kIris = QStringLiteral("builtin:iris");  // public bound R = 20 prefilled
const QString kTwoBlobs = QStringLiteral("builtin:blobs:classes=2");  // 200 rows, 2-D, binary

dpstudio::ui::PredictionFields* fields(MainWindow& window) { return mechanismForm(window)->predictionFields(); }
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

// The shape a training of iris sees: the training part of the default split, d = 4, C = 3.
dpstudio::mech::ProblemShape irisShape(MainWindow& window) {
  const auto& dataset = *window.document()->dataset();
  const auto split = dpstudio::stratifiedSplit(dataset.y, dataset.classes(), 0.25, 1);
  return {static_cast<Index>(split.value().train.size()), 4, 3};
}

void compareReports(const dpstudio::mech::MechanismReport& shown, const dpstudio::mech::MechanismReport& want) {
  QCOMPARE(shown.derived.size(), want.derived.size());
  for (const auto& d : want.derived) {
    QVERIFY2(shown.value(d.key), d.key.c_str());
    QCOMPARE(*shown.value(d.key), d.value);
  }
}

}  // namespace

class TestPredictionDock : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void eachChoiceShowsItsParameters_data();
  void eachChoiceShowsItsParameters();
  void multipartyRefusesWhatCoreRefuses();
  void invalidValueDisablesTrainWithReason_data();
  void invalidValueDisablesTrainWithReason();
  void partySplitIsValidatedAsTyped();
  void calibrationIsCores();
  void predictionSensitivitySpendsTheBudget();
  void redrawStartsANewRepetition();
  void subsampleTrainsTeachersAndAnswers();
  void cancelDuringTeachersKeepsThePreviousModel();
  void multipartyShowsTheBoundAndIsRecorded();
  void choicesPersist();

 private:
  QTemporaryDir dir_;
};

void TestPredictionDock::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_prediction_dock"));
}

void TestPredictionDock::init() { QSettings().clear(); }

void TestPredictionDock::eachChoiceShowsItsParameters_data() {
  QTest::addColumn<QString>("choice");
  QTest::addColumn<int>("model");          // chosen first; the mechanism may change it
  QTest::addColumn<int>("expectedModel");  // what the form holds afterwards
  QTest::addColumn<QStringList>("shown");
  QTest::addColumn<QStringList>("hidden");
  QTest::newRow("prediction sensitivity: B and a noise family; LMGC becomes logistic")
      << "prediction" << int(ModelKind::Lmgc) << int(ModelKind::LogisticRegression)
      << QStringList{"epsilon", "budget", "distribution", "seed"}
      << QStringList{"teachers", "parties", "calibration", "delta", "tune"};
  QTest::newRow("subsample-and-aggregate: B, T, calibration and delta; any model")
      << "subsample" << int(ModelKind::Lmgc) << int(ModelKind::Lmgc)
      << QStringList{"epsilon", "delta", "budget", "teachers", "calibration"}
      << QStringList{"parties", "distribution", "tune"};
  QTest::newRow("multiparty: parties and calibration; softmax becomes logistic")
      << "multiparty" << int(ModelKind::Softmax) << int(ModelKind::LogisticRegression)
      << QStringList{"epsilon", "parties", "calibration", "seed"}
      << QStringList{"budget", "teachers", "delta", "distribution", "tune"};
}

void TestPredictionDock::eachChoiceShowsItsParameters() {
  QFETCH(QString, choice);
  QFETCH(int, model);
  QFETCH(int, expectedModel);
  QFETCH(QStringList, shown);
  QFETCH(QStringList, hidden);
  MainWindow window;
  window.show();
  auto* settingsForm = window.modelPanel()->form();
  MechanismForm* form = settingsForm->mechanismForm();
  settingsForm->setModelKind(static_cast<ModelKind>(model));
  QVERIFY(form->setChoice(choice));
  QCOMPARE(form->choice(), choice);
  QVERIFY(form->isPrivate());
  QCOMPARE(int(settingsForm->modelKind()), expectedModel);
  const QMap<QString, QWidget*> rows = {
      {"epsilon", form->epsilonField()},      {"delta", form->deltaField()},
      {"distribution", form->distributionBox()}, {"calibration", form->calibrationBox()},
      {"seed", form->seedBox()},              {"tune", form->tuneBox()},
      {"budget", fields(window)->budgetField()}, {"teachers", fields(window)->teachersField()},
      {"parties", fields(window)->partyEditor()}};
  for (const QString& name : shown) {
    QVERIFY2(form->isRowShown(rows[name]), qPrintable(name + " is hidden"));
    QVERIFY2(rows[name]->isVisibleTo(window.modelPanel()), qPrintable(name + " is not visible"));
  }
  for (const QString& name : hidden) QVERIFY2(!form->isRowShown(rows[name]), qPrintable(name + " is shown"));
  // F with Gaussian noise: δ and the calibration (the two differ there) appear.
  if (choice == QLatin1String("prediction")) {
    form->distributionBox()->setCurrentIndex(form->distributionBox()->findData(QStringLiteral("gaussian")));
    QVERIFY(form->isRowShown(form->deltaField()));
    QVERIFY(form->isRowShown(form->calibrationBox()));
  }
  // The settings carry the mechanism's options, with the form's learner.
  const auto settings = settingsForm->settings();
  QCOMPARE(settings.privacy.prediction.has_value(), choice != QLatin1String("multiparty"));
  QCOMPARE(settings.privacy.multiparty.has_value(), choice == QLatin1String("multiparty"));
  QCOMPARE(settings.privacy.options.kind, dpstudio::mech::MechanismKind::None);
}

void TestPredictionDock::multipartyRefusesWhatCoreRefuses() {
  MainWindow window;
  window.show();
  auto* settingsForm = window.modelPanel()->form();
  MechanismForm* form = settingsForm->mechanismForm();
  QVERIFY(form->setChoice(QStringLiteral("multiparty")));
  // Only the binary models of paper 004: the others are disabled with core's reason.
  auto* items = qobject_cast<QStandardItemModel*>(settingsForm->modelBox()->model());
  for (int i = 0; i < settingsForm->modelBox()->count(); ++i) {
    const auto kind = static_cast<ModelKind>(settingsForm->modelBox()->itemData(i).toInt());
    const bool binary = kind == ModelKind::LogisticRegression || kind == ModelKind::HuberSvm;
    QCOMPARE(items->item(i)->isEnabled(), binary);
    if (!binary)
      QVERIFY2(items->item(i)->toolTip().contains(QLatin1String("multiparty aggregation trains binary logistic")),
               qPrintable(items->item(i)->toolTip()));
  }
  // Iris has three classes: Train is disabled, and the reason shown.
  openDataset(window, kIris, 150);
  QVERIFY(!window.modelPanel()->trainButton()->isEnabled());
  QVERIFY2(window.modelPanel()->problemLabel()->text().contains(QLatin1String("binary classifier")),
           qPrintable(window.modelPanel()->problemLabel()->text()));
  QVERIFY(!form->calibration().has_value());
}

void TestPredictionDock::invalidValueDisablesTrainWithReason_data() {
  QTest::addColumn<QString>("choice");
  QTest::addColumn<QString>("field");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("reason");
  QTest::newRow("zero budget") << "prediction" << "budget" << "0" << "the budget B must be a whole number >= 1";
  QTest::newRow("fractional budget") << "subsample" << "budget" << "2.5" << "must be a whole number";
  QTest::newRow("zero teachers") << "subsample" << "teachers" << "0" << "teachers T must be a whole number >= 1";
  QTest::newRow("more teachers than rows")
      << "subsample" << "teachers" << "1000" << "with T = 1000 teachers needs at least 1000 training rows";
  QTest::newRow("gaussian without delta") << "prediction" << "delta" << "0" << "Gaussian noise needs delta > 0";
}

void TestPredictionDock::invalidValueDisablesTrainWithReason() {
  QFETCH(QString, choice);
  QFETCH(QString, field);
  QFETCH(QString, text);
  QFETCH(QString, reason);
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(choice));
  if (field == QLatin1String("delta"))
    form->distributionBox()->setCurrentIndex(form->distributionBox()->findData(QStringLiteral("gaussian")));
  QPushButton* train = window.modelPanel()->trainButton();
  QVERIFY2(train->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
  QVERIFY(form->calibration().has_value());
  dpstudio::ui::NumberField* edit = field == QLatin1String("budget")     ? fields(window)->budgetField()
                                    : field == QLatin1String("teachers") ? fields(window)->teachersField()
                                                                         : form->deltaField();
  const QString good = edit->text();
  edit->selectAll();
  QTest::keyClicks(edit, text);  // typed, as a user would
  QVERIFY(!train->isEnabled());
  QVERIFY2(edit->problem().contains(reason), qPrintable(edit->problem()));
  QVERIFY(edit->toolTip().contains(reason));  // marked in place
  QVERIFY2(window.modelPanel()->problemLabel()->text().contains(reason),
           qPrintable(window.modelPanel()->problemLabel()->text()));
  QVERIFY(train->toolTip().contains(reason));
  QVERIFY(!form->calibration().has_value());

  edit->setText(good);
  QVERIFY(train->isEnabled());
  QVERIFY(form->calibration().has_value());
}

void TestPredictionDock::partySplitIsValidatedAsTyped() {
  MainWindow window;
  window.show();
  openDataset(window, kTwoBlobs, 200);
  window.modelPanel()->form()->normBoundBox()->setChecked(true);
  window.modelPanel()->form()->normBoundField()->setValue(6.0);
  MechanismForm* form = mechanismForm(window);
  QVERIFY(form->setChoice(QStringLiteral("multiparty")));
  QPushButton* train = window.modelPanel()->trainButton();
  auto* editor = fields(window)->partyEditor();
  QVERIFY2(train->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));

  // Paper 004's preset: five fractions, summing to 1.
  editor->presets().at(1)->trigger();
  QVERIFY(!editor->isEven());
  QCOMPARE(editor->parties(), 5);
  QCOMPARE(editor->fractions(0), (std::vector<double>{0.15, 0.2, 0.2, 0.2, 0.25}));
  QVERIFY(train->isEnabled());
  QVERIFY2(editor->summaryLabel()->text().contains(QStringLiteral("n\u208d\u2081\u208e = ")),
           qPrintable(editor->summaryLabel()->text()));

  // A negative fraction is marked in its own field with core's words.
  dpstudio::ui::NumberField* second = editor->fractionField(1);
  second->selectAll();
  QTest::keyClicks(second, QStringLiteral("-0.2"));
  QVERIFY(!train->isEnabled());
  const QString negative = QStringLiteral("party-split fractions must be finite and > 0, found -0.2 (party 2)");
  QVERIFY2(second->problem() == negative, qPrintable(second->problem()));
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(negative));
  QVERIFY(editor->fractionField(0)->isValid());

  // A sum other than 1 is the split's problem, said under it.
  second->setText(QStringLiteral("0.15"));
  QVERIFY(!train->isEnabled());
  const QString sum = QStringLiteral("party-split fractions must sum to 1, found 0.95");
  QVERIFY2(editor->summaryLabel()->text().contains(sum), qPrintable(editor->summaryLabel()->text()));
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(sum));

  // Removing a party and fixing the sum: valid again.
  editor->removeButton(4)->click();
  QCOMPARE(editor->parties(), 4);
  editor->fractionField(3)->setText(QStringLiteral("0.5"));
  QVERIFY2(train->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
  QCOMPARE(form->settings().multiparty->fractions, (std::vector<double>{0.15, 0.15, 0.2, 0.5}));

  // More even parties than training rows: a party would hold none (partySizes).
  editor->setEven(1000);
  QVERIFY(!train->isEnabled());
  QVERIFY2(editor->summaryLabel()->text().contains(QLatin1String("would hold no rows")),
           qPrintable(editor->summaryLabel()->text()));
  editor->partiesBox()->setValue(3);
  QVERIFY(train->isEnabled());
  QVERIFY(form->settings().multiparty->fractions.empty());
  QCOMPARE(form->settings().multiparty->parties, Index{3});
}

void TestPredictionDock::calibrationIsCores() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  MechanismForm* form = mechanismForm(window);
  const auto shape = irisShape(window);

  // F, for two budgets: β = nλε/(2KB).
  QVERIFY(form->setChoice(QStringLiteral("prediction")));
  for (double budget : {100.0, 7.0}) {
    fields(window)->budgetField()->setValue(budget);
    predict::PredictionOptions options;
    options.learner.kind = ModelKind::Softmax;
    options.budget = static_cast<long long>(budget);
    const auto want = predict::calibratePrediction(options, shape).value();
    QVERIFY(form->calibration().has_value());
    compareReports(*form->calibration(), want);
    QCOMPARE(form->calibrationView()->labelFor("beta")->text(),
             QStringLiteral("\u03b2 = %1").arg(dpstudio::ui::formatDerivedValue(*want.value("beta"))));
  }

  // G, as published, with δ = 0: β = ε/B and the ε that really holds, with its warning.
  QVERIFY(form->setChoice(QStringLiteral("subsample")));
  form->deltaField()->setValue(0.0);
  form->calibrationBox()->setCurrentIndex(form->calibrationBox()->findData(QStringLiteral("published")));
  fields(window)->teachersField()->setValue(8);
  predict::PredictionOptions options;
  options.kind = predict::PredictionKind::Subsample;
  options.learner.kind = ModelKind::Softmax;
  options.budget = 7;
  options.teachers = 8;
  options.calibration = dpstudio::mech::Calibration::Published;
  const auto want = predict::calibratePrediction(options, shape).value();
  compareReports(*form->calibration(), want);
  QVERIFY(form->calibrationWarning()->isVisibleTo(window.modelPanel()));
  QCOMPARE(form->calibrationWarning()->text(), QStringLiteral("\u26a0 ") + QString::fromStdString(want.warning));
}

void TestPredictionDock::predictionSensitivitySpendsTheBudget() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
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
  QVERIFY2(QString::fromStdString(entry.mechanism).startsWith(QLatin1String("prediction sensitivity")),
           entry.mechanism.c_str());
  QCOMPARE(entry.epsilon, 5.0);
  QCOMPARE(dpstudio::ui::ledgerBudgetText(entry), QStringLiteral("5 of 5 answers, 0 left"));
  saveScreenshot(&window, QStringLiteral("prediction-sensitivity-window"));
  saveScreenshot(window.modelPanel(), QStringLiteral("prediction-sensitivity-panel"));
}

void TestPredictionDock::redrawStartsANewRepetition() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
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

void TestPredictionDock::subsampleTrainsTeachersAndAnswers() {
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
      QLatin1String("subsample-and-aggregate")));
  QCOMPARE(window.ledger().entries().front().delta, 0.0);
  QVERIFY(answersBox(window)->accuracyLabel()->text().contains(QLatin1String("teachers' plurality vote")));
}

void TestPredictionDock::cancelDuringTeachersKeepsThePreviousModel() {
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

void TestPredictionDock::multipartyShowsTheBoundAndIsRecorded() {
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
  QVERIFY(panel->baselineLabel()->text().contains(QLatin1String("test ")));
  QVERIFY(panel->noiseLabel()->text().contains(QStringLiteral("\u2016\u03b7\u2016 = ")));
  QVERIFY(panel->testAccuracyLabel()->text().contains(QLatin1String("all-data non-private")));

  // One release, one entry.
  QCOMPARE(window.ledger().size(), std::size_t{1});
  const auto entry = window.ledger().entries().front();
  QVERIFY2(QString::fromStdString(entry.mechanism).startsWith(QLatin1String("Multiparty aggregation")),
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

void TestPredictionDock::choicesPersist() {
  {
    MainWindow window;
    MechanismForm* form = mechanismForm(window);
    QVERIFY(form->setChoice(QStringLiteral("subsample")));
    fields(window)->budgetField()->setText(QStringLiteral("42"));
    fields(window)->teachersField()->setText(QStringLiteral("7"));
    fields(window)->partyEditor()->setFractions({0.1, 0.2, 0.2, 0.2, 0.3});
    window.close();  // saves
  }
  MainWindow window;
  MechanismForm* form = mechanismForm(window);
  QCOMPARE(form->choice(), QStringLiteral("subsample"));
  QCOMPARE(fields(window)->budgetField()->text(), QStringLiteral("42"));
  QCOMPARE(fields(window)->teachersField()->text(), QStringLiteral("7"));
  QCOMPARE(fields(window)->partyEditor()->fractions(0), (std::vector<double>{0.1, 0.2, 0.2, 0.2, 0.3}));
  const auto settings = form->settings();
  QCOMPARE(settings.prediction->budget, 42LL);
  QCOMPARE(settings.prediction->teachers, Index{7});
}

QTEST_MAIN(TestPredictionDock)
#include "test_prediction_dock.moc"
