// Noise sources, the noise primitives' contracts (shapes, norms, validation, replay) and
// the release granularity. The distribution tests are in test_noise_distributions.cpp.

#include <QTest>

#include <cmath>
#include <limits>
#include <numbers>

#include "core/privacy/noise.h"
#include "core/privacy/noise_source.h"
#include "core/privacy/release_granularity.h"
#include "core/random/rng.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

std::unique_ptr<ReleaseNoise> releaseSource() {
  auto source = ReleaseNoise::create();
  if (!source) qFatal("getrandom unavailable: %s", source.error().message.c_str());
  return std::move(source).value();
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

class TestNoise : public QObject {
  Q_OBJECT

 private slots:
  void experimentSameSeedSameDraws() {
    ExperimentNoise a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 200; ++i) {
      QCOMPARE(a.nextU64(), b.nextU64());
      QCOMPARE(a.uniform01(), b.uniform01());
      QCOMPARE(a.normal(), b.normal());
      QCOMPARE(a.gamma(3.5, 0.25), b.gamma(3.5, 0.25));
      QCOMPARE(a.uniformIndex(17), b.uniformIndex(17));
      const std::uint64_t fromA = a.nextU64(), fromC = c.nextU64();
      differs = differs || fromA != fromC;
      b.nextU64();
    }
    QVERIFY(differs);
  }

  void experimentWrapsTheProjectRng() {
    // The experiment source is Rng, so a mechanism's noise replays from the seed alone.
    ExperimentNoise noise(7);
    Rng rng(7);
    for (int i = 0; i < 50; ++i) {
      QCOMPARE(noise.normal(), rng.normal());
      QCOMPARE(noise.gamma(2.0, 1.5), rng.gamma(2.0, 1.5));
    }
    ExperimentNoise trial(7, 3);
    Rng trialRng = Rng::forTrial(7, 3);
    QCOMPARE(trial.nextU64(), trialRng.nextU64());
    QCOMPARE(trial.provenance().describe(), std::string("experiment (seed 7, trial 3)"));
    QCOMPARE(noise.provenance().describe(), std::string("experiment (seed 7)"));
    QCOMPARE(noise.provenance().kindName(), std::string("experiment"));
  }

  void releaseDrawsDifferAndStayInRange() {
    auto source = releaseSource();
    QCOMPARE(source->kind(), NoiseKind::Release);
    QCOMPARE(source->provenance().kindName(), std::string("release"));
    QVERIFY(source->nextU64() != source->nextU64());  // equal with probability 2^-64
    QVERIFY(source->normal() != source->normal());
    for (int i = 0; i < 2000; ++i) {  // crosses several buffer refills
      const double u = source->uniform01();
      QVERIFY(u >= 0.0 && u < 1.0);
      QVERIFY(source->uniformIndex(5) < 5);
      QVERIFY(std::isfinite(source->normal()));
      QVERIFY(source->gamma(2.0, 3.0) > 0.0);
    }
    auto other = releaseSource();
    QVERIFY(source->nextU64() != other->nextU64());
  }

  void makeNoiseSourceByKind() {
    QCOMPARE(parseNoiseKind("experiment"), std::optional<NoiseKind>(NoiseKind::Experiment));
    QCOMPARE(parseNoiseKind("release"), std::optional<NoiseKind>(NoiseKind::Release));
    QVERIFY(!parseNoiseKind("Release"));
    auto experiment = makeNoiseSource(NoiseKind::Experiment, 5);
    QVERIFY(experiment);
    QCOMPARE(experiment.value()->provenance().seed, std::uint64_t{5});
    auto release = makeNoiseSource(NoiseKind::Release, 5);
    QVERIFY(release);
    QCOMPARE(release.value()->kind(), NoiseKind::Release);
  }

  void drawsReportTheirNorm_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("m");
    for (const char* family : {"l2-laplace", "gaussian", "laplace"})
      for (int m : {1, 7, 300})
        QTest::newRow(qPrintable(QString("%1 m=%2").arg(family).arg(m))) << QString(family) << m;
  }

  void drawsReportTheirNorm() {
    QFETCH(QString, family);
    QFETCH(int, m);
    auto draw = [&](NoiseSource& source) {
      if (family == "l2-laplace") return drawL2Laplace(source, 2.5, m);
      if (family == "gaussian") return drawGaussian(source, 0.7, m);
      return drawLaplacePerCoordinate(source, 0.3, m);
    };
    ExperimentNoise first(11), second(11);
    auto a = draw(first);
    auto b = draw(second);
    QVERIFY(a && b);
    QCOMPARE(a.value().noise.size(), Eigen::Index{m});
    QCOMPARE(a.value().norm, a.value().noise.norm());
    QVERIFY(a.value().noise == b.value().noise);  // the seed alone recomputes the noise
    QVERIFY(a.value().noise.allFinite());
  }

  void l2LaplaceIsGammaRadiusTimesNormalDirection() {
    // Recompute the draw by hand from the same seed: m normals, then the Gamma radius.
    const int m = 5;
    const double beta = 4.0;
    ExperimentNoise noise(3);
    auto draw = drawL2Laplace(noise, beta, m);
    QVERIFY(draw);
    Rng rng(3);
    Eigen::VectorXd g(m);
    for (int i = 0; i < m; ++i) g[i] = rng.normal();
    const double radius = rng.gamma(m, 1.0 / beta);
    DPSTUDIO_COMPARE_REL(draw.value().norm, radius, 1e-14);
    QVERIFY((draw.value().noise / draw.value().norm - g / g.norm()).norm() < 1e-14);
  }

  void invalidParametersNameThemselves_data() {
    QTest::addColumn<QString>("family");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("m");
    QTest::addColumn<QString>("name");
    QTest::newRow("l2-laplace beta 0") << "l2-laplace" << 0.0 << 3 << "beta";
    QTest::newRow("l2-laplace beta negative") << "l2-laplace" << -1.0 << 3 << "beta";
    QTest::newRow("l2-laplace beta NaN") << "l2-laplace" << kNaN << 3 << "beta";
    QTest::newRow("l2-laplace beta inf") << "l2-laplace" << kInf << 3 << "beta";
    QTest::newRow("l2-laplace m 0") << "l2-laplace" << 1.0 << 0 << "m";
    QTest::newRow("gaussian sigma 0") << "gaussian" << 0.0 << 3 << "sigma";
    QTest::newRow("gaussian sigma inf") << "gaussian" << kInf << 3 << "sigma";
    QTest::newRow("gaussian m negative") << "gaussian" << 1.0 << -2 << "m";
    QTest::newRow("laplace scale NaN") << "laplace" << kNaN << 3 << "scale";
    QTest::newRow("laplace m 0") << "laplace" << 1.0 << 0 << "m";
  }

  void invalidParametersNameThemselves() {
    QFETCH(QString, family);
    QFETCH(double, scale);
    QFETCH(int, m);
    QFETCH(QString, name);
    ExperimentNoise noise(1);
    auto draw = family == "l2-laplace" ? drawL2Laplace(noise, scale, m)
                : family == "gaussian" ? drawGaussian(noise, scale, m)
                                       : drawLaplacePerCoordinate(noise, scale, m);
    QVERIFY(!draw);
    QCOMPARE(draw.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(QString::fromStdString(draw.error().field), name);
    QVERIFY2(QString::fromStdString(draw.error().message).startsWith(name + " must be"),
             draw.error().message.c_str());
  }

  void expectedNorms() {
    DPSTUDIO_COMPARE_REL(expectedNormL2Laplace(2.0, 10), 5.0, 1e-15);
    DPSTUDIO_COMPARE_REL(expectedNormGaussian(2.0, 1), 2.0 * std::sqrt(2.0 / std::numbers::pi), 1e-14);
    DPSTUDIO_COMPARE_REL(expectedNormGaussian(1.0, 2), std::sqrt(std::numbers::pi / 2.0), 1e-14);
    // Large m: E‖g‖ → σ√(m − 1/2).
    DPSTUDIO_COMPARE_REL(expectedNormGaussian(1.0, 1000000), std::sqrt(1000000 - 0.5), 1e-9);
  }

  void exponentialMechanismHugeUtilities() {
    // exp(1e4) overflows a double; the probabilities must still be exact.
    Eigen::VectorXd utility(3);
    utility << 1e4, 1e4 + 1.0, 1e4 - 2.0;
    auto p = exponentialMechanismProbabilities(1.0, utility);
    QVERIFY(p);
    const double z = 1.0 + std::exp(1.0) + std::exp(-2.0);
    DPSTUDIO_COMPARE_REL(p.value()[0], 1.0 / z, 1e-12);
    DPSTUDIO_COMPARE_REL(p.value()[1], std::exp(1.0) / z, 1e-12);
    DPSTUDIO_COMPARE_REL(p.value()[2], std::exp(-2.0) / z, 1e-12);

    Eigen::VectorXd lopsided(2);
    lopsided << 0.0, 1e4;  // P(0) = e^-1e4 = 0 in double: never chosen
    ExperimentNoise noise(9);
    for (int i = 0; i < 1000; ++i) QCOMPARE(sampleExponentialMechanism(noise, 1.0, lopsided).value(), Eigen::Index{1});
  }

  void exponentialMechanismValidation() {
    ExperimentNoise noise(1);
    Eigen::VectorXd empty;
    QCOMPARE(sampleExponentialMechanism(noise, 1.0, empty).error().field, std::string("utility"));
    Eigen::VectorXd bad(2);
    bad << 1.0, kNaN;
    QCOMPARE(sampleExponentialMechanism(noise, 1.0, bad).error().field, std::string("utility"));
    Eigen::VectorXd fine(2);
    fine << 1.0, 2.0;
    QCOMPARE(sampleExponentialMechanism(noise, 0.0, fine).error().field, std::string("beta"));
    QCOMPARE(sampleExponentialMechanism(noise, 1e308, Eigen::VectorXd::Constant(2, 1e10)).error().field,
             std::string("utility"));  // β·u overflows
  }

  void granularityIsAPowerOfTwoBelowTheScale_data() {
    QTest::addColumn<double>("scale");
    QTest::addColumn<double>("expected");
    QTest::newRow("scale 1") << 1.0 << std::ldexp(1.0, -30);
    QTest::newRow("scale 1.5") << 1.5 << std::ldexp(1.0, -30);
    QTest::newRow("scale 0.75") << 0.75 << std::ldexp(1.0, -31);
    QTest::newRow("scale 1024") << 1024.0 << std::ldexp(1.0, -20);
    QTest::newRow("scale 3e-7") << 3e-7 << std::ldexp(1.0, -52);  // 2^-22 ≤ 3e-7 < 2^-21
  }

  void granularityIsAPowerOfTwoBelowTheScale() {
    QFETCH(double, scale);
    QFETCH(double, expected);
    auto g = releaseGranularity(scale);
    QVERIFY(g);
    QCOMPARE(g.value(), expected);
    QVERIFY(g.value() <= scale * std::ldexp(1.0, -30) && g.value() > scale * std::ldexp(1.0, -31));
  }

  void roundingIsExactAndIdempotent() {
    const double g = releaseGranularity(0.5).value();
    ExperimentNoise noise(4);
    for (int i = 0; i < 1000; ++i) {
      const double x = 10.0 * noise.normal();
      const double r = roundToGranularity(x, g);
      QVERIFY(std::abs(r - x) <= g / 2);
      QCOMPARE(std::fmod(r, g), 0.0);  // an exact multiple
      QCOMPARE(roundToGranularity(r, g), r);
    }
    QCOMPARE(roundToGranularity(2.5 * g, g), 2.0 * g);  // ties to even
    QVERIFY(std::isnan(roundToGranularity(kNaN, g)));
    QVERIFY(!releaseGranularity(0.0));
    QCOMPARE(releaseGranularity(-1.0).error().field, std::string("scale"));
  }

  // Regression (issue 13 bug 5): the grid used to depend on the noise scale only. With
  // |θ| = 1e6 and scale 1e-3 it was 2^-40 while doubles near 1e6 are 2^-33 apart, so every
  // released value already lay on it and the rounding did nothing. The grid is now at least
  // 2^12 ulps of the largest released magnitude.
  void releaseGridIsCoarserThanTheFloatSpacingAtLargeMagnitudes() {
    const double scale = 1e-3;
    ExperimentNoise draws(11);
    Eigen::VectorXd values(50);
    for (Eigen::Index i = 0; i < values.size(); ++i) values[i] = (i % 2 ? 1e6 : -1e6) + scale * draws.normal();
    const double largest = values.cwiseAbs().maxCoeff();
    const double spacing = std::ldexp(1.0, -33);  // ulp of doubles in [2^19, 2^20) ∋ 1e6
    QCOMPARE(floatSpacing(largest), spacing);

    // The old grid: finer than the float spacing, so rounding to it changed nothing.
    const double old = releaseGranularity(scale).value();
    QCOMPARE(old, std::ldexp(1.0, -40));
    Eigen::VectorXd unchanged = values;
    roundToGranularity(unchanged, old);
    QVERIFY(unchanged == values);

    auto release = releaseSource();
    Eigen::VectorXd released = values;
    const double g = applyReleaseGranularity(*release, released, scale).value();
    QCOMPARE(g, std::ldexp(spacing, kReleaseGridUlpBits));  // the documented grid: 2^12 ulps
    QVERIFY(g > spacing);
    QVERIFY(released != values);
    for (Eigen::Index i = 0; i < released.size(); ++i) {
      QCOMPARE(std::fmod(released[i], g), 0.0);  // on the grid
      QVERIFY(std::abs(released[i] - values[i]) <= g / 2);
    }
    // Small magnitudes keep the noise-scale grid (it is the coarser one there).
    QCOMPARE(releaseGrid(scale, 0.5).value(), old);
    QCOMPARE(releaseGrid(scale, 0.0).value(), old);
    QVERIFY(!releaseGrid(scale, kInf));
  }

  void floatErrorCoverage() {
    // √m·ulp(M) ≤ 2^-10·Δ: 100 coordinates of magnitude ~1 against Δ = 1e-3 are covered;
    // magnitudes ~2^45 against the same Δ are not (ulp = 2^-7).
    QVERIFY(floatErrorCovered(1e-3, 100, 1.5));
    QVERIFY(!floatErrorCovered(1e-3, 100, std::ldexp(1.0, 45)));
  }

  void granularityAppliesOnlyInReleaseMode() {
    Eigen::VectorXd values(3);
    values << 0.123456789012345, -7.000000000123, 1e-12;
    Eigen::VectorXd copy = values;
    ExperimentNoise experiment(1);
    QCOMPARE(applyReleaseGranularity(experiment, copy, 1.0).value(), 0.0);
    QVERIFY(copy == values);
    auto release = releaseSource();
    const double g = applyReleaseGranularity(*release, copy, 1.0).value();
    QCOMPARE(g, std::ldexp(1.0, -30));
    QVERIFY(copy != values);
    QCOMPARE(copy[2], 0.0);
    QVERIFY((copy - values).cwiseAbs().maxCoeff() <= g / 2);
  }
};

QTEST_GUILESS_MAIN(TestNoise)
#include "test_noise.moc"
