// The Audit view, offscreen: the form validates as typed by core's rules (an invalid value
// disables Run and says why); a small audit of a corrected mechanism completes and shows
// ε_lower, "no violation" and the trade-off curve with the forbidden region; cancelling a
// long audit leaves the previous result; subsample-and-aggregate as published with the core
// audit test's settings is shown as a violation, in red; the result and plot export; the
// current dataset is audited as the Training panel prepares it, and no audit touches the ledger.

#include <QColor>
#include <QDockWidget>
#include <QFileInfo>
#include <QIODevice>
#include <QList>
#include <QPalette>
#include <QPointF>
#include <QSettings>
#include <QTest>
#include <QScrollArea>
#include <QVariant>

#include <QAreaSeries>
#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>

#include <cmath>

#include "tests/gui/gui_training_support.h"
#include "ui/dataset/dataset_document.h"
#include "ui/jobs/job_status_widget.h"
#include "ui/main_window.h"
#include "ui/privacy/audit_chart.h"
#include "ui/privacy/audit_form.h"
#include "ui/privacy/audit_view.h"
#include "ui/widgets/number_field.h"

using dpstudio::ModelKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::saveScreenshot;
using dpstudio::ui::AuditForm;
using dpstudio::ui::AuditView;
using dpstudio::ui::DatasetDocument;

namespace {

constexpr int kAuditTimeoutMs = 120000;

void selectData(QComboBox* box, const QVariant& data) {
  const int index = box->findData(data);
  QVERIFY(index >= 0);
  box->setCurrentIndex(index);
}

// Output perturbation of logistic regression, ε = 1, λ = 0.1, on the built-in problem: the
// first case of tests/audit/test_audit.cpp, with few runs.
void setSmallCorrectedAudit(AuditForm* form, int trials) {
  form->setMechanism(QStringLiteral("output"));
  form->setModel(ModelKind::LogisticRegression);
  form->epsilonField()->setValue(1.0);
  form->deltaField()->setValue(0.0);
  form->lambdaField()->setValue(0.1);
  form->trialsBox()->setValue(trials);
  form->seedBox()->setValue(1);
  selectData(form->dataBox(), false);
}

// Runs what the form says and waits for the result.
void runToResult(AuditView& view) {
  QSignalSpy shown(&view, &AuditView::resultShown);
  QVERIFY2(view.runButton()->isEnabled(), qPrintable(view.problemLabel()->text()));
  view.runButton()->click();
  QVERIFY(view.isRunning());
  QVERIFY(!view.runButton()->isEnabled());
  QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), kAuditTimeoutMs);
  QVERIFY2(shown.count() == 1, qPrintable(view.statusLabel()->text()));
}

}  // namespace

class TestAuditView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void defaultsAreValid();
  void numberFieldUnmarksCleanly();
  void idealBoundaryIsExact_data();
  void idealBoundaryIsExact();
  void curveFollowsTheCertifiedDirection();
  void invalidFieldDisablesRunWithReason_data();
  void invalidFieldDisablesRunWithReason();
  void rowsFollowTheMechanism();
  void smallCorrectedAuditShowsNoViolation();
  void cancelKeepsThePreviousResult();
  void resultIsMarkedStaleWhenTheFormChanges();
  void subsampleAsPublishedIsShownAsViolation();
  void resultAndPlotExport();
  void formPersists();
  void currentDatasetIsAuditedWithoutSpendingPrivacy();

 private:
  QTemporaryDir dir_;
  DatasetDocument datasets_;
};

void TestAuditView::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_audit_view"));
}

void TestAuditView::init() { QSettings().clear(); }

void TestAuditView::defaultsAreValid() {
  AuditView view(&datasets_);
  for (auto* field : {view.form()->epsilonField(), view.form()->deltaField(), view.form()->lambdaField(),
                      view.form()->huberField(), view.form()->epochsField()})
    QVERIFY2(field->isValid() && field->styleSheet().isEmpty(), qPrintable(field->problem()));
  QVERIFY2(view.runButton()->isEnabled(), qPrintable(view.problemLabel()->text()));
  QCOMPARE(view.form()->trialsBox()->value(), 2000);
  QCOMPARE(view.form()->settings().onDataset, false);
}

