// Analytic and classical Gaussian calibration (docs/algorithms.md §1.1): known answers, the two
// routes against each other, the exact condition at the returned σ, monotonicity and
// extreme parameters.

#include <QTest>

#include <cmath>
#include <limits>

#include "core/privacy/gaussian.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

class TestGaussian : public QObject {
  Q_OBJECT

 private slots:
  void knownAnswers_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("sigma");
    // Issue "Private training", known answers (Δ = 1).
    QTest::newRow("eps 0.1 delta 1e-5") << 0.1 << 1e-5 << 30.74956613;
    QTest::newRow("eps 0.5 delta 1e-5") << 0.5 << 1e-5 << 7.03182668;
    QTest::newRow("eps 1 delta 1e-5") << 1.0 << 1e-5 << 3.73063163;
    QTest::newRow("eps 2 delta 1e-6") << 2.0 << 1e-6 << 2.23047627;
  }

  void highPrecisionReferences_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("sigma");
    // Bisection on the exact condition in 60-digit arithmetic (Python mpmath 1.3), for the
    // extremes where double evaluation is hardest.
    QTest::newRow("eps 1e-4 delta 1e-300") << 1e-4 << 1e-300 << 366017.42525159196334;
    QTest::newRow("eps 1000 delta 1e-300") << 1000.0 << 1e-300 << 0.04753766013224315527;
    QTest::newRow("eps 0.001 delta 1e-10") << 0.001 << 1e-10 << 4584.2182271742569532;
    QTest::newRow("eps 50 delta 1e-5") << 50.0 << 1e-5 << 0.1497606075608360191;
    QTest::newRow("eps 0.1 delta 1e-5") << 0.1 << 1e-5 << 30.749566131977448472;
  }

  void highPrecisionReferences() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, sigma);
    DPSTUDIO_COMPARE_REL(analyticGaussianSigma(epsilon, delta, 1.0).value(), sigma, 1e-12);
  }

  void knownAnswers() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, sigma);
    DPSTUDIO_COMPARE_REL(analyticGaussianSigma(epsilon, delta, 1.0).value(), sigma, 1e-8);
    DPSTUDIO_COMPARE_REL(analyticGaussianSigmaAlpha(epsilon, delta, 1.0).value(), sigma, 1e-8);
    // σ scales with the sensitivity.
    DPSTUDIO_COMPARE_REL(analyticGaussianSigma(epsilon, delta, 2.5).value(), 2.5 * sigma, 1e-8);
  }

  void routesAgree_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    for (double epsilon : {1e-4, 0.001, 0.01, 0.1, 1.0, 5.0, 20.0, 50.0, 1000.0})
      for (double delta : {1e-300, 1e-12, 1e-5, 0.01, 0.3, 0.9})  // both branches of Alg. 2
        QTest::newRow(qPrintable(QString("eps %1 delta %2").arg(epsilon).arg(delta)))
            << epsilon << delta;
  }

  void routesAgree() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    const double bisection = analyticGaussianSigma(epsilon, delta, 1.0).value();
    const double alpha = analyticGaussianSigmaAlpha(epsilon, delta, 1.0).value();
    DPSTUDIO_COMPARE_REL(alpha, bisection, 1e-9);
  }

  void returnedSigmaIsTheSmallestThatSatisfiesTheCondition_data() { routesAgree_data(); }

  void returnedSigmaIsTheSmallestThatSatisfiesTheCondition() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    const double sigma = analyticGaussianSigma(epsilon, delta, 1.0).value();
    QVERIFY(logGaussianDelta(sigma, epsilon, 1.0) <= std::log(delta));
    QVERIFY(logGaussianDelta(sigma * (1 - 1e-9), epsilon, 1.0) > std::log(delta));
  }

  void monotoneInEpsilonAndDelta() {
    double previous = std::numeric_limits<double>::infinity();
    for (double epsilon = 0.01; epsilon < 100; epsilon *= 1.5) {
      const double sigma = analyticGaussianSigma(epsilon, 1e-6, 1.0).value();
      QVERIFY2(sigma < previous, qPrintable(QString("epsilon %1").arg(epsilon)));
      previous = sigma;
    }
    previous = std::numeric_limits<double>::infinity();
    for (double delta = 1e-15; delta < 0.99; delta *= 3) {
      const double sigma = analyticGaussianSigma(1.0, delta, 1.0).value();
      QVERIFY2(sigma < previous, qPrintable(QString("delta %1").arg(delta)));
      previous = sigma;
    }
  }

  void largeEpsilonStaysFinite_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::newRow("eps 50") << 50.0 << 1e-5;
    QTest::newRow("eps 500") << 500.0 << 1e-5;  // e^ε overflows a double past ~709
    QTest::newRow("eps 1000 delta 1e-300") << 1000.0 << 1e-300;
    QTest::newRow("eps 1e-4 delta 1e-300") << 1e-4 << 1e-300;
  }

  void largeEpsilonStaysFinite() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    const double sigma = analyticGaussianSigma(epsilon, delta, 1.0).value();
    QVERIFY(std::isfinite(sigma) && sigma > 0);
    const double logDelta = logGaussianDelta(sigma, epsilon, 1.0);
    QVERIFY(std::isfinite(logDelta) && logDelta <= std::log(delta));
  }

  void privacyProfileLimits() {
    DPSTUDIO_COMPARE_REL(gaussianDelta(1e-6, 1.0, 1.0).value(), 1.0, 1e-12);  // no noise
    QVERIFY(gaussianDelta(1e6, 1.0, 1.0).value() < 1e-300);
    // At ε → 0 the profile is the total variation 2Φ(Δ/(2σ)) − 1.
    DPSTUDIO_COMPARE_REL(gaussianDelta(2.0, 1e-12, 1.0).value(),
                         std::erf(0.25 / std::sqrt(2.0)), 1e-9);
  }

  void classicalCalibration() {
    const double sigma = classicalGaussianSigma(0.5, 1e-5, 2.0).value();
    DPSTUDIO_COMPARE_REL(sigma, 2.0 * std::sqrt(2.0 * std::log(1.25e5)) / 0.5, 1e-15);
    QVERIFY(analyticGaussianSigma(0.5, 1e-5, 2.0).value() < sigma);
    auto outside = classicalGaussianSigma(1.0, 1e-5, 1.0);
    QVERIFY(!outside);
    QCOMPARE(outside.error().field, std::string("epsilon"));
    QVERIFY(outside.error().message.find("< 1") != std::string::npos);
  }

  void invalidParameters_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("sensitivity");
    QTest::addColumn<QString>("name");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("epsilon 0") << 0.0 << 1e-5 << 1.0 << "epsilon";
    QTest::newRow("epsilon NaN") << nan << 1e-5 << 1.0 << "epsilon";
    QTest::newRow("epsilon inf") << inf << 1e-5 << 1.0 << "epsilon";
    QTest::newRow("delta 0") << 1.0 << 0.0 << 1.0 << "delta";
    QTest::newRow("delta 1") << 1.0 << 1.0 << 1.0 << "delta";
    QTest::newRow("delta NaN") << 1.0 << nan << 1.0 << "delta";
    QTest::newRow("sensitivity 0") << 1.0 << 1e-5 << 0.0 << "sensitivity";
    QTest::newRow("sensitivity negative") << 1.0 << 1e-5 << -1.0 << "sensitivity";
  }

  void invalidParameters() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, sensitivity);
    QFETCH(QString, name);
    for (auto result : {analyticGaussianSigma(epsilon, delta, sensitivity),
                        analyticGaussianSigmaAlpha(epsilon, delta, sensitivity),
                        classicalGaussianSigma(epsilon, delta, sensitivity)}) {
      QVERIFY(!result);
      QCOMPARE(result.error().kind, ErrorKind::InvalidPrivacy);
      QCOMPARE(QString::fromStdString(result.error().field), name);
    }
  }
};

QTEST_GUILESS_MAIN(TestGaussian)
#include "test_gaussian.moc"
