// The law of ‖b‖ (noise_norm_law.h), exactly: the density integrates to 1 and its first
// moment is E‖b‖ of noise.h (adaptive Gauss–Kronrod quadrature), it is the derivative of
// the CDF (central differences) and matches the closed forms for m = 3 (Gamma(3, 1/β) and
// the Maxwell law), quantile inverts the CDF, and bad parameters are named. Rows from m = 1
// (a half-normal, an exponential) to m = 10⁶ (a DP-LMGC draw on image data).

#include <QTest>

#include <cmath>
#include <numbers>

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include "core/privacy/noise.h"
#include "core/privacy/noise_norm_law.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using privacy::NoiseNormLaw;
Q_DECLARE_METATYPE(dpstudio::privacy::NoiseNormLaw::Family)

namespace {

NoiseNormLaw lawOf(NoiseNormLaw::Family family, double parameter, int m) {
  auto law = family == NoiseNormLaw::Family::L2Laplace ? NoiseNormLaw::l2Laplace(parameter, m)
                                                       : NoiseNormLaw::gaussian(parameter, m);
  if (!law) qFatal("%s", law.error().toString().c_str());
  return law.value();
}

// ∫ f over the law's central 1 − 2e-15 (the rest holds less than double precision resolves).
template <class F>
double integrate(const NoiseNormLaw& law, F f) {
  const double lo = law.quantile(1e-15), hi = law.quantile(1.0 - 1e-15);
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, lo, hi, 20, 1e-13);
}

}  // namespace

class TestNoiseNormLaw : public QObject {
  Q_OBJECT

 private slots:
  void densityIsNormalizedWithTheExpectedMean_data() {
    QTest::addColumn<NoiseNormLaw::Family>("family");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<int>("m");
    for (int m : {1, 2, 3, 18, 1000, 1000000}) {
      QTest::newRow(qPrintable(QString("l2-laplace beta 1.02 m %1").arg(m)))
          << NoiseNormLaw::Family::L2Laplace << 1.02 << m;
      QTest::newRow(qPrintable(QString("gaussian sigma 0.3 m %1").arg(m)))
          << NoiseNormLaw::Family::Gaussian << 0.3 << m;
    }
    QTest::newRow("l2-laplace tiny beta") << NoiseNormLaw::Family::L2Laplace << 1e-4 << 18;
    QTest::newRow("gaussian huge sigma") << NoiseNormLaw::Family::Gaussian << 1e4 << 18;
  }

  void densityIsNormalizedWithTheExpectedMean() {
    QFETCH(NoiseNormLaw::Family, family);
    QFETCH(double, parameter);
    QFETCH(int, m);
    const NoiseNormLaw law = lawOf(family, parameter, m);
    DPSTUDIO_COMPARE_REL(integrate(law, [&](double r) { return law.pdf(r); }), 1.0, 1e-9);
    const double expected = family == NoiseNormLaw::Family::L2Laplace
                                ? privacy::expectedNormL2Laplace(parameter, m)
                                : privacy::expectedNormGaussian(parameter, m);
    DPSTUDIO_COMPARE_REL(integrate(law, [&](double r) { return r * law.pdf(r); }), expected, 1e-9);
    DPSTUDIO_COMPARE_REL(law.mean(), expected, 1e-15);
  }

  void densityIsTheDerivativeOfTheCdf_data() { densityIsNormalizedWithTheExpectedMean_data(); }

  void densityIsTheDerivativeOfTheCdf() {
    QFETCH(NoiseNormLaw::Family, family);
    QFETCH(double, parameter);
    QFETCH(int, m);
    const NoiseNormLaw law = lawOf(family, parameter, m);
    for (double p : {0.01, 0.3, 0.5, 0.9, 0.999}) {
      const double r = law.quantile(p);
      const double h = 1e-5 * (law.quantile(0.75) - law.quantile(0.25));
      const double slope = (law.cdf(r + h) - law.cdf(r - h)) / (2 * h);
      DPSTUDIO_COMPARE_REL(law.pdf(r), slope, 1e-5);
    }
  }

  void quantileInvertsTheCdf_data() { densityIsNormalizedWithTheExpectedMean_data(); }