// Regression: a field marked invalid twice in a row before it was first shown (a new help
// text re-marks it; the Audit form's ε and δ) stayed pink after it became valid, because Qt
// took the marked palette for the field's own.
void TestAuditView::numberFieldUnmarksCleanly() {
  const QColor plain = QLineEdit().palette().color(QPalette::Base);
  dpstudio::ui::NumberField field;
  QVERIFY(!field.isValid());  // empty
  field.setHelp(QStringLiteral("help"));
  field.setValue(1.0);
  field.show();
  QVERIFY(field.isValid());
  QVERIFY(field.styleSheet().isEmpty());
  QCOMPARE(field.palette().color(QPalette::Base), plain);
}

void TestAuditView::idealBoundaryIsExact_data() {
  QTest::addColumn<double>("epsilon");
  QTest::addColumn<double>("delta");
  QTest::addColumn<double>("kinkX");
  QTest::addColumn<double>("kinkY");
  // e^ε = 3: FNR = 1 − 3·FPR meets FNR = (1 − FPR)/3 at FPR = 1/4.
  QTest::newRow("epsilon ln 3") << std::log(3.0) << 0.0 << 0.25 << 0.25;
  // With δ: the same lines shifted by 1 − δ.
  QTest::newRow("epsilon ln 3, delta 0.2") << std::log(3.0) << 0.2 << 0.2 << 0.2;
  // ε = 0: the diagonal FPR + FNR = 1 − δ.
  QTest::newRow("epsilon 0") << 0.0 << 0.0 << 0.5 << 0.5;
  // e^ε overflows: the forbidden region vanishes into the axes, without NaN.
  QTest::newRow("epsilon 1000") << 1000.0 << 0.0 << 0.0 << 0.0;
}

void TestAuditView::idealBoundaryIsExact() {
  QFETCH(double, epsilon);
  QFETCH(double, delta);
  QFETCH(double, kinkX);
  QFETCH(double, kinkY);
  const QList<QPointF> b = dpstudio::ui::idealTradeOffBoundary(epsilon, delta);
  QCOMPARE(b.size(), 4);
  QCOMPARE(b[0], QPointF(0.0, 1.0 - delta));
  QVERIFY2(std::abs(b[1].x() - kinkX) < 1e-12 && std::abs(b[1].y() - kinkY) < 1e-12,
           qPrintable(QString("kink (%1, %2)").arg(b[1].x()).arg(b[1].y())));
  QCOMPARE(b[2], QPointF(1.0 - delta, 0.0));
  QCOMPARE(b[3], QPointF(1.0, 0.0));
}

void TestAuditView::curveFollowsTheCertifiedDirection() {
  dpstudio::audit::AuditResult r;
  dpstudio::audit::RatePoint p;
  p.fpr = 0.1;
  p.fnr = 0.7;
  r.curve.points = {p};
  r.certificate.decision.above = true;
  QCOMPARE(dpstudio::ui::auditCurvePoints(r).front(), QPointF(0.1, 0.7));
  r.certificate.decision.above = false;  // "below" errs where "above" does not
  const QPointF flipped = dpstudio::ui::auditCurvePoints(r).front();
  QVERIFY(std::abs(flipped.x() - 0.9) < 1e-12 && std::abs(flipped.y() - 0.3) < 1e-12);
}

void TestAuditView::invalidFieldDisablesRunWithReason_data() {
  QTest::addColumn<QString>("field");
  QTest::addColumn<QString>("distribution");
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("reason");
  const QString epsilonRule = QStringLiteral("epsilon must be finite and > 0");
  QTest::newRow("zero epsilon") << "epsilon" << "l2" << "0" << epsilonRule;
  QTest::newRow("negative epsilon") << "epsilon" << "l2" << "-1" << epsilonRule;
  QTest::newRow("infinite epsilon") << "epsilon" << "l2" << "inf" << epsilonRule;
  QTest::newRow("epsilon not a number") << "epsilon" << "l2" << "1x" << QStringLiteral("is not a number");
  QTest::newRow("delta of one") << "delta" << "l2" << "1" << QStringLiteral("delta must be in [0, 1)");
  QTest::newRow("gaussian without delta") << "delta" << "gaussian" << "0"
                                          << QStringLiteral("Gaussian noise needs delta > 0");
  QTest::newRow("zero lambda") << "lambda" << "l2" << "0" << QStringLiteral("lambda must be finite and > 0");
}

