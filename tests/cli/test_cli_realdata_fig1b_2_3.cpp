// Paper 003 Figures 1b, 2a, 2b and 3 on full MNIST (label "realdata"; needs DPSTUDIO_DATA_DIR):
// each preset at two of its points and two repetitions, against what paper 003 §4.2 reports:
// - Fig. 1b (δ = 1e-5): "DP-SGD outperforms all other methods when δ = 10⁻⁵", "prediction
//   sensitivity performs poorly across the board", subsample-and-aggregate "is less competitive
//   when δ = 10⁻⁵" (here: below DP-SGD and loss perturbation at ε = 1);
// - Fig. 2a (δ = 0, ε = 1): subsample-and-aggregate "outperforms other private prediction
//   methods in the low-budget regime", "loss perturbation outperforms subsample-and-aggregate
//   at B ≳ 80" (here at B = 1000), and private training is a horizontal line (its leak does not
//   depend on B);
// - Fig. 2b (δ = 1e-5, ε = 1): "two private training methods (loss perturbation and DP-SGD)
//   perform at least as good as subsample-and-aggregate for all inference-budget values";
//   with Fig. 2a: "both loss perturbation and model sensitivity benefit greatly from making δ
//   non-zero", and model sensitivity is "slightly more competitive when δ = 10⁻⁵ due to the use
//   of a Gaussian noise distribution" (Fig. 1's text: its shortfall to loss perturbation
//   shrinks);
// - Fig. 3 (ε = 1, B = 100): "loss perturbation, DP-SGD, and model sensitivity work well even at
//   very small values of δ", "prediction sensitivity appears to require unacceptably high values
//   of δ", "the subsample-and-aggregate method benefits the most from increasing δ".
// Two repetitions resolve large gaps only: a comparison fails only when it is reversed by
// more than twice the standard error of the difference, or by a margin stated beside it.
//
// Not checked here: where the curves cross (Fig. 2a's B ≈ 80; two points cannot place a
// crossing, and the full-size run in docs/performance.md shows where this product's cross),
// the figures' absolute accuracies (the paper's text gives none, and it cross-validates λ per
// method where the presets fix λ = 1e-3), and Fig. 1a's δ = 0 claims (test_cli_realdata_fig1a).

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QStringList>
#include <QTest>

#include <cmath>

#include "tests/cli/cli_runner.h"
#include "tests/cli/sweep_points.h"
#include "tests/common/test_support.h"

using dpstudio::test::runCli;

namespace {

using Point = dpstudio::test::SweepPoint;
using Curves = dpstudio::test::SweepCurves;

// The preset at `values` and two repetitions; its points by series and axis value. Each run
// once per process: Fig. 2b's checks compare with Fig. 2a's run.
const Curves& runPreset(const QString& preset, const QString& values) {
  static QMap<QString, Curves> runs;
  const QString key = preset + " " + values;
  if (!runs.contains(key)) {
    const auto run = runCli({"sweep", "--preset", preset, "--data-dir", dpstudio::test::realDataDir(), "--values",
                             values, "--repeats", "2", "--json"},
                            1800000);
    if (run.exitCode != 0) qFatal("%s: %s", qPrintable(preset), qPrintable(run.err));
    runs[key] = dpstudio::test::sweepCurves(run.json());
  }
  return runs[key];
}

// `higher` is not below `lower` by more than twice the standard error of their difference.
bool notBelow(const Point& higher, const Point& lower) {
  return higher.mean >= lower.mean - 2 * std::hypot(higher.standardError(), lower.standardError());
}

// The points at one axis value, printed with every run (to compare with the paper's text).
QString describe(const Curves& curves, double value) {
  QStringList parts;
  for (auto it = curves.cbegin(); it != curves.cend(); ++it)
    parts << QString("%1 %2").arg(it.key()).arg(it.value()[value].mean, 0, 'f', 4);
  const QString line = QString("at %1: ").arg(value) + parts.join(", ");
  qInfo("%s", qPrintable(line));
  return line;
}

// A released model's mean over both points of a budget axis (its accuracy does not depend on B).
double lineMean(const Curves& curves, const QString& series) {
  double sum = 0;
  for (const Point& p : curves[series]) sum += p.mean;
  return sum / curves[series].size();
}

const QStringList kGaussianSeries{"dpsgd", "loss:gaussian", "output:gaussian", "prediction:gaussian", "subsample"};

}  // namespace

class TestCliRealDataFig1b23 : public QObject {
  Q_OBJECT

