// The mechanism part of the Training dock across sessions: every choice comes back as it was
// left, and a first start (nothing saved) shows the non-private baseline, never a header of
// the grouped list.

#include <QTest>

#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QStandardItemModel>
#include <QTemporaryDir>

#include "tests/gui/gui_training_support.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_field.h"
#include "ui/widgets/number_list_field.h"

using dpstudio::ModelKind;
using dpstudio::mech::MechanismKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::mechanismForm;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;

class TestMechanismPersistence : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void choicesPersist();
  void freshWindowStartsOnTheBaseline();

 private:
  QTemporaryDir dir_;
};

void TestMechanismPersistence::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_mechanism_persistence"));
}

void TestMechanismPersistence::init() { QSettings().clear(); }

void TestMechanismPersistence::choicesPersist() {
  {
    MainWindow window;
    MechanismForm* form = mechanismForm(window);
    form->setMechanism(MechanismKind::DpLmgc);
    form->calibrationBox()->setCurrentIndex(form->calibrationBox()->findData(QStringLiteral("published")));
    form->epsilonField()->setText(QStringLiteral("3"));
    form->noiseSourceBox()->setCurrentIndex(form->noiseSourceBox()->findData(QStringLiteral("release")));
    form->seedBox()->setValue(7);
    form->tuneBox()->setChecked(true);
    form->tuneLambdasField()->setText(QStringLiteral("1e-3, 1e-2"));
    window.close();  // saves
  }
  MainWindow window;
  MechanismForm* form = mechanismForm(window);
  QCOMPARE(form->mechanism(), MechanismKind::DpLmgc);
  QCOMPARE(window.modelPanel()->form()->modelKind(), ModelKind::Lmgc);
  QCOMPARE(form->calibrationBox()->currentData().toString(), QStringLiteral("published"));
  QCOMPARE(form->epsilonField()->text(), QStringLiteral("3"));
  QCOMPARE(form->noiseSourceBox()->currentData().toString(), QStringLiteral("release"));
  QCOMPARE(form->seedBox()->value(), 7);
  const auto settings = form->settings();
  QCOMPARE(settings.tuneLambdas, (std::vector<double>{1e-3, 1e-2}));
  QCOMPARE(settings.noise, dpstudio::privacy::NoiseKind::Release);
}

void TestMechanismPersistence::freshWindowStartsOnTheBaseline() {
  // Regression: with no saved choice, restoring used to select the "Baselines" header.
  MainWindow window;
  QComboBox* box = mechanismForm(window)->mechanismBox();
  QCOMPARE(mechanismForm(window)->mechanism(), MechanismKind::None);
  QVERIFY(qobject_cast<QStandardItemModel*>(box->model())->item(box->currentIndex())->isSelectable());
  QVERIFY2(box->currentText().contains(QLatin1String("None")), qPrintable(box->currentText()));
}

QTEST_MAIN(TestMechanismPersistence)
#include "test_mechanism_persistence.moc"
