// DP-SGD in the Training dock, offscreen: its calibration follows ε after a pause in typing,
// and its step is chosen from the model while the field is empty, or taken as typed.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the dock with DP-SGD's calibration as a PNG in DIR.

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "core/mechanisms/mechanism.h"
#include "tests/gui/gui_training_support.h"
#include "ui/main_window.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_field.h"

using dpstudio::ModelKind;
using dpstudio::mech::MechanismKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::mechanismForm;
using dpstudio::test::openDataset;
using dpstudio::test::saveScreenshot;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;

namespace {
const QString kIris = QStringLiteral("builtin:iris");
}  // namespace

class TestDpSgdDock : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_dpsgd_dock"));
  }
  void init() { QSettings().clear(); }
  void calibrationIsDebounced();

 private:
  QTemporaryDir dir_;
};

void TestDpSgdDock::calibrationIsDebounced() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  MechanismForm* form = mechanismForm(window);
  form->setMechanism(MechanismKind::DpSgd);
  form->batchField()->setText(QStringLiteral("16"));
  QTRY_VERIFY_WITH_TIMEOUT(form->calibration().has_value() && form->calibration()->value("sigma"), kTimeoutMs);
  const double sigma1 = *form->calibration()->value("sigma");
  form->epsilonField()->setText(QStringLiteral("0.5"));
  // σ for the smaller ε arrives after the pause in typing.
  QTRY_VERIFY_WITH_TIMEOUT(form->calibration() && *form->calibration()->value("sigma") > sigma1, kTimeoutMs);
  QVERIFY(form->calibrationView()->text().contains(QStringLiteral("\u03c3 = ")));
  saveScreenshot(window.modelPanel(), QStringLiteral("mechanism-dpsgd-panel"));
  // Issue 32 item 3: the step is chosen from the model while the field is empty (valid, so
  // Train stays enabled), and the calibration shows the step used; a typed step is taken.
  dpstudio::ui::NumberField* eta = form->learningRateField();
  QVERIFY(eta->text().isEmpty() && eta->isValid());
  QVERIFY(!form->settings().options.sgd.learningRate);
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(form->calibration() && form->calibration()->value("learning_rate"), kTimeoutMs);
  const double fromModel = *form->calibration()->value("learning_rate");  // 1/(1/2 + λ), λ small
  QVERIFY2(fromModel > 1.8 && fromModel < 2.0, qPrintable(QString::number(fromModel)));
  QTest::keyClicks(eta, QStringLiteral("1.5"));
  QCOMPARE(*form->settings().options.sgd.learningRate, 1.5);
  QTRY_VERIFY_WITH_TIMEOUT(form->calibration() && *form->calibration()->value("learning_rate") == 1.5, kTimeoutMs);
}

QTEST_MAIN(TestDpSgdDock)
#include "test_dpsgd_dock.moc"
