// The audit's statistics (ALGORITHMS §3 J): Clopper–Pearson bounds against closed forms,
// the ε implied by error rates, thresholds, and selection/certification on samples whose
// true privacy loss is known (a Laplace shift).

#include <QTest>

#include <cmath>

#include "core/audit/rates.h"
#include "core/random/rng.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::audit;

namespace {

// Laplace(0, 1) samples shifted by `shift`: the optimal test's ε is exactly `shift`.
std::vector<double> laplace(std::size_t n, double shift, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> out(n);
  for (double& x : out) {
    const double u = rng.uniform01() - 0.5;
    x = shift - (u < 0 ? -1.0 : 1.0) * std::log1p(-2.0 * std::abs(u));
  }
  return out;
}

}  // namespace

class TestAuditRates : public QObject {
  Q_OBJECT

 private slots:
  // k = 0: the upper bound solves (1 − p)^n = 1 − c, so p = 1 − (1 − c)^{1/n}; k = n: the
  // lower bound solves p^n = 1 − c.
  void clopperPearsonClosedForms() {
    DPSTUDIO_COMPARE_REL(clopperPearsonUpper(0, 10, 0.975), 1 - std::pow(0.025, 0.1), 1e-12);
    DPSTUDIO_COMPARE_REL(clopperPearsonLower(10, 10, 0.975), std::pow(0.025, 0.1), 1e-12);
    QCOMPARE(clopperPearsonUpper(10, 10, 0.975), 1.0);
    QCOMPARE(clopperPearsonLower(0, 10, 0.975), 0.0);
    // Symmetry: lower(k, n) = 1 − upper(n − k, n).
    DPSTUDIO_COMPARE_REL(clopperPearsonLower(37, 200, 0.95), 1 - clopperPearsonUpper(163, 200, 0.95), 1e-12);
    // k = 1, n = 2, c = 0.975: the upper bound solves P(X ≤ 1) = 1 − p² = 0.025.
    DPSTUDIO_COMPARE_REL(clopperPearsonUpper(1, 2, 0.975), std::sqrt(0.975), 1e-12);
    // Large n: close to the normal approximation p̂ + z·√(p̂(1−p̂)/n).
    const double hi = clopperPearsonUpper(5000, 20000, 0.975);
    QVERIFY(std::abs(hi - (0.25 + 1.959964 * std::sqrt(0.25 * 0.75 / 20000))) < 2e-4);
  }

  void epsilonFromRatesBothTerms() {
    DPSTUDIO_COMPARE_REL(epsilonFromRates(0.1, 0.5, 0.0), std::log(0.5 / 0.1), 1e-15);
    DPSTUDIO_COMPARE_REL(epsilonFromRates(0.5, 0.1, 0.0), std::log(0.5 / 0.1), 1e-15);
    DPSTUDIO_COMPARE_REL(epsilonFromRates(0.1, 0.5, 0.05), std::log(0.45 / 0.1), 1e-15);
    QVERIFY(std::isinf(epsilonFromRates(1.0, 1.0, 0.0)));
  }

  void thresholdsSplitDistinctValues() {
    const auto t = candidateThresholds({0, 1, 1, 2, 0}, 100);
    QCOMPARE(t.size(), std::size_t(4));
    QCOMPARE(t[1], 0.5);
    QCOMPARE(t[2], 1.5);
    QVERIFY(t.front() < 0 && t.back() > 2);
    QCOMPARE(candidateThresholds(laplace(5000, 0, 1), 50).size(), std::size_t(52));
  }

  void ratesOfBothDirections() {
    const std::vector<double> d{0, 0, 0, 1}, dprime{0, 1, 1, 1};
    const RatePoint above = ratesAt(d, dprime, {0.5, true}, 0.975, 0);
    QCOMPARE(above.fpr, 0.25);
    QCOMPARE(above.fnr, 0.25);
    const RatePoint below = ratesAt(d, dprime, {0.5, false}, 0.975, 0);
    QCOMPARE(below.fpr, 0.75);
    QCOMPARE(below.fnr, 0.75);
  }

  // A Laplace shift of 1 is exactly 1-DP: the certified bound comes close to 1 without
  // passing it; a shift of 2 is found to exceed a claim of 1.
  void certifiesALaplaceShift() {
    const std::size_t n = 20000;
    const auto c = selectAndCertify(laplace(n, 0, 1), laplace(n, 1, 2), laplace(n, 0, 3), laplace(n, 1, 4), 0.0,
                                    0.975, 400);
    qInfo("shift 1: selected %.3f, certified %.3f (threshold %.3f, %s)", c.selectedEpsilon, c.epsilonLower,
          c.decision.threshold, c.decision.above ? "above" : "below");
    QVERIFY(c.epsilonLower <= 1.0);
    QVERIFY(c.epsilonLower > 0.6);
    QVERIFY(c.decision.above);
    const auto two = selectAndCertify(laplace(n, 0, 5), laplace(n, 2, 6), laplace(n, 0, 7), laplace(n, 2, 8), 0.0,
                                      0.975, 400);
    QVERIFY2(two.epsilonLower > 1.0, qPrintable(QString::number(two.epsilonLower)));
    const Curve curve = rateCurve(laplace(n, 0, 1), laplace(n, 1, 2), 0.0, 0.975, 100);
    QCOMPARE(curve.points.size(), std::size_t(102));
    QVERIFY(curve.epsilonUncorrected >= c.epsilonLower - 0.2);
  }
};

QTEST_GUILESS_MAIN(TestAuditRates)
#include "test_audit_rates.moc"