  void quantileInvertsTheCdf() {
    QFETCH(NoiseNormLaw::Family, family);
    QFETCH(double, parameter);
    QFETCH(int, m);
    const NoiseNormLaw law = lawOf(family, parameter, m);
    for (double p : {1e-9, 1e-3, 0.1, 0.5, 0.9, 0.999, 1.0 - 1e-9}) DPSTUDIO_COMPARE_REL(law.cdf(law.quantile(p)), p, 1e-10);
    QCOMPARE(law.quantile(0.0), 0.0);
    QVERIFY(std::isinf(law.quantile(1.0)));
    QCOMPARE(law.cdf(0.0), 0.0);
    QCOMPARE(law.cdf(-1.0), 0.0);
    QCOMPARE(law.pdf(-1.0), 0.0);
  }

  void closedFormsForThreeCoordinates() {
    // ℓ2-Laplace(β, 3): β³r²e^{−βr}/2. Gaussian σ·χ₃ (Maxwell): √(2/π)·r²e^{−r²/(2σ²)}/σ³.
    const double beta = 2.5, sigma = 0.7;
    const NoiseNormLaw laplace = lawOf(NoiseNormLaw::Family::L2Laplace, beta, 3);
    const NoiseNormLaw gaussian = lawOf(NoiseNormLaw::Family::Gaussian, sigma, 3);
    for (double r : {0.05, 0.4, 1.0, 3.0}) {
      DPSTUDIO_COMPARE_REL(laplace.pdf(r), std::pow(beta, 3) * r * r * std::exp(-beta * r) / 2.0, 1e-13);
      DPSTUDIO_COMPARE_REL(gaussian.pdf(r),
                           std::sqrt(2.0 / std::numbers::pi) * r * r * std::exp(-r * r / (2 * sigma * sigma)) /
                               std::pow(sigma, 3),
                           1e-13);
    }
    // m = 1 at r = 0: the exponential's β and the half-normal's √(2/π)/σ; higher m vanish there.
    DPSTUDIO_COMPARE_REL(lawOf(NoiseNormLaw::Family::L2Laplace, beta, 1).pdf(0.0), beta, 1e-15);
    DPSTUDIO_COMPARE_REL(lawOf(NoiseNormLaw::Family::Gaussian, sigma, 1).pdf(0.0),
                         std::sqrt(2.0 / std::numbers::pi) / sigma, 1e-15);
    QCOMPARE(laplace.pdf(0.0), 0.0);
    QCOMPARE(gaussian.pdf(0.0), 0.0);
  }

  void describesTheLaw() {
    QCOMPARE(QString::fromStdString(lawOf(NoiseNormLaw::Family::L2Laplace, 1.0234, 18).describe()),
             QString::fromUtf8("Gamma(m = 18, \u03b2 = 1.02)"));
    QCOMPARE(QString::fromStdString(lawOf(NoiseNormLaw::Family::Gaussian, 0.25, 18).describe()),
             QString::fromUtf8("\u03c3\u00b7\u03c7\u2081\u2088, \u03c3 = 0.25"));
  }

  void invalidParametersAreNamed_data() {
    QTest::addColumn<NoiseNormLaw::Family>("family");
    QTest::addColumn<double>("parameter");
    QTest::addColumn<int>("m");
    QTest::addColumn<QString>("field");
    QTest::newRow("beta zero") << NoiseNormLaw::Family::L2Laplace << 0.0 << 3 << "beta";
    QTest::newRow("beta infinite") << NoiseNormLaw::Family::L2Laplace << HUGE_VAL << 3 << "beta";
    QTest::newRow("sigma negative") << NoiseNormLaw::Family::Gaussian << -1.0 << 3 << "sigma";
    QTest::newRow("sigma NaN") << NoiseNormLaw::Family::Gaussian << std::nan("") << 3 << "sigma";
    QTest::newRow("no coordinates") << NoiseNormLaw::Family::Gaussian << 1.0 << 0 << "m";
  }

  void invalidParametersAreNamed() {
    QFETCH(NoiseNormLaw::Family, family);
    QFETCH(double, parameter);
    QFETCH(int, m);
    QFETCH(QString, field);
    auto law = family == NoiseNormLaw::Family::L2Laplace ? NoiseNormLaw::l2Laplace(parameter, m)
                                                         : NoiseNormLaw::gaussian(parameter, m);
    QVERIFY(!law);
    QCOMPARE(law.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(QString::fromStdString(law.error().field), field);
  }
};

QTEST_GUILESS_MAIN(TestNoiseNormLaw)
#include "test_noise_norm_law.moc"
