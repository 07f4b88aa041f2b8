// The Training dock, offscreen: fields validated as typed by core's rules (an invalid value
// disables Train and says why, in place and next to the button), the norm bound prefilled
// only from a documented public bound, Cancel in the status bar leaving the previous model
// shown, and a new dataset dropping the model.

#include <QColor>
#include <QImage>
#include <QPalette>
#include <QTest>

#include <QCheckBox>
#include <QChart>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>

#include "tests/gui/gui_training_support.h"
#include "ui/jobs/job_status_widget.h"
#include "ui/main_window.h"
#include "ui/plot/scatter_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_controller.h"
#include "ui/training/training_document.h"
#include "ui/widgets/number_field.h"

using dpstudio::ModelKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::mechanismForm;
using dpstudio::test::useExperimentNoise;
namespace mech = dpstudio::mech;
namespace ui = dpstudio::ui;
using dpstudio::test::openDataset;
using dpstudio::test::trainFromDock;
using dpstudio::ui::MainWindow;
using dpstudio::ui::SeriesRole;
using dpstudio::ui::TrainingController;

class TestModelDock : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void invalidFieldDisablesTrainWithReason_data();
  void invalidFieldDisablesTrainWithReason();
  void huberRowOnlyForModelsWithAHuberLoss();
  void normBoundIsPrefilledOnlyFromAPublicBound();
  void unusedEmptyNormBoundIsNotMarked();
  void resultAndPrivacyStatusAreShown();
  void dpSgdShowsItsNoiseFreeRun();
  void cancelKeepsThePreviousModel();
  void openingAnotherDatasetDropsTheModel();

 private:
  QTemporaryDir dir_;
};

void TestModelDock::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_model_dock"));
}

void TestModelDock::init() { QSettings().clear(); }

void TestModelDock::invalidFieldDisablesTrainWithReason_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("reason");
  const QString lambdaRule = QStringLiteral("lambda must be finite and > 0");
  QTest::newRow("negative lambda") << "lambda" << "-1" << lambdaRule;
  QTest::newRow("zero lambda") << "lambda" << "0" << lambdaRule;
  QTest::newRow("infinite lambda") << "lambda" << "inf" << lambdaRule;
  QTest::newRow("lambda not a number") << "lambda" << "1e-4x" << QStringLiteral("is not a number");
  QTest::newRow("empty lambda") << "lambda" << "" << QStringLiteral("Enter a number");
  QTest::newRow("test fraction of one") << "testFraction" << "1" << QStringLiteral("test fraction must be in [0, 1)");
  QTest::newRow("zero tolerance") << "tolerance" << "0" << QStringLiteral("tolerance must be finite and > 0");
}

void TestModelDock::invalidFieldDisablesTrainWithReason() {
  QFETCH(QString, field);
  QFETCH(QString, text);
  QFETCH(QString, reason);
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  auto* form = window.modelPanel()->form();
  auto* edit = field == QLatin1String("lambda")       ? form->lambdaField()
               : field == QLatin1String("tolerance") ? form->toleranceField()
                                                     : form->testFractionField();
  QPushButton* trainButton = window.modelPanel()->trainButton();
  QVERIFY(trainButton->isEnabled());
  const QString good = edit->text();

  edit->selectAll();
  QTest::keyClicks(edit, text);  // typed, as a user would
  if (text.isEmpty()) edit->clear();
  QVERIFY(!trainButton->isEnabled());
  QVERIFY2(edit->problem().contains(reason), qPrintable(edit->problem()));
  QVERIFY2(edit->toolTip().contains(reason), qPrintable(edit->toolTip()));  // marked in place
  QVERIFY(window.modelPanel()->problemLabel()->isVisibleTo(window.modelPanel()));
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(reason));
  QVERIFY(trainButton->toolTip().contains(reason));

  edit->setText(good);
  QVERIFY(trainButton->isEnabled());
  QVERIFY(!window.modelPanel()->problemLabel()->isVisibleTo(window.modelPanel()));
}

void TestModelDock::huberRowOnlyForModelsWithAHuberLoss() {
  MainWindow window;
  window.show();
  auto* form = window.modelPanel()->form();
  const auto shown = [&] { return form->huberField()->isVisibleTo(window.modelPanel()); };
  form->setModelKind(ModelKind::Softmax);
  QVERIFY(!shown());
  form->setModelKind(ModelKind::LogisticRegression);
  QVERIFY(!shown());
  form->setModelKind(ModelKind::HuberSvm);
  QVERIFY(shown());
  form->setModelKind(ModelKind::Lmgc);
  QVERIFY(shown());
  // A bad h matters only where h is used.
  form->huberField()->setText(QStringLiteral("-2"));
  QVERIFY(!form->isValid());
  form->setModelKind(ModelKind::Softmax);
  QVERIFY(form->isValid());
}

void TestModelDock::normBoundIsPrefilledOnlyFromAPublicBound() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:digits"), 1797);
  auto* form = window.modelPanel()->form();
  QVERIFY(form->normBoundBox()->isChecked());
  QCOMPARE(form->normBoundField()->value(), std::optional<double>(128.0));  // 16·√64
  QCOMPARE(*form->settings().data.preprocess.normBound, 128.0);

  openDataset(window, QStringLiteral("builtin:moons"), 300);
  QVERIFY(!form->normBoundBox()->isChecked());  // no public bound: never read off the data
  QVERIFY(form->normBoundField()->text().isEmpty());
  QVERIFY(!form->settings().data.preprocess.normBound);
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());
  form->normBoundBox()->setChecked(true);  // on, but nothing entered yet
  QVERIFY(!window.modelPanel()->trainButton()->isEnabled());
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(QLatin1String("Norm bound R")));
  form->normBoundField()->setText(QStringLiteral("6"));
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());
  QCOMPARE(*form->settings().data.preprocess.normBound, 6.0);
}