 private slots:
  void figure1bDpSgdLeadsAtSmallDelta() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const Curves& curves = runPreset("paper003-fig1b", "0.25,1");
    QCOMPARE(curves.keys(), kGaussianSeries);
    describe(curves, 0.25);
    const QString at1 = describe(curves, 1);
    for (const QString& other : kGaussianSeries)
      QVERIFY2(notBelow(curves["dpsgd"][1], curves[other][1]), qPrintable(at1));
    for (const QString& other : kGaussianSeries)
      if (other != "prediction:gaussian")
        QVERIFY2(curves["prediction:gaussian"][1].mean < curves[other][1].mean, qPrintable(at1));
    for (const QString& series : kGaussianSeries)
      QVERIFY2(notBelow(curves[series][1], curves[series][0.25]), qPrintable(series + ": " + at1));
    // Subsample-and-aggregate, the best at δ = 0 for most ε, is behind both δ > 0 training
    // methods that lead here.
    for (const QString& leader : {QString("dpsgd"), QString("loss:gaussian")})
      QVERIFY2(curves["subsample"][1].mean < curves[leader][1].mean, qPrintable(at1));
  }

  // B = 30, not 1: a predictor's accuracy is measured over its B answers, and one answer per
  // trial says 0 or 1.
  void figure2aBudget() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const Curves& curves = runPreset("paper003-fig2", "30,1000");
    QCOMPARE(curves.keys(), (QStringList{"loss", "output", "prediction", "subsample"}));
    const QString low = describe(curves, 30), high = describe(curves, 1000);
    QVERIFY2(curves["subsample"][30].mean > curves["prediction"][30].mean + 0.1, qPrintable(low));
    QVERIFY2(curves["loss"][1000].mean > curves["subsample"][1000].mean, qPrintable(high));
    // Private training spends its ε once, whatever the number of answers: the same mechanism at
    // every B (its trials differ only in their noise; at δ = 0 and ε = 1 one trial's accuracy
    // varies by ±0.1 on MNIST, so two repetitions bound the line's slope loosely).
    for (const QString& training : {QString("loss"), QString("output")})
      QVERIFY2(std::abs(curves[training][1000].mean - curves[training][30].mean) < 0.15,
               qPrintable(low + "; " + high));
    // Subsample-and-aggregate loses its lead as each answer's share of ε shrinks.
    QVERIFY2(curves["subsample"][1000].mean < curves["subsample"][30].mean - 0.1, qPrintable(low + "; " + high));
  }

  void figure2bBudgetAtSmallDelta() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const Curves& curves = runPreset("paper003-fig2b", "30,1000");
    QCOMPARE(curves.keys(), kGaussianSeries);
    const QString points = describe(curves, 30) + "; " + describe(curves, 1000);
    for (double b : {30.0, 1000.0})
      for (const QString& training : {QString("loss:gaussian"), QString("dpsgd")})
        QVERIFY2(notBelow(curves[training][b], curves["subsample"][b]), qPrintable(training + " " + points));
    // Horizontal lines: at δ = 1e-5 and ε = 1 a released model's trials differ by under a point
    // (std 0.002–0.004 over 100 repetitions of Fig. 1b), so two B far apart agree within 0.03.
    for (const QString& training : {QString("dpsgd"), QString("loss:gaussian"), QString("output:gaussian")})
      QVERIFY2(std::abs(curves[training][1000].mean - curves[training][30].mean) < 0.03,
               qPrintable(training + " " + points));

    // Against Fig. 2a (δ = 0, the same ε = 1): loss perturbation and model sensitivity gain
    // greatly from δ > 0 — here by more than 0.2 each (their δ = 0 noise is an ℓ2-Laplace
    // vector whose norm grows with the dimension, the Gaussian's with its square root) — and
    // model sensitivity's shortfall to loss perturbation shrinks.
    const Curves& atZero = runPreset("paper003-fig2", "30,1000");
    const double loss0 = lineMean(atZero, "loss"), output0 = lineMean(atZero, "output");
    const double loss5 = lineMean(curves, "loss:gaussian"), output5 = lineMean(curves, "output:gaussian");
    const QString both = QString("δ = 0: loss %1, output %2; δ = 1e-5: loss %3, output %4")
                             .arg(loss0).arg(output0).arg(loss5).arg(output5);
    qInfo("%s", qPrintable(both));
    QVERIFY2(loss5 > loss0 + 0.2, qPrintable(both));
    QVERIFY2(output5 > output0 + 0.2, qPrintable(both));
    QVERIFY2(loss5 - output5 < loss0 - output0, qPrintable(both));
  }

  void figure3Delta() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const Curves& curves = runPreset("paper003-fig3", "1e-8,1e-2");
    QCOMPARE(curves.keys(), kGaussianSeries);
    const QString small = describe(curves, 1e-8), large = describe(curves, 1e-2);
    for (const QString& robust : {QString("dpsgd"), QString("loss:gaussian"), QString("output:gaussian")})
      QVERIFY2(curves[robust][1e-8].mean > curves[robust][1e-2].mean - 0.05, qPrintable(small + "; " + large));
    QVERIFY2(curves["prediction:gaussian"][1e-8].mean < curves["output:gaussian"][1e-8].mean - 0.2,
             qPrintable(small));
    const auto gain = [&](const QString& series) { return curves[series][1e-2].mean - curves[series][1e-8].mean; };
    for (const QString& other : kGaussianSeries)
      if (other != "subsample")
        QVERIFY2(gain("subsample") >= gain(other) - 0.02, qPrintable(small + "; " + large));
  }
};

QTEST_GUILESS_MAIN(TestCliRealDataFig1b23)
#include "test_cli_realdata_fig1b_2_3.moc"
