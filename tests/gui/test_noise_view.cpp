// The Noise view, offscreen: without a private model it says so; after output perturbation
// (ℓ2-Laplace) it holds exactly the report's noise norms and plots the law's density
// (NoiseNormLaw::pdf at every x) with bars of total area 1; Redraw noise adds the new draw,
// Simulate adds 2 000 from the same law and nothing else; a new calibration (another ε)
// starts again; one-vs-rest contributes one norm per class; a private predictor's answers
// are collected as they are given; DP-SGD gets a reason instead of a plot; the plot exports.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the window with the Noise tab raised and an exported
// plot, for looking at.

#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QList>
#include <QPointF>
#include <QTest>

#include <QChart>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

#include "core/mechanisms/report_noise_law.h"
#include "tests/gui/gui_training_support.h"
#include "ui/main_window.h"
#include "ui/privacy/noise_chart.h"
#include "ui/privacy/noise_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/training/prediction_fields.h"
#include "ui/training/training_document.h"
#include "ui/widgets/number_field.h"

using dpstudio::ModelKind;
using dpstudio::mech::MechanismKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::useExperimentNoise;
using dpstudio::test::mechanismForm;
using dpstudio::test::pressAndWaitForModel;
using dpstudio::ui::MainWindow;
using dpstudio::ui::MechanismForm;
using dpstudio::ui::NoiseView;

namespace {

const QString kIris = QStringLiteral("builtin:iris");


NoiseView* noiseView(MainWindow& window) {
  auto* view = window.findChild<NoiseView*>();
  if (!view) qFatal("the window has no Noise view");
  return view;
}

const dpstudio::mech::MechanismReport& releaseReport(MainWindow& window) {
  return window.training()->result()->release->report;
}

// ∫ of the histogram's outline (trapezoids: exact for its flat tops and vertical drops).
double histogramArea(NoiseView* view) {
  const QList<QPointF> points = view->chart()->histogramOutline()->points();
  double area = 0;
  for (qsizetype i = 1; i < points.size(); ++i)
    area += (points[i].x() - points[i - 1].x()) * (points[i].y() + points[i - 1].y()) / 2.0;
  return area;
}

void saveScreenshot(MainWindow& window, const QString& name) {
  const QString dir = qEnvironmentVariable("DPSTUDIO_TEST_SCREENSHOTS");
  if (dir.isEmpty()) return;
  window.findChild<QDockWidget*>(QStringLiteral("noiseDock"))->raise();
  QTest::qWait(200);
  window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

}  // namespace

class TestNoiseView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init() { QSettings().clear(); }

  void withoutAPrivateModelItSaysSo();
  void outputPerturbationDrawsAgainstTheLaw();
  void releaseNoiseSaysItsNormsAreWithheld();
  void oneVsRestAddsOneNormPerClass();
  void predictorAnswersAreCollected();
  void dpSgdHasNoSingleDrawLaw();
  void exportsPngAndSvg();

 private:
  QTemporaryDir dir_;
};

void TestNoiseView::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_noise_view"));
}

void TestNoiseView::withoutAPrivateModelItSaysSo() {
  MainWindow window;
  window.show();
  NoiseView* view = noiseView(window);
  QVERIFY(!view->law());
  QVERIFY(!view->messageLabel()->isHidden());
  QVERIFY(view->messageLabel()->text().contains(QLatin1String("No private model")));
  QVERIFY(view->chart()->isHidden());
  QVERIFY(!view->simulateButton()->isEnabled());

  openDataset(window, kIris, 150);
  mechanismForm(window)->setMechanism(MechanismKind::None);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  QVERIFY(!view->law());
  QVERIFY(view->messageLabel()->text().contains(QLatin1String("not private")));
}

