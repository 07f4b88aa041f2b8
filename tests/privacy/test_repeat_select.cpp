// Private selection's accounting (docs/algorithms.md §3 K; core/privacy/repeat_select.h):
// the run laws (mean, inverse, the sampler's distribution), the Rényi curves of the building
// blocks against independent computations, and Papernot & Steinke's bound against its
// closed form for a Gaussian-like run and against Liu & Talwar's pure-ε limit.

#include <QTest>

#include <cmath>
#include <vector>

#include "core/privacy/noise_source.h"
#include "core/privacy/repeat_select.h"
#include "tests/privacy/statistics.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

constexpr double kLogarithmic = 0.0, kGeometric = 1.0;

// P(K = k) of the law (independent of the sampler's inversion).
double probability(double shape, double gamma, int k) {
  if (shape == kGeometric) return gamma * std::pow(1 - gamma, k - 1);
  return std::pow(1 - gamma, k) / (k * std::log(1 / gamma));
}

// D_α(Lap(0, b) ‖ Lap(1, b)) by the trapezoid rule on a wide, fine grid.
double laplaceDivergenceByQuadrature(double epsilon, double alpha) {
  const double b = 1 / epsilon;
  const double lo = -60 * b, hi = 60 * b;
  const int steps = 400000;
  const double h = (hi - lo) / steps;
  double sum = 0;
  for (int i = 0; i <= steps; ++i) {
    const double x = lo + i * h;
    const double logP = -std::abs(x) / b, logQ = -std::abs(x - 1) / b;
    const double f = std::exp(alpha * logP + (1 - alpha) * logQ) / (2 * b);
    sum += (i == 0 || i == steps ? 0.5 : 1.0) * f;
  }
  return std::log(sum * h) / (alpha - 1);
}

}  // namespace

class TestPrivacyRepeatSelect : public QObject {
  Q_OBJECT

 private slots:
  void meansAndTheirInverse() {
    QCOMPARE(repetitionMean(kGeometric, 0.1), 10.0);
    QCOMPARE(repetitionGamma(kGeometric, 10.0), 0.1);
    // Logarithmic: E[K] = (1/γ − 1)/log(1/γ); γ = 0.1 gives 9/ln 10.
    QVERIFY(std::abs(repetitionMean(kLogarithmic, 0.1) - 9 / std::log(10.0)) < 1e-12);
    for (double mean : {1.5, 4.0, 12.0, 200.0}) {
      const double gamma = repetitionGamma(kLogarithmic, mean);
      QVERIFY2(std::abs(repetitionMean(kLogarithmic, gamma) - mean) < 1e-8 * mean, qPrintable(QString::number(mean)));
    }
    QCOMPARE(repetitionMean(kLogarithmic, 1.0), 1.0);
    QCOMPARE(repetitionGamma(kLogarithmic, 1.0), 1.0);
  }

  // The sampler's whole distribution, not only its mean: Pearson χ² over K = 1..15 and the tail.
  void drawsFollowTheLaw() {
    for (double shape : {kLogarithmic, kGeometric}) {
      const double gamma = repetitionGamma(shape, 5.0);
      ExperimentNoise noise(17);
      const int categories = 16;
      std::vector<long> observed(categories, 0);
      const int draws = 40000;
      double sum = 0;
      for (int i = 0; i < draws; ++i) {
        const auto k = drawRepetitions(shape, gamma, noise);
        QVERIFY(k >= 1);
        sum += static_cast<double>(k);
        ++observed[static_cast<std::size_t>(std::min<std::uint64_t>(k, categories) - 1)];
      }
      std::vector<double> expected(categories, 0.0);
      double head = 0;
      for (int k = 1; k < categories; ++k) head += expected[static_cast<std::size_t>(k - 1)] = probability(shape, gamma, k);
      expected.back() = 1 - head;
      const auto fit = test::chiSquared(observed, expected);
      QVERIFY2(fit.pValue > 1e-3, qPrintable(QString("shape %1: chi2 %2, p %3").arg(shape).arg(fit.statistic).arg(fit.pValue)));
      QVERIFY2(std::abs(sum / draws - 5.0) < 0.25, qPrintable(QString::number(sum / draws)));
    }
  }

