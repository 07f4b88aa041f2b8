// The samplers by distribution, not by mean (label "statistical"): Kolmogorov–Smirnov of
// the ℓ2-Laplace norm against Gamma(m, 1/β) and of a direction coordinate against the
// uniform-sphere marginal, of Gaussian and Laplace coordinates against their laws, and χ²
// of exponential-mechanism frequencies against the exact probabilities — including huge
// utilities. Fixed seeds: the experiment-source tests are deterministic. The release-source
// tests are not (by design) and use a 1e-6 threshold.

#include <QTest>
#include <QVector>

#include <cmath>

#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "core/privacy/noise.h"
#include "tests/privacy/statistics.h"

using namespace dpstudio;
using namespace dpstudio::privacy;
using dpstudio::test::chiSquared;
using dpstudio::test::kolmogorovSmirnov;

namespace {

constexpr int kSamples = 20000;
constexpr double kSeededThreshold = 1e-3;   // deterministic with fixed seeds
constexpr double kReleaseThreshold = 1e-6;  // a false failure once in a million runs

double normalCdf(double x, double sigma) { return 0.5 * std::erfc(-x / (sigma * std::sqrt(2.0))); }

double laplaceCdf(double x, double b) {
  return x < 0 ? 0.5 * std::exp(x / b) : 1.0 - 0.5 * std::exp(-x / b);
}

#define REQUIRE_FIT(fit, threshold)                                                          \
  QVERIFY2((fit).pValue > (threshold),                                                      \
           qPrintable(QString("statistic %1, p = %2").arg((fit).statistic).arg((fit).pValue)))

}  // namespace

class TestNoiseDistributions : public QObject {
  Q_OBJECT