// Issue 33: after the first screen's release the page said "no released draw yet", as if
// nothing had been drawn; release noise's norms are withheld on purpose, and it says so.
void TestNoiseView::releaseNoiseSaysItsNormsAreWithheld() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  mechanismForm(window)->setMechanism(MechanismKind::Output);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);
  QVERIFY(releaseReport(window).noiseNorms.empty());
  QVERIFY(view->releasedNorms().empty());
  QVERIFY(view->law());
  QVERIFY2(view->lawLabel()->text().contains(QStringLiteral("withheld")), qPrintable(view->lawLabel()->text()));
  QVERIFY(!view->lawLabel()->text().contains(QStringLiteral("no released draw yet")));
}

void TestNoiseView::outputPerturbationDrawsAgainstTheLaw() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  useExperimentNoise(window);  // release noise withholds the drawn norms
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);  // one joint draw per release
  mechanismForm(window)->setMechanism(MechanismKind::Output);
  mechanismForm(window)->epsilonField()->setValue(1.0);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);

  const auto first = releaseReport(window);
  QCOMPARE(QString::fromStdString(first.noiseWord()), QStringLiteral("l2-laplace"));
  QCOMPARE(first.noiseNorms.size(), std::size_t{1});
  QVERIFY(view->law());
  QVERIFY(*view->law() == dpstudio::mech::noiseNormLaw(first).value());
  QCOMPARE(view->releasedNorms(), first.noiseNorms);
  QVERIFY(view->simulatedNorms().empty());
  QVERIFY(view->messageLabel()->isHidden());
  QVERIFY2(view->lawLabel()->text().contains(QStringLiteral("\u2016b\u2016 ~ Gamma(m = %1").arg(first.noiseDimension)),
           qPrintable(view->lawLabel()->text()));
  QCOMPARE(view->chart()->releasedSeries()->count(), 1);
  QVERIFY(qAbs(histogramArea(view) - 1.0) < 1e-12);
  // The curve is the law's density, point by point; the dashed line stands at E‖b‖.
  const QList<QPointF> curve = view->chart()->densitySeries()->points();
  QVERIFY(curve.size() > 100);
  for (const QPointF& p : curve) QCOMPARE(p.y(), view->law()->pdf(p.x()));
  QCOMPARE(view->chart()->meanSeries()->at(0).x(), first.expectedNoiseNorm);

  // Redraw noise: the same calibration, one more draw.
  pressAndWaitForModel(window, window.modelPanel()->redrawButton());
  const auto second = releaseReport(window);
  QCOMPARE(view->releasedNorms().size(), std::size_t{2});
  QCOMPARE(view->releasedNorms()[0], first.noiseNorms[0]);
  QCOMPARE(view->releasedNorms()[1], second.noiseNorms[0]);
  QVERIFY(qAbs(histogramArea(view) - 1.0) < 1e-12);

  // Simulate: 2 000 draws of the same law, labelled as costing nothing; the releases stay.
  view->simulateButton()->click();
  QCOMPARE(view->simulatedNorms().size(), std::size_t{NoiseView::kSimulatedDraws});
  QCOMPARE(view->releasedNorms().size(), std::size_t{2});
  QVERIFY(view->simulationLabel()->text().contains(QLatin1String("no data, no privacy cost")));
  QVERIFY(qAbs(histogramArea(view) - 1.0) < 1e-12);
  QCOMPARE(view->chart()->releasedSeries()->count(), 2);
  // The simulated norms follow the law: their mean is E‖b‖ within 5 standard errors.
  double sum = 0, squares = 0;
  for (double r : view->simulatedNorms()) {
    sum += r;
    squares += r * r;
  }
  const double n = static_cast<double>(view->simulatedNorms().size()), mean = sum / n;
  const double standardError = std::sqrt((squares / n - mean * mean) / n);
  QVERIFY2(qAbs(mean - first.expectedNoiseNorm) < 5 * standardError,
           qPrintable(QStringLiteral("mean %1, E %2").arg(mean).arg(first.expectedNoiseNorm)));

  // Another ε is another calibration: the histogram starts again with the new release.
  mechanismForm(window)->epsilonField()->setValue(3.0);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const auto third = releaseReport(window);
  QVERIFY(*view->law() == dpstudio::mech::noiseNormLaw(third).value());
  QVERIFY(!(*view->law() == dpstudio::mech::noiseNormLaw(first).value()));
  QCOMPARE(view->releasedNorms(), third.noiseNorms);
  QVERIFY(view->simulatedNorms().empty());
  saveScreenshot(window, QStringLiteral("noise_view_output"));
}

