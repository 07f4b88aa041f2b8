// A user's own data in the Training dock (issue 32): Private selection (Algorithms §3 K, the
// key "auto") — the public rule's mechanism at once, "among all mechanisms" computed in the
// background, one release in the ledger — and a declared Feature range, which is enough for a
// private model on a file with no documented bound.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the dock after a private selection and the window after
// training on a file of one's own.

#include <QCheckBox>
#include <QFile>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "tests/gui/gui_training_support.h"
#include "ui/main_window.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_controller.h"
#include "ui/widgets/number_field.h"
#include "ui/widgets/number_list_field.h"

using dpstudio::ModelKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::pressAndWaitForModel;
using dpstudio::test::saveScreenshot;
using dpstudio::test::useExperimentNoise;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;

namespace {

// The window with `spec` open (`rows` points), seeded noise, `model` and Private selection.
MechanismForm* chooseSelection(MainWindow& window, const QString& spec, int rows, ModelKind model) {
  window.show();
  openDataset(window, spec, rows);
  useExperimentNoise(window);
  auto* settingsForm = window.modelPanel()->form();
  settingsForm->setModelKind(model);
  MechanismForm* form = settingsForm->mechanismForm();
  if (!form->setChoice(MechanismForm::selectionChoice())) qFatal("no Private selection in the list");
  return form;
}

}  // namespace