  void laplaceCurveMatchesQuadrature() {
    for (double epsilon : {0.1, 1.0}) {
      const std::vector<double> orders{1.5, 2.0, 8.0};
      const auto curve = laplaceRdp(epsilon, orders);
      for (std::size_t i = 0; i < orders.size(); ++i) {
        const double direct = laplaceDivergenceByQuadrature(epsilon, orders[i]);
        QVERIFY2(std::abs(curve[i] - direct) < 1e-6 * std::max(1.0, direct),
                 qPrintable(QString("eps %1 order %2: %3 vs %4").arg(epsilon).arg(orders[i]).arg(curve[i]).arg(direct)));
        QVERIFY(curve[i] <= epsilon);
      }
    }
    // Towards pure ε at high orders.
    QVERIFY(std::abs(laplaceRdp(0.5, {1e6})[0] - 0.5) < 1e-5);
  }

  void pureAndGaussianCurves() {
    const auto pure = pureDpRdp(0.5, {2.0, 100.0});
    QCOMPARE(pure[0], 0.25);  // α ε²/2 below ε
    QCOMPARE(pure[1], 0.5);   // ε
    QCOMPARE(gaussianRdp(2.0, 4.0, {3.0})[0], 3.0 * 4.0 / 32.0);
  }

  // A run with ε(α) = ρα (Gaussian-like): the minimum over λ̂ of (1 − 1/λ̂)ρλ̂ + log(1/γ)/λ̂ is
  // 2√(ρ log(1/γ)) − ρ at λ̂ = √(log(1/γ)/ρ), so the bound has a closed form on a fine grid.
  void gaussianRunHasTheClosedForm() {
    const double rho = 0.01;
    std::vector<double> orders;
    for (double a = 1.01; a < 400; a += 0.01) orders.push_back(a);
    std::vector<double> run(orders.size());
    for (std::size_t i = 0; i < orders.size(); ++i) run[i] = rho * orders[i];
    for (double shape : {kLogarithmic, kGeometric}) {
      const double gamma = repetitionGamma(shape, 10.0);
      const auto bound = repeatAndSelectRdp(orders, run, shape, gamma);
      const double L = std::log(1 / gamma);
      const double constant = (1 + shape) * (2 * std::sqrt(rho * L) - rho);
      // Where ε'(λ) already increases (ρ > log E[K]/(λ − 1)²), the monotone envelope is the bound itself.
      for (double lambda : {30.0, 50.0, 100.0}) {
        const auto i = static_cast<std::size_t>(std::lround((lambda - 1.01) / 0.01));
        const double closed = rho * orders[i] + constant + std::log(repetitionMean(shape, gamma)) / (orders[i] - 1);
        QVERIFY2(std::abs(bound[i] - closed) < 1e-6,
                 qPrintable(QString("shape %1 order %2: %3 vs %4").arg(shape).arg(orders[i]).arg(bound[i]).arg(closed)));
      }
      for (std::size_t i = 1; i < bound.size(); ++i) QVERIFY(bound[i - 1] <= bound[i]);
    }
  }

  // ε-DP runs: the selection is (2 + η)ε-DP — Liu & Talwar's 3ε for the geometric law — and
  // the Rényi bound tends to it at high orders.
  void pureRunsTendToTheirLimit() {
    QCOMPARE(repeatAndSelectPureEpsilon(0.3, kGeometric), 0.9);
    QCOMPARE(repeatAndSelectPureEpsilon(0.3, kLogarithmic), 0.6);
    const std::vector<double> orders{2, 10, 1e4, 1e7};
    const std::vector<double> run(orders.size(), 0.3);
    for (double shape : {kLogarithmic, kGeometric}) {
      const auto bound = repeatAndSelectRdp(orders, run, shape, repetitionGamma(shape, 20.0));
      QVERIFY2(std::abs(bound.back() - (2 + shape) * 0.3) < 1e-5, qPrintable(QString::number(bound.back())));
      QVERIFY(bound.front() <= bound.back());
    }
  }
};

QTEST_APPLESS_MAIN(TestPrivacyRepeatSelect)
#include "test_repeat_select.moc"
