#pragma once
// The statistics of the empirical privacy audit (docs/algorithms.md §3 J): error rates of threshold
// tests that try to tell D from D' by one scalar per run, their Clopper–Pearson bounds, and
// the ε those rates force.
//
// If a mechanism is (ε, δ)-DP, every test "guess D' when the statistic is above t" (or below)
// has FPR + e^ε·FNR ≥ 1 − δ and FNR + e^ε·FPR ≥ 1 − δ (Kairouz, Oh & Viswanath 2015), so
//     ε ≥ max( log((1 − δ − FPR)/FNR), log((1 − δ − FNR)/FPR) ).
// With upper confidence bounds FPR_hi, FNR_hi in place of the rates (the right side only
// grows as they shrink), the result is a lower bound on ε at the bounds' joint confidence.
//
// Choosing the best of many thresholds on the same runs would make the confidence void (the
// maximum of many 95% bounds is not a 95% bound), so the audit SELECTS the threshold, its
// direction, on one part of the runs and CERTIFIES it on the other, held-out part, with each
// rate's one-sided Clopper–Pearson bound at 97.5% (both hold together with ≥ 95%). Pure
// functions, thread-safe.

#include <cstddef>
#include <vector>

namespace dpstudio::audit {

// Per-rate confidence: FPR and FNR bounds hold together with ≥ 1 − 2·0.025 = 95%.
inline constexpr double kRateConfidence = 0.975;

// One-sided Clopper–Pearson bounds on a binomial proportion from k successes in n ≥ 1
// trials: P(p ≤ upper) ≥ confidence, P(p ≥ lower) ≥ confidence (Boost.Math beta quantiles).
// upper(n, n) = 1 and lower(0, n) = 0.
double clopperPearsonUpper(long long k, long long n, double confidence);
double clopperPearsonLower(long long k, long long n, double confidence);

// max(log((1−δ−fpr)/fnr), log((1−δ−fnr)/fpr)); −∞ when neither numerator is > 0.
double epsilonFromRates(double fpr, double fnr, double delta);

// The audit's power: the largest ε_lower a certification on n0 runs on D and n1 on D' can
// ever report — the bound of a test that misclassifies none of them (FPR_hi = CP_upper(0, n0)
// = 1 − (1 − confidence)^(1/n0), FNR_hi likewise), max(0, epsilonFromRates(FPR_hi, FNR_hi, δ)).
// The bound only grows as either count of errors falls, so no outcome of those runs, whatever
// the mechanism and the statistic, certifies more. A claimed ε at or above it can never be
// flagged by such an audit; a violation is detectable only where the claim is below it — and
// then only if the statistic separates D from D' that well, so an ε_lower far below both the
// claim and this figure says that this canary and statistic saw little, not that the
// mechanism is private. Grows with the runs (≈ log(n / ln(1/(1 − confidence))) for δ = 0).
double detectableEpsilon(long long n0, long long n1, double delta, double confidence);

// "Guess D' when s > threshold" (above) or "when s < threshold" (below).
struct Decision {
  double threshold = 0;
  bool above = true;
};

struct RatePoint {
  double threshold = 0;
  double fpr = 0, fnr = 0;            // empirical, of the "above" test
  double fprUpper = 0, fnrUpper = 0;  // Clopper–Pearson upper bounds at the given confidence
  double epsilon = 0;                 // epsilonFromRates(fprUpper, fnrUpper, δ) (may be −∞)
};

// Rates of a decision on samples from D (`sortedD`) and D' (`sortedDprime`), both sorted
// ascending. For decision.above = false the rates are of the "below" test.
RatePoint ratesAt(const std::vector<double>& sortedD, const std::vector<double>& sortedDprime, const Decision& decision,
                  double confidence, double delta);

// Thresholds halfway between consecutive distinct values of the pooled samples (sorted
// ascending), thinned to at most maxCount at evenly spaced pooled ranks, plus one below the
// smallest and one above the largest value.
std::vector<double> candidateThresholds(std::vector<double> pooled, std::size_t maxCount);

struct Certificate {
  Decision decision;            // chosen on the selection runs
  double selectedEpsilon = 0;   // its bound on the selection runs
  RatePoint heldOut;            // its rates on the certification runs (for decision.above = false, of that test)
  double epsilonLower = 0;      // max(0, heldOut.epsilon): the certified lower bound
};

// Picks the (threshold, direction) with the largest bound on the selection samples, then
// bounds it on the certification samples. `confidence` is per rate (0.975 for 95% jointly).
Certificate selectAndCertify(const std::vector<double>& selectionD, const std::vector<double>& selectionDprime,
                             const std::vector<double>& certifyD, const std::vector<double>& certifyDprime,
                             double delta, double confidence, std::size_t maxThresholds);

// The whole-sample curve of the "above" test over candidateThresholds (for plots), and the
// largest bound over it and both directions WITHOUT the selection/certification split (not a
// valid confidence statement; shown for comparison).
struct Curve {
  std::vector<RatePoint> points;
  double epsilonUncorrected = 0;
};
Curve rateCurve(const std::vector<double>& samplesD, const std::vector<double>& samplesDprime, double delta,
                double confidence, std::size_t maxThresholds);

}  // namespace dpstudio::audit