// Regression: R's field, empty and disabled for a dataset without a public bound, used to
// stay pink (the marked palette outlived its cleared style sheet).
void TestModelDock::unusedEmptyNormBoundIsNotMarked() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:moons"), 300);
  auto* field = window.modelPanel()->form()->normBoundField();
  QVERIFY(!field->isEnabled());
  QVERIFY(!field->isValid());  // empty: "Enter a number", but not in use
  const QColor marked(0xff, 0xf3, 0xf3);
  const auto centre = [field] {
    const QImage image = field->grab().toImage();
    return QColor(image.pixel(image.width() / 2, image.height() / 2));
  };
  QVERIFY(field->palette().color(QPalette::Base) != marked);
  QVERIFY(centre() != marked);
  // In use and empty it is marked; with a value it is not.
  window.modelPanel()->form()->normBoundBox()->setChecked(true);
  QCOMPARE(centre(), marked);
  field->setText(QStringLiteral("6"));
  QVERIFY(field->palette().color(QPalette::Base) != marked);
  QVERIFY(centre() != marked);
}

void TestModelDock::resultAndPrivacyStatusAreShown() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  QVERIFY(!window.modelPanel()->privacyLabel()->isVisibleTo(window.modelPanel()));
  trainFromDock(window, ModelKind::Softmax);
  const auto& result = *window.training()->result();
  QVERIFY(result.testAccuracy.has_value());
  QVERIFY(result.trainAccuracy > 0.8);
  QVERIFY(result.model.summary.iterations > 0);
  QVERIFY(window.modelPanel()->privacyLabel()->isVisibleTo(window.modelPanel()));
  QVERIFY(window.modelPanel()->privacyLabel()->text().contains(QLatin1String("Not private: no mechanism")));
  QVERIFY(window.scatterView()->chart()->title().contains(QLatin1String("not private: no mechanism")));
}

// Issue 32 item 3: a DP-SGD result shows the same settings' accuracy without noise, which
// tells underfitting apart from the price of privacy; no other mechanism's result has it.
void TestModelDock::dpSgdShowsItsNoiseFreeRun() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  ui::MechanismForm* form = mechanismForm(window);
  form->setMechanism(mech::MechanismKind::DpSgd);
  form->epsilonField()->setValue(2.0);
  form->deltaField()->setValue(1e-5);
  useExperimentNoise(window);
  trainFromDock(window, ModelKind::Softmax);
  const auto& result = *window.training()->result();
  QVERIFY(result.release && result.noiseFreeSgdAccuracy);
  QVERIFY(*result.noiseFreeSgdAccuracy > 0.5);  // iris without noise: far above the most common class
  const QString shown = window.modelPanel()->testAccuracyLabel()->text();
  QVERIFY2(shown.contains(QStringLiteral("DP-SGD without noise")), qPrintable(shown));
  form->setMechanism(mech::MechanismKind::Output);
  trainFromDock(window, ModelKind::Softmax);
  QVERIFY(window.training()->result()->release && !window.training()->result()->noiseFreeSgdAccuracy);
  QVERIFY(!window.modelPanel()->testAccuracyLabel()->text().contains(QStringLiteral("without noise")));
}

void TestModelDock::cancelKeepsThePreviousModel() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::LogisticRegression);
  const auto previous = window.training()->result();

  // LMGC to a tolerance it never reaches runs for minutes: Cancel has something to stop.
  auto* form = window.modelPanel()->form();
  form->setModelKind(ModelKind::Lmgc);
  form->toleranceField()->setText(QStringLiteral("1e-15"));
  form->maxIterationsBox()->setValue(10'000'000);
  QSignalSpy cancelled(window.trainer(), &TrainingController::trainingCancelled);
  QSignalSpy failed(window.trainer(), &TrainingController::trainingFailed);
  window.modelPanel()->trainButton()->click();
  QVERIFY(window.trainer()->isTraining());
  QVERIFY(!window.modelPanel()->trainButton()->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(window.jobStatus()->isVisible(), kTimeoutMs);
  window.jobStatus()->cancelButton()->click();  // the status bar's Cancel
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);
  QCOMPARE(failed.count(), 0);

  QCOMPARE(window.training()->result(), previous);
  QCOMPARE(window.scatterView()->seriesCount(SeriesRole::Curve), 0);
  QVERIFY(!window.scatterView()->underlay().isNull());
  QVERIFY(window.scatterView()->chart()->title().contains(QLatin1String("Logistic regression")));
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());
  QCOMPARE(window.modelPanel()->trainButton()->text(), QStringLiteral("Train"));
}

void TestModelDock::openingAnotherDatasetDropsTheModel() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::Softmax);
  openDataset(window, QStringLiteral("builtin:blobs:classes=3"), 300);
  QVERIFY(!window.training()->hasModel());
  QVERIFY(window.scatterView()->underlay().isNull());
  QCOMPARE(window.scatterView()->seriesCount(), 3);  // the plain scatter again
}

QTEST_MAIN(TestModelDock)
#include "test_model_dock.moc"