void TestAuditView::invalidFieldDisablesRunWithReason() {
  QFETCH(QString, field);
  QFETCH(QString, distribution);
  QFETCH(QString, text);
  QFETCH(QString, reason);
  AuditView view(&datasets_);
  AuditForm* form = view.form();
  form->setMechanism(QStringLiteral("output"));
  QVERIFY(view.runButton()->isEnabled());
  selectData(form->distributionBox(),
             static_cast<int>(distribution == QLatin1String("gaussian") ? dpstudio::mech::NoiseFamily::Gaussian
                                                                         : dpstudio::mech::NoiseFamily::L2Laplace));
  dpstudio::ui::NumberField* edited = field == QLatin1String("epsilon") ? form->epsilonField()
                                      : field == QLatin1String("delta") ? form->deltaField()
                                                                        : form->lambdaField();
  edited->setText(text);
  QVERIFY(!edited->isValid());
  QVERIFY2(edited->problem().contains(reason), qPrintable(edited->problem()));
  QVERIFY(edited->toolTip().contains(reason));
  QVERIFY(!view.runButton()->isEnabled());
  QVERIFY2(view.problemLabel()->text().contains(reason), qPrintable(view.problemLabel()->text()));
  QVERIFY(!view.problemLabel()->isHidden());
  // Run does nothing while the form is invalid, even if called directly.
  view.run();
  QVERIFY(!view.isRunning());

  edited->setValue(field == QLatin1String("lambda") ? 0.1 : field == QLatin1String("delta") ? 1e-5 : 1.0);
  QVERIFY(edited->isValid());
  QVERIFY2(view.runButton()->isEnabled(), qPrintable(view.problemLabel()->text()));
  QVERIFY(view.problemLabel()->isHidden());
}

void TestAuditView::rowsFollowTheMechanism() {
  AuditView view(&datasets_);
  AuditForm* form = view.form();
  view.resize(1200, 700);
  view.show();
  // Objective perturbation: binary models only, ℓ2-Laplace only, one calibration.
  form->setMechanism(QStringLiteral("objective"));
  form->setModel(ModelKind::Softmax);
  QCOMPARE(static_cast<ModelKind>(form->modelBox()->currentData().toInt()), ModelKind::LogisticRegression);
  QVERIFY(!form->distributionBox()->isVisible());
  QVERIFY(!form->calibrationBox()->isVisible());
  // DP-LMGC takes LMGC only (chosen for the user), with both calibrations.
  form->setMechanism(QStringLiteral("dplmgc"));
  QCOMPARE(static_cast<ModelKind>(form->modelBox()->currentData().toInt()), ModelKind::Lmgc);
  QVERIFY(form->calibrationBox()->isVisible());
  QVERIFY(form->huberField()->isVisible());
  selectData(form->calibrationBox(), static_cast<int>(dpstudio::mech::Calibration::Published));
  QVERIFY(form->publishedWarning()->isVisible());
  // Subsample-and-aggregate: budget and teachers, no noise family.
  form->setMechanism(QStringLiteral("subsample"));
  QVERIFY(form->budgetBox()->isVisible());
  QVERIFY(form->teachersBox()->isVisible());
  QVERIFY(!form->partiesBox()->isVisible());
  QVERIFY(!form->distributionBox()->isVisible());
  // Multiparty aggregation: parties, and no δ (it is (ε, 0)-DP).
  form->setMechanism(QStringLiteral("multiparty"));
  QVERIFY(form->partiesBox()->isVisible());
  QVERIFY(!form->deltaField()->isVisible());
  QVERIFY(!form->budgetBox()->isVisible());
  // DP-SGD: its batch and epochs, and it needs δ > 0.
  form->setMechanism(QStringLiteral("dpsgd"));
  QVERIFY(form->batchSizeBox()->isVisible());
  form->deltaField()->setValue(0.0);
  QVERIFY(!view.runButton()->isEnabled());
  QVERIFY2(view.problemLabel()->text().contains(QStringLiteral("DP-SGD needs delta > 0")),
           qPrintable(view.problemLabel()->text()));
  form->deltaField()->setValue(1e-5);
  QVERIFY2(view.runButton()->isEnabled(), qPrintable(view.problemLabel()->text()));
}

