// The "What ε means" page (issue 35): it follows the Training dock's calibration live — the
// sentence, the forbidden region's corners and the posterior curve are core's numbers for the
// ε and δ the release would claim — says that a non-private model bounds nothing, and draws
// the last audit's tests when it audited the same claim.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the page.

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

#include "core/privacy/tradeoff.h"
#include "tests/gui/gui_training_support.h"
#include "ui/privacy/audit_form.h"
#include "ui/privacy/audit_view.h"
#include "ui/privacy/meaning_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MeaningView;

class TestMeaningView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    isolateSettings(dir_.path(), QStringLiteral("test_meaning_view"));
  }
  void init() { QSettings().clear(); }

  void followsTheCalibrationAndTheAudit() {
    MainWindow window;
    window.resize(1366, 768);
    showActiveOnIris(window);
    auto* page = window.findChild<MeaningView*>(QStringLiteral("meaningPage"));
    QVERIFY(page);
    // Help and View (Ctrl+6) turn to it.
    auto* help = window.findChild<QAction*>(QStringLiteral("meaningHelpAction"));
    auto* show = window.findChild<QAction*>(QStringLiteral("meaningPageShowAction"));
    QVERIFY(help && show);
    QCOMPARE(show->shortcut(), QKeySequence(QStringLiteral("Ctrl+6")));
    help->trigger();
    QCOMPARE(window.centralTabs()->currentWidget(), page);
    ui::MechanismForm* form = mechanismForm(window);

    form->setMechanism(mech::MechanismKind::None);
    QTRY_VERIFY(page->sentenceLabel()->text().contains(QStringLiteral("No mechanism")));
    QCOMPARE(page->boundarySeries()->count(), 0);

    form->setMechanism(mech::MechanismKind::Output);
    form->epsilonField()->setValue(1.0);
    QTRY_VERIFY_WITH_TIMEOUT(page->sentenceLabel()->text().contains(QStringLiteral("at most 2.7 %")), kTimeoutMs);
    QCOMPARE(page->boundarySeries()->count(), 4);
    const auto corners = privacy::epsilonDeltaTradeOffCorners(1.0, 0.0);
    QVERIFY(std::abs(page->boundarySeries()->at(1).x() - corners[1].falsePositive) < 1e-12);
    const auto atPrior = [page](double prior) {
      for (const QPointF& p : page->posteriorSeries()->points())
        if (std::abs(p.x() - prior) < 1e-12) return p.y();
      return -1.0;
    };
    QVERIFY(std::abs(atPrior(0.5) - privacy::posteriorBound(0.5, 1.0).value()) < 1e-12);
    // ℓ2-Laplace output perturbation: nothing is known beyond (ε, 0).
    QTest::qWait(100);
    QCOMPARE(page->exactSeries()->count(), 0);

    // Live: another ε, another picture, before any training.
    form->epsilonField()->setValue(3.0);
    QTRY_VERIFY_WITH_TIMEOUT(std::abs(atPrior(0.5) - privacy::posteriorBound(0.5, 3.0).value()) < 1e-12, kTimeoutMs);
    QVERIFY(page->sentenceLabel()->text().contains(QStringLiteral("\u03b5 = 3")));
    QVERIFY(!page->sentenceLabel()->text().contains(QStringLiteral("NOT private")));
    QCOMPARE(page->auditSeries()->count(), 0);
    exactCurvesLieInsideTheClaim(window, page);
    form->distributionBox()->setCurrentIndex(form->distributionBox()->findData(QStringLiteral("l2-laplace")));
    form->epsilonField()->setValue(3.0);
    QTRY_VERIFY_WITH_TIMEOUT(std::abs(atPrior(0.5) - privacy::posteriorBound(0.5, 3.0).value()) < 1e-12, kTimeoutMs);
    // Seeded noise: the run itself bounds nothing, and the page says so first.
    useExperimentNoise(window);
    QTRY_VERIFY_WITH_TIMEOUT(page->sentenceLabel()->text().startsWith(QStringLiteral("Experiment noise is NOT private")),
                             kTimeoutMs);

    // The audit of the same claim (output perturbation at ε = 3) puts its tests on the picture.
    ui::AuditView* audit = window.auditView();
    audit->form()->trialsBox()->setValue(200);
    audit->form()->epsilonField()->setValue(3.0);
    QSignalSpy shown(audit, &ui::AuditView::resultShown);
    QTRY_VERIFY(audit->runButton()->isEnabled());
    audit->runButton()->click();
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 6 * kTimeoutMs);
    QTRY_VERIFY(page->auditSeries()->count() > 1);
    saveScreenshot(&window, QStringLiteral("meaning"));
    // Another claim in the dock: the audit no longer belongs on it.
    form->epsilonField()->setValue(0.5);
    QTRY_VERIFY_WITH_TIMEOUT(page->auditSeries()->count() == 0 && page->sentenceLabel()->text().contains(QStringLiteral("\u03b5 = 0.5")),
                             kTimeoutMs);
  }

 private:
  // Gaussian output perturbation (μ-GDP) and DP-SGD (the PLD's profile): a curve that
  // no point of crosses into the claimed (ε, δ)'s forbidden region, and that lies strictly
  // inside it somewhere (it is tighter); the caption names it.
  static QString caption(MeaningView* page) {
    QString all;
    for (QLabel* label : page->findChildren<QLabel*>()) all += label->text();
    return all;
  }

  static void exactCurvesLieInsideTheClaim(MainWindow& window, MeaningView* page) {
    ui::MechanismForm* form = mechanismForm(window);
    const auto check = [page](double epsilon, double delta) {
      double inside = 0;
      for (const QPointF& p : page->exactSeries()->points()) {
        const double bound = privacy::epsilonDeltaMinFalseNegative(epsilon, delta, p.x()).value();
        if (p.y() < bound - 1e-6) return false;
        inside = std::max(inside, p.y() - bound);
      }
      return inside > 0.01;
    };
    form->distributionBox()->setCurrentIndex(form->distributionBox()->findData(QStringLiteral("gaussian")));
    form->deltaField()->setValue(1e-5);
    form->epsilonField()->setValue(1.0);
    QTRY_VERIFY_WITH_TIMEOUT(page->exactSeries()->count() > 50, kTimeoutMs);
    QVERIFY(check(1.0, 1e-5));
    QVERIFY(caption(page).contains(QStringLiteral("GDP")));

    window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
    form->setMechanism(mech::MechanismKind::DpSgd);
    QTRY_VERIFY_WITH_TIMEOUT(form->calibration() && form->calibration()->exactPrivacy &&
                                 !form->calibration()->exactPrivacy->sampledGaussian.empty(),
                             kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(page->exactSeries()->count() > 50 && caption(page).contains(QStringLiteral("PLD")),
                             4 * kTimeoutMs);
    QVERIFY(check(1.0, 1e-5));
    saveScreenshot(&window, QStringLiteral("meaning-dpsgd"));
    form->setMechanism(mech::MechanismKind::Output);
  }

  QTemporaryDir dir_;
};

QTEST_MAIN(TestMeaningView)
#include "test_meaning_view.moc"