class TestOwnDataDock : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_own_data_dock"));
  }
  void init() { QSettings().clear(); }

  // ε and δ, no noise list; the public rule's mechanism named in the calibration at once;
  // "among all mechanisms" computed in the background; Train releases one model, one ledger
  // entry with the whole ε.
  void privateSelectionChoosesAndIsOneRelease() {
    MainWindow window;
    MechanismForm* form = chooseSelection(window, QStringLiteral("builtin:iris"), 150, ModelKind::Softmax);
    QVERIFY(form->isSelection() && form->isPrivate());
    QVERIFY(form->isRowShown(form->epsilonField()) && form->isRowShown(form->deltaField()));
    QVERIFY(!form->isRowShown(form->distributionBox()) && !form->isRowShown(form->calibrationBox()));
    QVERIFY(form->isRowShown(form->selectAllBox()) && !form->isRowShown(form->tuneBox()));
    form->epsilonField()->setValue(4.0);
    form->deltaField()->setValue(1e-5);
    const auto settings = form->settings();
    QVERIFY(settings.selection && !settings.selection->tune);
    QTRY_VERIFY_WITH_TIMEOUT(form->calibration().has_value(), kTimeoutMs);
    QVERIFY2(form->calibration()->statement.find("public rule") != std::string::npos,
             form->calibration()->statement.c_str());
    QVERIFY(form->calibration()->statement.find("DP-SGD") != std::string::npos);  // softmax, δ > 0

    form->selectAllBox()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(form->calibration().has_value() &&
                                 form->calibration()->statement.find("private selection") != std::string::npos,
                             kTimeoutMs);
    QVERIFY(*form->calibration()->value("candidates") >= 6);
    QVERIFY(form->calibration()->epsilon <= 4.0);
    QVERIFY(window.modelPanel()->trainButton()->isEnabled());

    const std::size_t before = window.ledger().size();
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    const auto result = window.training()->result();
    QVERIFY(result->isPrivate() && result->release);
    QVERIFY(result->release->report.value("runs").has_value());
    QCOMPARE(window.ledger().size(), before + 1);
    const auto entry = window.ledger().entries().back();  // entries() is a copy
    QVERIFY2(QString::fromStdString(entry.mechanism).startsWith(QLatin1String("Private selection")),
             entry.mechanism.c_str());
    QVERIFY(entry.epsilon <= 4.0 && entry.epsilon > 3.9);
    saveScreenshot(window.modelPanel(), QStringLiteral("mechanism-auto-panel"));
  }

  // Batch, epochs and step empty: softmax's DP-SGD takes the schedule from the problem
  // (algorithms.md §3 E; T ≥ 50 steps at q ≤ 0.4), as the CLI does; any of them typed, or LMGC,
  // the fixed schedule.
  void dpSgdTakesTheScheduleFromTheProblem() {
    MainWindow window;
    window.show();
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    MechanismForm* form = dpstudio::test::mechanismForm(window);
    form->setMechanism(dpstudio::mech::MechanismKind::DpSgd);
    QVERIFY(form->batchField()->text().isEmpty() && form->batchField()->isValid());
    QVERIFY(form->epochsField()->text().isEmpty() && form->epochsField()->isValid());
    QVERIFY(form->settings().options.sgd.scheduleFromProblem);
    QTRY_VERIFY_WITH_TIMEOUT(form->calibration() && form->calibration()->value("steps"), kTimeoutMs);
    QVERIFY(*form->calibration()->value("steps") >= 50);
    QVERIFY(form->calibration()->calibrated(dpstudio::mech::Calibrated::SamplingRate) <= 0.4);
    QVERIFY(window.modelPanel()->trainButton()->isEnabled());
    form->epochsField()->setText(QStringLiteral("5"));
    QVERIFY(!form->settings().options.sgd.scheduleFromProblem);
    QCOMPARE(form->settings().options.sgd.epochs, 5.0);
    form->epochsField()->setText(QString());
    QVERIFY(form->settings().options.sgd.scheduleFromProblem);
    form->setLearner({ModelKind::Lmgc, 1e-2, 0.5});
    QVERIFY(!form->settings().options.sgd.scheduleFromProblem);
    QCOMPARE(form->settings().options.sgd.batchSize, dpstudio::mech::DpSgdSettings{}.batchSize);
  }

  // Issue 32 item 1 in the GUI: a file of the user's own has no documented bound; declaring
  // every feature's public range (0, 10 here) is enough for a private model — centred, the
  // norm bound derived — and Train then releases one.
  void declaredFeatureRangeMakesOwnDataTrainable() {
    const QString csv = dir_.filePath(QStringLiteral("own.csv"));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,c,label\n");
    for (int i = 0; i < 120; ++i)
      file.write(QStringLiteral("%1,%2,%3,%4\n")
                     .arg(i % 2 ? 8 - i % 3 : 1 + i % 3)
                     .arg(i % 11)
                     .arg(5)
                     .arg(i % 2 ? "p" : "q")
                     .toUtf8());
    file.close();
    MainWindow window;
    MechanismForm* form = chooseSelection(window, csv, 120, ModelKind::LogisticRegression);
    auto* settingsForm = window.modelPanel()->form();
    form->epsilonField()->setValue(5.0);
    QVERIFY(!settingsForm->normBoundBox()->isChecked());
    QVERIFY2(settingsForm->problems().join('\n').contains(QLatin1String("public range")),
             qPrintable(settingsForm->problems().join('\n')));
    settingsForm->featureRangeBox()->setChecked(true);
    settingsForm->featureRangeField()->setText(QStringLiteral("10, 0"));
    QVERIFY(!settingsForm->isValid());  // lo must be below hi: core's own check
    settingsForm->featureRangeField()->setText(QStringLiteral("0, 10"));
    QVERIFY2(settingsForm->isValid(), qPrintable(settingsForm->problems().join('\n')));
    const auto settings = settingsForm->settings();
    QCOMPARE(settings.data.preprocess.publicRanges.size(), std::size_t{1});
    QCOMPARE(settings.data.preprocess.publicRanges[0].hi, 10.0);
    const std::size_t before = window.ledger().size();
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    QVERIFY(window.training()->result()->release);
    QCOMPARE(window.ledger().size(), before + 1);
    saveScreenshot(&window, QStringLiteral("own-data-feature-range"));
    // Another dataset: the range was this one's.
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    QVERIFY(!settingsForm->featureRangeBox()->isChecked());
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(TestOwnDataDock)
#include "test_own_data_dock.moc"