 private slots:
  void l2LaplaceNormIsGamma_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<double>("beta");
    for (int m : {1, 2, 3, 10, 100})
      for (double beta : {0.5, 40.0})
        QTest::newRow(qPrintable(QString("m %1 beta %2").arg(m).arg(beta))) << m << beta;
  }

  void l2LaplaceNormIsGamma() {
    QFETCH(int, m);
    QFETCH(double, beta);
    ExperimentNoise noise(1000 + m);
    std::vector<double> norms;
    for (int i = 0; i < kSamples; ++i) norms.push_back(drawL2Laplace(noise, beta, m).value().norm);
    const auto fit = kolmogorovSmirnov(norms, [&](double r) {
      return boost::math::gamma_p(static_cast<double>(m), beta * r);
    });
    REQUIRE_FIT(fit, kSeededThreshold);
  }

  void l2LaplaceDirectionIsUniformOnTheSphere_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("coordinate");
    for (int m : {2, 3, 5, 50}) {
      QTest::newRow(qPrintable(QString("m %1 first coordinate").arg(m))) << m << 0;
      QTest::newRow(qPrintable(QString("m %1 last coordinate").arg(m))) << m << m - 1;
    }
  }

  void l2LaplaceDirectionIsUniformOnTheSphere() {
    // A coordinate t of a uniform point on S^{m−1}: (1+t)/2 ~ Beta((m−1)/2, (m−1)/2);
    // for m = 3 that is Beta(1, 1), i.e. t uniform on [−1, 1] (Archimedes).
    QFETCH(int, m);
    QFETCH(int, coordinate);
    ExperimentNoise noise(2000 + m);
    std::vector<double> values;
    for (int i = 0; i < kSamples; ++i) {
      const auto draw = drawL2Laplace(noise, 2.0, m).value();
      values.push_back(draw.noise[coordinate] / draw.norm);
    }
    const double a = (m - 1) / 2.0;
    const auto fit = kolmogorovSmirnov(values, [&](double t) {
      const double x = std::clamp((1.0 + t) / 2.0, 0.0, 1.0);
      return boost::math::ibeta(a, a, x);
    });
    REQUIRE_FIT(fit, kSeededThreshold);
    if (m == 3) {
      const auto uniform = kolmogorovSmirnov(values, [](double t) { return (t + 1.0) / 2.0; });
      REQUIRE_FIT(uniform, kSeededThreshold);
    }
  }

  void gaussianCoordinates_data() {
    QTest::addColumn<double>("sigma");
    QTest::newRow("sigma 1") << 1.0;
    QTest::newRow("sigma 0.003") << 0.003;
    QTest::newRow("sigma 30.7") << 30.7;
  }

  void gaussianCoordinates() {
    QFETCH(double, sigma);
    ExperimentNoise noise(31);
    const auto draw = drawGaussian(noise, sigma, kSamples).value();
    std::vector<double> values(draw.noise.data(), draw.noise.data() + draw.noise.size());
    REQUIRE_FIT(kolmogorovSmirnov(values, [&](double x) { return normalCdf(x, sigma); }),
                kSeededThreshold);
  }

  void laplaceCoordinates_data() {
    QTest::addColumn<double>("scale");
    QTest::newRow("b 1") << 1.0;
    QTest::newRow("b 0.02") << 0.02;
    QTest::newRow("b 500") << 500.0;
  }

  void laplaceCoordinates() {
    QFETCH(double, scale);
    ExperimentNoise noise(41);
    std::vector<double> values;
    for (int i = 0; i < kSamples / 4; ++i) {  // several coordinates per draw
      const auto draw = drawLaplacePerCoordinate(noise, scale, 4).value();
      values.insert(values.end(), draw.noise.data(), draw.noise.data() + 4);
    }
    REQUIRE_FIT(kolmogorovSmirnov(values, [&](double x) { return laplaceCdf(x, scale); }),
                kSeededThreshold);
  }

  void exponentialMechanismFrequencies_data() {
    QTest::addColumn<double>("beta");
    QTest::addColumn<QVector<double>>("utility");
    QTest::newRow("small utilities") << 1.0 << QVector<double>{0, 1, 2, 0.5};
    QTest::newRow("votes beta 0.1") << 0.1 << QVector<double>{30, 45, 25};
    QTest::newRow("huge utilities beta*u 1e4") << 1.0 << QVector<double>{1e4, 1e4 + 0.5, 1e4 - 1, 1e4 + 1};
    QTest::newRow("huge beta beta*u 1e4") << 1e3 << QVector<double>{10.0, 10.001, 10.0005};
    QTest::newRow("huge negative utilities") << 2.0 << QVector<double>{-5e3, -5e3 + 0.25, -5e3 - 0.5};
    QTest::newRow("one candidate") << 1.0 << QVector<double>{7};
  }

  void exponentialMechanismFrequencies() {
    QFETCH(double, beta);
    QFETCH(QVector<double>, utility);
    const Eigen::VectorXd u = Eigen::Map<const Eigen::VectorXd>(utility.data(), utility.size());
    const Eigen::VectorXd p = exponentialMechanismProbabilities(beta, u).value();
    QVERIFY(p.allFinite());
    QCOMPARE(p.sum(), 1.0);
    ExperimentNoise noise(51);
    std::vector<long> counts(static_cast<std::size_t>(u.size()), 0);
    constexpr int kDraws = 100000;
    for (int i = 0; i < kDraws; ++i) ++counts[static_cast<std::size_t>(sampleExponentialMechanism(noise, beta, u).value())];
    if (u.size() == 1) {
      QCOMPARE(counts[0], long{kDraws});
      return;
    }
    const auto fit = chiSquared(counts, std::vector<double>(p.data(), p.data() + p.size()));
    REQUIRE_FIT(fit, kSeededThreshold);
  }

  void testsHavePower() {
    // Negative controls: the same tests reject a law that is off by a little, so the
    // passes above mean something.
    ExperimentNoise noise(61);
    std::vector<double> norms;
    for (int i = 0; i < kSamples; ++i) norms.push_back(drawL2Laplace(noise, 2.0, 3).value().norm);
    const auto wrongScale = kolmogorovSmirnov(norms, [](double r) {
      return boost::math::gamma_p(3.0, 2.0 * r / 1.05);  // scale 5% too large
    });
    QVERIFY(wrongScale.pValue < 1e-6);
    const auto wrongShape = kolmogorovSmirnov(norms, [](double r) {
      return boost::math::gamma_p(3.2, 2.0 * r * 3.2 / 3.0);  // same mean, other shape
    });
    QVERIFY(wrongShape.pValue < 1e-3);
    Eigen::VectorXd u(3);
    u << 0.0, 1.0, 2.0;
    std::vector<long> counts(3, 0);
    for (int i = 0; i < 100000; ++i) ++counts[static_cast<std::size_t>(sampleExponentialMechanism(noise, 1.0, u).value())];
    const Eigen::VectorXd p = exponentialMechanismProbabilities(1.1, u).value();  // β off by 10%
    QVERIFY(chiSquared(counts, std::vector<double>(p.data(), p.data() + 3)).pValue < 1e-3);
  }

  void releaseSourceSamplers() {
    auto source = ReleaseNoise::create();
    QVERIFY(source);
    NoiseSource& noise = *source.value();
    const auto gaussian = drawGaussian(noise, 2.0, kSamples).value();
    std::vector<double> values(gaussian.noise.data(), gaussian.noise.data() + gaussian.noise.size());
    REQUIRE_FIT(kolmogorovSmirnov(values, [](double x) { return normalCdf(x, 2.0); }), kReleaseThreshold);
    std::vector<double> norms;
    for (int i = 0; i < 5000; ++i) norms.push_back(drawL2Laplace(noise, 3.0, 4).value().norm);
    REQUIRE_FIT(kolmogorovSmirnov(norms, [](double r) { return boost::math::gamma_p(4.0, 3.0 * r); }),
                kReleaseThreshold);
    std::vector<double> uniforms;
    for (int i = 0; i < kSamples; ++i) uniforms.push_back(noise.uniform01());
    REQUIRE_FIT(kolmogorovSmirnov(uniforms, [](double x) { return x; }), kReleaseThreshold);
  }
};

QTEST_GUILESS_MAIN(TestNoiseDistributions)
#include "test_noise_distributions.moc"