void TestAuditView::smallCorrectedAuditShowsNoViolation() {
  AuditView view(&datasets_);
  setSmallCorrectedAudit(view.form(), 400);
  QVERIFY(view.runButton()->toolTip().contains(QStringLiteral("not recorded in the ledger")));
  runToResult(view);
  QVERIFY(view.result().has_value());
  const auto& r = *view.result();
  QCOMPARE(r.trials, 400LL);
  QCOMPARE(r.calibration, std::optional<dpstudio::mech::Calibration>(dpstudio::mech::Calibration::Corrected));
  QVERIFY(!r.violation);
  QVERIFY(!view.showsViolation());
  QVERIFY2(view.verdictLabel()->text().contains(QStringLiteral("No violation detected")),
           qPrintable(view.verdictLabel()->text()));
  QVERIFY(!view.verdictLabel()->styleSheet().contains(QStringLiteral("#c62828")));
  QVERIFY(view.epsilonLowerLabel()->text().startsWith(QString::number(r.epsilonLower, 'f', 3)));
  // Issue 30 item 11: next to "no violation", the most these runs could certify (200 of the
  // 400 per side certify): 3.984, well above the claimed 1.
  QCOMPARE(r.detectableEpsilon, dpstudio::audit::detectableEpsilon(200, 200, 0.0, dpstudio::audit::kRateConfidence));
  const QString most = QString::number(r.detectableEpsilon, 'f', 3);
  QCOMPARE(most, QStringLiteral("3.984"));
  QVERIFY2(view.verdictLabel()->text().contains(QStringLiteral("400 runs could certify at most \u03b5 = 3.984")),
           qPrintable(view.verdictLabel()->text()));
  QVERIFY(!view.powerLabel()->isHidden());
  QVERIFY2(view.powerLabel()->text().startsWith(QStringLiteral("\u03b5_lower \u2264 3.984 with 400 runs")),
           qPrintable(view.powerLabel()->text()));
  // The chart: the curve of the threshold tests, the forbidden region of ε = 1, the certified point.
  QVERIFY(!r.curve.points.empty());
  QCOMPARE(view.chart()->curveSeries()->count(), static_cast<int>(r.curve.points.size()));
  QCOMPARE(view.chart()->boundarySeries()->points(), dpstudio::ui::idealTradeOffBoundary(1.0, 0.0));
  QVERIFY(view.chart()->forbiddenSeries()->isVisible());
  QCOMPARE(view.chart()->certifiedSeries()->count(), 1);
  QVERIFY(view.statusLabel()->isHidden());
}

void TestAuditView::cancelKeepsThePreviousResult() {
  dpstudio::ui::JobStatusWidget status;
  AuditView view(&datasets_);
  connect(&view, &AuditView::jobStarted, &status, &dpstudio::ui::JobStatusWidget::track);
  setSmallCorrectedAudit(view.form(), 300);
  runToResult(view);
  const double before = view.result()->epsilonLower;
  const QString verdict = view.verdictLabel()->text();
  const int curvePoints = view.chart()->curveSeries()->count();

  // Far more runs than the test will wait for; cancelled from the status bar once it runs.
  view.form()->trialsBox()->setValue(50'000'000);
  view.runButton()->click();
  QVERIFY(view.isRunning());
  QTRY_VERIFY_WITH_TIMEOUT(status.shownJob() != nullptr, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(status.shownJob()->progress() > 0.03, kTimeoutMs);
  QSignalSpy shown(&view, &AuditView::resultShown);
  status.cancelButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(!view.isRunning(), kAuditTimeoutMs);
  QCOMPARE(shown.count(), 0);
  QCOMPARE(view.result()->trials, 300LL);
  QCOMPARE(view.result()->epsilonLower, before);
  QCOMPARE(view.verdictLabel()->text(), verdict);
  QCOMPARE(view.chart()->curveSeries()->count(), curvePoints);
  QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("previous result is still shown")),
           qPrintable(view.statusLabel()->text()));
  QVERIFY(view.runButton()->isEnabled());
}

