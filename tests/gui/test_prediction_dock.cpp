// The private-prediction mechanisms and multiparty aggregation in the Training dock's form,
// offscreen (docs/algorithms.md §3 F, G, I): each shows the parameters it uses; an invalid budget,
// number of teachers or party split disables Train with core's reason; the live calibration
// is core's (calibratePrediction, calibrateMultiparty with n_(1) of the training part's
// split); the choices persist. Training and answering: test_prediction_training.cpp.

#include <QMap>
#include <QStringList>
#include <QTest>
#include <QWidget>

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

// The shape a training of iris sees: the training part of the default split, d = 4, C = 3.
dpstudio::mech::ProblemShape irisShape(MainWindow& window) {
  const auto& dataset = *window.document()->dataset();
  const auto split = dpstudio::stratifiedSplit(dataset.y, dataset.classes(), 0.25, 1);
  return {static_cast<Index>(split.value().train.size()), 4, 3};
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
      << QStringList{"teachers", "parties", "baseline", "calibration", "delta", "tune"};
  QTest::newRow("subsample-and-aggregate: B, T, calibration and delta; any model")
      << "subsample" << int(ModelKind::Lmgc) << int(ModelKind::Lmgc)
      << QStringList{"epsilon", "delta", "budget", "teachers", "calibration"}
      << QStringList{"parties", "baseline", "distribution", "tune"};
  QTest::newRow("multiparty: parties and calibration; softmax becomes logistic")
      << "multiparty" << int(ModelKind::Softmax) << int(ModelKind::LogisticRegression)
      << QStringList{"epsilon", "parties", "baseline", "calibration", "seed"}
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
  useExperimentNoise(window);  // the seed row shows with experiment noise only
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
      {"parties", fields(window)->partyEditor()}, {"baseline", fields(window)->baselineBox()}};
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
    options.learner.lambda = dpstudio::defaultPrivateLambda(ModelKind::Softmax);  // the dock's, private
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
  // The calibration's own warning first, then core's (8 teachers, β·T ≈ 1.1: the votes are mostly noise).
  const QString warning = form->calibrationWarning()->text();
  QVERIFY2(warning.startsWith(QStringLiteral("\u26a0 ") + QString::fromStdString(want.warning)), qPrintable(warning));
  QVERIFY2(warning.contains(QLatin1String("mostly noise")), qPrintable(warning));
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
