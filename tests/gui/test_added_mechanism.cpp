// The GUI offers a mechanism added through core's catalogue alone (issue 31): the test-only
// mechanism of tests/common/halved_output_mechanism.h is in the Mechanism list with its
// note, calibrates live, trains from the dock into the ledger, and is offered by the
// Privacy–utility and Audit pages — no line of ui/ names it.

#include <QCheckBox>
#include <QTemporaryDir>
#include <QTest>

#include "core/experiment/mechanism_catalog.h"
#include "tests/common/halved_output_mechanism.h"
#include "tests/gui/gui_training_support.h"
#include "ui/privacy/audit_settings.h"
#include "ui/sweep/sweep_view.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_catalog.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;

class TestAddedMechanism : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir settings_;

 private slots:
  void initTestCase() {
    test::isolateSettings(settings_.path(), QStringLiteral("test_added_mechanism"));
    QVERIFY(test::addHalvedOutputMechanism());
  }

  void theDockOffersCalibratesAndTrainsIt() {
    ui::MainWindow window;
    test::showActiveOnIris(window);
    auto* settingsForm = window.modelPanel()->form();
    settingsForm->setModelKind(ModelKind::Softmax);
    ui::MechanismForm* form = test::mechanismForm(window);
    const QString key = QString::fromLatin1(test::HalvedOutputPerturbation::kKey);
    const int row = form->mechanismBox()->findData(key);
    QVERIFY(row >= 0);
    QVERIFY(form->mechanismBox()->itemText(row).contains(QStringLiteral("Halved output perturbation")));
    form->mechanismBox()->setCurrentIndex(row);
    QVERIFY(form->mechanism() == test::kHalvedOutput);
    QVERIFY(ui::mechanismNote(test::HalvedOutputPerturbation::kKey).contains(QStringLiteral("half the")));
    // The rows shown are those its entry's `uses` names: a noise family, none of DP-SGD's.
    QVERIFY(form->isRowShown(form->distributionBox()));
    QVERIFY(!form->isRowShown(form->batchField()));
    QVERIFY(!form->isRowShown(form->lambda2Field()));
    // The live calibration is the mechanism's own: output perturbation's β at ε/2.
    QTRY_VERIFY_WITH_TIMEOUT(form->calibrationView()->labelFor("beta") != nullptr, test::kTimeoutMs);
    test::useExperimentNoise(window);
    QVERIFY2(settingsForm->isValid(), qPrintable(settingsForm->problems().join('\n')));

    const std::size_t before = window.ledger().entries().size();
    test::pressAndWaitForModel(window, window.modelPanel()->trainButton());
    const auto result = window.training()->result();
    QVERIFY(result && result->release);
    QCOMPARE(result->release->report.mechanism, std::string(test::HalvedOutputPerturbation::kKey));
    QCOMPARE(std::optional(result->release->report.epsilon), form->epsilonField()->value());
    QCOMPARE(window.ledger().entries().size(), before + 1);

    // The other pages list it too.
    QVERIFY(window.sweepView()->findChild<QCheckBox*>(QStringLiteral("sweepMechanism_") + key));
    QVERIFY(ui::auditMechanisms().contains(key));
  }
};

QTEST_MAIN(TestAddedMechanism)
#include "test_added_mechanism.moc"