// Issue 33 item 7: a result stays shown after the form changes, marked as the last run's
// until Run Audit; changing the form back takes the mark away.
void TestAuditView::resultIsMarkedStaleWhenTheFormChanges() {
  AuditView view(&datasets_);
  setSmallCorrectedAudit(view.form(), 200);
  QVERIFY(view.staleLabel()->isHidden());  // no result, nothing to mark
  runToResult(view);
  QVERIFY(view.staleLabel()->isHidden());
  view.form()->epsilonField()->setValue(2.0);
  QVERIFY(!view.staleLabel()->isHidden());
  QVERIFY2(view.staleLabel()->text().contains(QStringLiteral("the form changed")),
           qPrintable(view.staleLabel()->text()));
  view.form()->epsilonField()->setValue(1.0);
  QVERIFY(view.staleLabel()->isHidden());
  view.form()->setMechanism(QStringLiteral("objective"));
  QVERIFY(!view.staleLabel()->isHidden());
  setSmallCorrectedAudit(view.form(), 200);
  QVERIFY(view.staleLabel()->isHidden());
  view.form()->setMechanism(QStringLiteral("objective"));
  runToResult(view);
  QVERIFY(view.staleLabel()->isHidden());
}

void TestAuditView::subsampleAsPublishedIsShownAsViolation() {
  // tests/audit/test_audit.cpp subsampleAsPublishedIsCaught: two classes, a lopsided vote,
  // logreg with λ = 0.1, T = 4 teachers, B = 1, ε = 1, 20 000 runs. Its single answer is
  // 2ε-DP, and the audit certifies more than the claimed ε.
  AuditView view(&datasets_);
  AuditForm* form = view.form();
  form->setMechanism(QStringLiteral("subsample"));
  form->setModel(ModelKind::LogisticRegression);
  form->epsilonField()->setValue(1.0);
  form->deltaField()->setValue(0.0);
  form->lambdaField()->setValue(0.1);
  form->budgetBox()->setValue(1);
  form->teachersBox()->setValue(4);
  selectData(form->calibrationBox(), static_cast<int>(dpstudio::mech::Calibration::Published));
  form->trialsBox()->setValue(20000);
  form->seedBox()->setValue(1);
  selectData(form->dataBox(), false);
  runToResult(view);
  const auto& r = *view.result();
  QCOMPARE(r.calibration, std::optional<dpstudio::mech::Calibration>(dpstudio::mech::Calibration::Published));
  QVERIFY2(r.violation, qPrintable(QString("eps_lower %1").arg(r.epsilonLower)));
  QVERIFY(r.epsilonLower > 1.0);
  QVERIFY(view.showsViolation());
  QVERIFY2(view.verdictLabel()->text().startsWith(QStringLiteral("Violation")), qPrintable(view.verdictLabel()->text()));
  QVERIFY(view.verdictLabel()->styleSheet().contains(QStringLiteral("#c62828")));
  // The certified point lies in the region the claimed ε forbids.
  const QPointF certified = view.chart()->certifiedSeries()->at(0);
  const double e = std::exp(r.epsilon);
  QVERIFY(certified.y() < std::max(1.0 - e * certified.x(), (1.0 - certified.x()) / e) ||
          certified.x() < std::max(1.0 - e * certified.y(), (1.0 - certified.y()) / e));
  view.resize(1400, 560);
  view.show();
  saveScreenshot(&view, QStringLiteral("audit-violation"));
}

void TestAuditView::resultAndPlotExport() {
  AuditView view(&datasets_);
  view.resize(1200, 400);
  QString error;
  QVERIFY(!view.exportResult(dir_.filePath(QStringLiteral("none.json")), &error));
  setSmallCorrectedAudit(view.form(), 200);
  view.form()->seedBox()->setValue(7);
  runToResult(view);

  const QString json = dir_.filePath(QStringLiteral("audit.json"));
  QVERIFY2(view.exportResult(json, &error), qPrintable(error));
  QFile file(json);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
  QCOMPARE(o.value("mechanism").toString(), QStringLiteral("output"));
  QCOMPARE(o.value("epsilon").toDouble(), 1.0);
  QCOMPARE(o.value("epsilon_lower").toDouble(), view.result()->epsilonLower);
  QCOMPARE(o.value("violation").toBool(), false);
  QCOMPARE(o.value("trials").toInteger(), 200);
  QCOMPARE(o.value("seed").toString(), QStringLiteral("7"));
  QCOMPARE(o.value("curve").toArray().size(), static_cast<qsizetype>(view.result()->curve.points.size()));

  for (const QString& name : {QStringLiteral("audit.png"), QStringLiteral("audit.svg")}) {
    const QString path = dir_.filePath(name);
    QVERIFY2(view.exportPlot(path, &error), qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 1000);
  }
  QFile svg(dir_.filePath(QStringLiteral("audit.svg")));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  QVERIFY(svg.readAll().contains("<svg"));
}

