// The audit's statistics (docs/algorithms.md §3 J): Clopper–Pearson bounds against closed forms,
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

  // Issue 30 item 11: "no violation" stated no power, and an ε_lower of 0.02 against a claimed
  // 1 read like evidence. The most a certification on n runs per side can report is the bound
  // of a test that misclassifies none of them: FPR_hi = FNR_hi = u = 1 − 0.025^(1/n), so
  // ε_max = ln((1 − δ − u)/u). By hand for n = 100: ln(0.025)/100 = −0.0368888,
  // u = 1 − e^−0.0368888 = 0.0362171, (1 − u)/u = 26.6113, ε_max = 3.2813.
  void detectableEpsilonIsTheBoundOfAPerfectTest() {
    QVERIFY(std::abs(detectableEpsilon(100, 100, 0.0, kRateConfidence) - 3.2813) < 1e-4);
    const double u = 1.0 - std::pow(0.025, 1.0 / 100.0);
    DPSTUDIO_COMPARE_REL(detectableEpsilon(100, 100, 0.1, kRateConfidence), std::log((0.9 - u) / u), 1e-12);
    // n = 10 000 (the default 20 000 trials, half certifying): 7.905.
    QVERIFY(std::abs(detectableEpsilon(10000, 10000, 0.0, kRateConfidence) - 7.905) < 1e-3);
    // More runs, more power.
    double last = 0;
    for (long long n : {100LL, 200LL, 1000LL, 10000LL, 100000LL}) {
      const double power = detectableEpsilon(n, n, 0.0, kRateConfidence);
      QVERIFY2(power > last, qPrintable(QString("n %1: %2 after %3").arg(n).arg(power).arg(last)));
      last = power;
    }
    QCOMPARE(detectableEpsilon(100, 1000, 0.0, kRateConfidence), detectableEpsilon(1000, 100, 0.0, kRateConfidence));
    // It is reached: samples a threshold separates perfectly certify exactly it, never more.
    const std::vector<double> onD(100, 0.0), onDprime(100, 1.0);
    const auto perfect = selectAndCertify(onD, onDprime, onD, onDprime, 0.0, kRateConfidence, 10);
    QCOMPARE(perfect.epsilonLower, detectableEpsilon(100, 100, 0.0, kRateConfidence));
    const auto shifted = selectAndCertify(laplace(100, 0, 1), laplace(100, 30, 2), laplace(100, 0, 3),
                                          laplace(100, 30, 4), 0.0, kRateConfidence, 400);
    QVERIFY(shifted.epsilonLower <= detectableEpsilon(100, 100, 0.0, kRateConfidence));
  }
};

QTEST_GUILESS_MAIN(TestAuditRates)
#include "test_audit_rates.moc"