void TestNoiseView::oneVsRestAddsOneNormPerClass() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  useExperimentNoise(window);  // release noise withholds the drawn norms
  window.modelPanel()->form()->setModelKind(ModelKind::LogisticRegression);
  mechanismForm(window)->setMechanism(MechanismKind::Output);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);
  const auto& report = releaseReport(window);
  QCOMPARE(report.noiseNorms.size(), std::size_t{3});
  QCOMPARE(view->releasedNorms(), report.noiseNorms);
  QCOMPARE(view->law()->dimension(), report.noiseDimension);
  QVERIFY(view->lawLabel()->text().contains(QLatin1String("one draw per class")));
}

void TestNoiseView::predictorAnswersAreCollected() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  useExperimentNoise(window);  // release noise withholds the drawn norms
  QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("prediction")));
  mechanismForm(window)->epsilonField()->setValue(5.0);
  mechanismForm(window)->predictionFields()->budgetField()->setValue(5);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);
  QVERIFY(view->law());  // the per-answer law, before any answer
  QVERIFY(view->releasedNorms().empty());
  QVERIFY(view->lawLabel()->text().contains(QLatin1String("one draw per answer")));

  auto* box = window.modelPanel()->answersBox();
  box->countBox()->setValue(3);
  box->answerButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(view->releasedNorms().size(), std::size_t{3}, kTimeoutMs);
  QCOMPARE(view->releasedNorms(), window.training()->answers()->noiseNorms());
}

void TestNoiseView::dpSgdHasNoSingleDrawLaw() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  mechanismForm(window)->setMechanism(MechanismKind::DpSgd);
  mechanismForm(window)->batchField()->setText(QStringLiteral("16"));
  mechanismForm(window)->epochsField()->setText(QStringLiteral("2"));
  QTRY_VERIFY_WITH_TIMEOUT(window.modelPanel()->trainButton()->isEnabled(), kTimeoutMs);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);
  QVERIFY(!view->law());
  QVERIFY2(view->messageLabel()->text().contains(QLatin1String("DP-SGD")), qPrintable(view->messageLabel()->text()));
  QVERIFY(!view->simulateButton()->isEnabled());
}

void TestNoiseView::exportsPngAndSvg() {
  MainWindow window;
  window.show();
  openDataset(window, kIris, 150);
  window.modelPanel()->form()->setModelKind(ModelKind::Softmax);
  mechanismForm(window)->setMechanism(MechanismKind::Output);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  NoiseView* view = noiseView(window);
  view->simulate();
  for (const QString& name : {QStringLiteral("noise.png"), QStringLiteral("noise.svg")}) {
    const QString path = dir_.filePath(name);
    QString error;
    QVERIFY2(view->exportPlot(path, &error), qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 1000);
  }
  if (const QString shots = qEnvironmentVariable("DPSTUDIO_TEST_SCREENSHOTS"); !shots.isEmpty())
    QFile::copy(dir_.filePath(QStringLiteral("noise.png")), QDir(shots).filePath(QStringLiteral("noise_view_export.png")));
  QFile svg(dir_.filePath(QStringLiteral("noise.svg")));
  QVERIFY(svg.open(QIODevice::ReadOnly));
  QVERIFY(QString::fromUtf8(svg.readAll()).contains(QStringLiteral("Gamma(m = ")));
}

QTEST_MAIN(TestNoiseView)
#include "test_noise_view.moc"
