// The samplers against the law of their norm (label "statistical"): Kolmogorov–Smirnov of
// ‖b‖ drawn by drawL2Laplace and drawGaussian — the samplers every mechanism uses — and by
// NoiseNormLaw::sample (the Noise view's simulation) against NoiseNormLaw::cdf, and the
// same test rejecting a wrong law (shape m−1, or σ·1.1), so that it has the power to fail.
// Fixed seeds: deterministic.

#include <QTest>

#include <functional>
#include <vector>

#include "core/privacy/noise.h"
#include "core/privacy/noise_norm_law.h"
#include "tests/privacy/statistics.h"

using namespace dpstudio;
using dpstudio::test::kolmogorovSmirnov;
using privacy::ExperimentNoise;
using privacy::NoiseNormLaw;

namespace {

constexpr int kSamples = 20000;
constexpr double kAccept = 1e-3;  // deterministic with fixed seeds
constexpr double kReject = 1e-6;  // a wrong law must be far out

using Draw = std::function<double(privacy::NoiseSource&)>;

std::vector<double> norms(std::uint64_t seed, const Draw& draw) {
  ExperimentNoise noise(seed);
  std::vector<double> out;
  out.reserve(kSamples);
  for (int i = 0; i < kSamples; ++i) out.push_back(draw(noise));
  return out;
}

void requireFollows(const std::vector<double>& sample, const NoiseNormLaw& law) {
  const auto fit = kolmogorovSmirnov(sample, [&](double r) { return law.cdf(r); });
  QVERIFY2(fit.pValue > kAccept, qPrintable(QString("%1: D = %2, p = %3")
                                                .arg(QString::fromStdString(law.describe()))
                                                .arg(fit.statistic)
                                                .arg(fit.pValue)));
}

void requireRejects(const std::vector<double>& sample, const NoiseNormLaw& wrong) {
  const auto fit = kolmogorovSmirnov(sample, [&](double r) { return wrong.cdf(r); });
  QVERIFY2(fit.pValue < kReject, qPrintable(QString("the wrong law %1 was not rejected: D = %2, p = %3")
                                                .arg(QString::fromStdString(wrong.describe()))
                                                .arg(fit.statistic)
                                                .arg(fit.pValue)));
}

}  // namespace

class TestNoiseNormLawFit : public QObject {
  Q_OBJECT

 private slots:
  void l2LaplaceNormsFollowGamma_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<double>("beta");
    for (int m : {2, 3, 18, 200}) QTest::newRow(qPrintable(QString("m %1").arg(m))) << m << 1.02;
    QTest::newRow("m 18 beta 40") << 18 << 40.0;
  }

  void l2LaplaceNormsFollowGamma() {
    QFETCH(int, m);
    QFETCH(double, beta);
    const NoiseNormLaw law = NoiseNormLaw::l2Laplace(beta, m).value();
    const auto drawn = norms(3000 + m, [&](privacy::NoiseSource& s) { return privacy::drawL2Laplace(s, beta, m).value().norm; });
    requireFollows(drawn, law);
    requireRejects(drawn, NoiseNormLaw::l2Laplace(beta, m - 1).value());
    requireFollows(norms(4000 + m, [&](privacy::NoiseSource& s) { return law.sample(s); }), law);
  }

  void gaussianNormsFollowSigmaChi_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<double>("sigma");
    for (int m : {1, 2, 18, 200}) QTest::newRow(qPrintable(QString("m %1").arg(m))) << m << 0.3;
    QTest::newRow("m 18 sigma 50") << 18 << 50.0;
  }

  void gaussianNormsFollowSigmaChi() {
    QFETCH(int, m);
    QFETCH(double, sigma);
    const NoiseNormLaw law = NoiseNormLaw::gaussian(sigma, m).value();
    const auto drawn = norms(5000 + m, [&](privacy::NoiseSource& s) { return privacy::drawGaussian(s, sigma, m).value().norm; });
    requireFollows(drawn, law);
    requireRejects(drawn, NoiseNormLaw::gaussian(sigma * 1.1, m).value());
    requireFollows(norms(6000 + m, [&](privacy::NoiseSource& s) { return law.sample(s); }), law);
  }
};

QTEST_GUILESS_MAIN(TestNoiseNormLawFit)
#include "test_noise_norm_law_fit.moc"