void TestAuditView::formPersists() {
  {
    AuditView view(&datasets_);
    view.form()->setMechanism(QStringLiteral("subsample"));
    view.form()->epsilonField()->setValue(2.5);
    view.form()->teachersBox()->setValue(8);
    selectData(view.form()->calibrationBox(), static_cast<int>(dpstudio::mech::Calibration::Published));
    view.form()->trialsBox()->setValue(5000);
  }
  AuditView view(&datasets_);
  const auto s = view.form()->settings();
  QCOMPARE(s.mechanism, QStringLiteral("subsample"));
  QCOMPARE(s.epsilon, 2.5);
  QCOMPARE(s.teachers, dpstudio::Index{8});
  QCOMPARE(s.calibration, dpstudio::mech::Calibration::Published);
  QCOMPARE(s.trials, 5000LL);
}

void TestAuditView::currentDatasetIsAuditedWithoutSpendingPrivacy() {
  dpstudio::ui::MainWindow window;
  AuditView* view = window.auditView();
  setSmallCorrectedAudit(view->form(), 200);
  selectData(view->form()->dataBox(), true);
  QVERIFY(!view->runButton()->isEnabled());
  QVERIFY(view->problemLabel()->text().contains(QStringLiteral("no dataset is open")));

  dpstudio::test::openDataset(window, QStringLiteral("builtin:iris"), 150);
  QVERIFY2(view->runButton()->isEnabled(), qPrintable(view->problemLabel()->text()));
  view->runButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(window.jobStatus()->shownJob() != nullptr || !view->isRunning(), kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!view->isRunning(), kAuditTimeoutMs);
  QVERIFY2(view->result().has_value(), qPrintable(view->statusLabel()->text()));
  // D is iris's training part (the Training panel's test fraction held out; its norm bound R = 20).
  QVERIFY2(view->result()->problem.find("iris") != std::string::npos, view->result()->problem.c_str());
  QVERIFY2(view->result()->problem.find("150 rows") == std::string::npos, view->result()->problem.c_str());
  QCOMPARE(window.ledger().size(), std::size_t{0});

  // Loss perturbation of softmax on the same data: the canary is searched among the test
  // part's points too, the pair says where it came from, and nothing is charged.
  view->form()->setMechanism(QStringLiteral("loss"));
  view->form()->setModel(ModelKind::Softmax);
  window.resize(1400, 900);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);  // View → Audit turns to its page
  QTRY_VERIFY(view->isVisible());
  runToResult(*view);
  const std::string& problem = view->result()->problem;
  QVERIFY2(problem.find("unit vectors and test points") != std::string::npos, problem.c_str());
  QVERIFY2(problem.find("not a release") != std::string::npos, problem.c_str());
  // A page of the central area, readable as it is (docked under the plot it showed the form only).
  QTRY_VERIFY(view->isVisible() && !view->visibleRegion().isEmpty());
  QWidget* dock = view;
  saveScreenshot(&window, QStringLiteral("audit-data-loss"));
  for (QScrollArea* area : dock->findChildren<QScrollArea*>())
    if (QWidget* content = area->widget(); content && area->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOff)
      QVERIFY2(content->width() <= area->viewport()->width(),
               qPrintable(QStringLiteral("%1 px of content in %2 px").arg(content->width()).arg(area->viewport()->width())));
  QCOMPARE(window.ledger().size(), std::size_t{0});
}

QTEST_MAIN(TestAuditView)
#include "test_audit_view.moc"
