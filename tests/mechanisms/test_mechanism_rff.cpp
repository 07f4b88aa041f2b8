// "Any mechanism can be preceded by random Fourier features" (issue 4): every private
// training mechanism runs on the feature map's output — rows of norm ≤ 1 by construction —
// calibrates for d = D (+1 with the intercept), and keeps the kernel's advantage on a
// problem no linear model solves (XOR) when ε is large.

#include <QTest>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/mechanisms/tuning.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;

namespace {

constexpr Index kFeatures = 60;

// XOR (four Gaussian clusters at (±1, ±1), σ = 0.2) under a public norm bound of 2, then 60
// random Fourier features with γ = 4 (in the bounded units: the clusters sit 1 apart).
PreparedData xorOnFeatures(bool intercept) {
  SplitAndPreprocess settings;
  settings.testFraction = 0.3;
  settings.preprocess.normBound = 2.0;
  settings.preprocess.intercept = intercept;
  settings.preprocess.randomFeatures = RandomFeaturesSpec{kFeatures, 4.0, 1};
  auto prepared = prepareLoaded(makeXor({600, 0.2, 1}), std::nullopt, settings);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

}  // namespace

class TestMechanismRff : public QObject {
  Q_OBJECT

 private slots:
  void everyMechanismRunsOnRandomFeatures_data() {
    QTest::addColumn<MechanismKind>("mechanism");
    QTest::addColumn<int>("model");
    QTest::addColumn<bool>("intercept");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<double>("delta");
    QTest::addColumn<int>("noiseDimension");  // per draw, for D = kFeatures (+1 with the intercept)
    const auto row = [](const char* name, MechanismKind m, ModelKind model, bool intercept, double lambda,
                        double delta, int dim) {
      QTest::newRow(name) << m << static_cast<int>(model) << intercept << lambda << delta << dim;
    };
    const int D = static_cast<int>(kFeatures);
    row("A output, logreg", MechanismKind::Output, ModelKind::LogisticRegression, false, 1e-3, 0.0, D);
    row("B objective, logreg", MechanismKind::Objective, ModelKind::LogisticRegression, false, 1e-3, 0.0, D);
    row("B objective, huber, intercept", MechanismKind::Objective, ModelKind::HuberSvm, true, 1e-3, 0.0, D + 1);
    row("C loss, softmax", MechanismKind::Loss, ModelKind::Softmax, false, 1e-3, 0.0, 2 * D);
    row("C loss, softmax, gaussian", MechanismKind::Loss, ModelKind::Softmax, true, 1e-3, 1e-5, 2 * (D + 1));
    row("E dpsgd, softmax", MechanismKind::DpSgd, ModelKind::Softmax, false, 1e-3, 1e-5, 2 * D);
  }

  // At ε = 20 the noise is small: every mechanism keeps the kernel's grip on XOR (a linear
  // model on the raw coordinates is near chance there: test_rff_learning). The report's
  // dimension is the map's D, not the raw d = 2.
  void everyMechanismRunsOnRandomFeatures() {
    QFETCH(MechanismKind, mechanism);
    QFETCH(int, model);
    QFETCH(bool, intercept);
    QFETCH(double, lambda);
    QFETCH(double, delta);
    QFETCH(int, noiseDimension);
    const PreparedData data = xorOnFeatures(intercept);
    QVERIFY(data.train.maxRowNorm() <= 1.0);
    auto o = test::options(mechanism, static_cast<ModelKind>(model), 20.0, lambda);
    o.delta = delta;
    if (delta > 0 && o.kind == MechanismKind::Loss) o.family = mech::NoiseFamily::Gaussian;
    const auto result = test::trainWithSeed(o, data.train, 3);
    QCOMPARE(result.trained.model->inputDim(), kFeatures + (intercept ? 1 : 0));
    if (o.kind != MechanismKind::DpSgd) QCOMPARE(result.report.noiseDimension, Index(noiseDimension));
    const double accuracy = test::testAccuracy(result, data.test);
    qInfo("%s: test accuracy %.3f", QTest::currentDataTag(), accuracy);
    QVERIFY2(accuracy >= 0.85, qPrintable(QString::number(accuracy)));
  }

  // The calibration uses d = D: objective perturbation's noise lives in R^D, and the same
  // report follows from calibrate() with the shape (n, D, C) alone.
  void calibrationSeesTheMappedDimension() {
    const PreparedData data = xorOnFeatures(false);
    const auto o = test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, 1e-3);
    const auto trained = test::trainWithSeed(o, data.train, 5);
    const auto calibrated = mech::calibrate(o, {data.train.rows(), kFeatures, 2}).value();
    QCOMPARE(trained.report.noiseDimension, kFeatures);
    QCOMPARE(calibrated.noiseDimension, kFeatures);
    DPSTUDIO_COMPARE_REL(trained.report.expectedNoiseNorm, calibrated.expectedNoiseNorm, 1e-12);
    DPSTUDIO_COMPARE_REL(*trained.report.value("epsilon_prime"), *calibrated.value("epsilon_prime"), 1e-12);
  }

  // H: private tuning wraps any mechanism, so it wraps one on random features too.
  void privateTuningRunsOnRandomFeatures() {
    const PreparedData data = xorOnFeatures(false);
    mech::TuningOptions tuning{test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 20.0),
                               {1e-4, 1e-3, 1e-2}};
    privacy::ExperimentNoise noise(2);
    const auto result = mech::tunePrivately(tuning, data.train, noise);
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().toString().c_str());
    QCOMPARE(result.value().trained.model->inputDim(), kFeatures);
    const double accuracy = test::testAccuracy(result.value(), data.test);
    QVERIFY2(accuracy >= 0.85, qPrintable(QString::number(accuracy)));
  }
};

QTEST_GUILESS_MAIN(TestMechanismRff)
#include "test_mechanism_rff.moc"
