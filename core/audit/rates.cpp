#include "core/audit/rates.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <boost/math/distributions/beta.hpp>

namespace dpstudio::audit {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

long long countAbove(const std::vector<double>& sorted, double t) {
  return static_cast<long long>(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), t));
}

long long countBelow(const std::vector<double>& sorted, double t) {
  return static_cast<long long>(std::lower_bound(sorted.begin(), sorted.end(), t) - sorted.begin());
}

std::vector<double> sortedCopy(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

double clopperPearsonUpper(long long k, long long n, double confidence) {
  if (k >= n) return 1.0;
  const boost::math::beta_distribution<double> law(static_cast<double>(k + 1), static_cast<double>(n - k));
  return boost::math::quantile(law, confidence);
}

double clopperPearsonLower(long long k, long long n, double confidence) {
  if (k <= 0) return 0.0;
  const boost::math::beta_distribution<double> law(static_cast<double>(k), static_cast<double>(n - k + 1));
  return boost::math::quantile(law, 1.0 - confidence);
}

double epsilonFromRates(double fpr, double fnr, double delta) {
  double best = kNegInf;
  if (1.0 - delta - fpr > 0 && fnr > 0) best = std::max(best, std::log((1.0 - delta - fpr) / fnr));
  if (1.0 - delta - fnr > 0 && fpr > 0) best = std::max(best, std::log((1.0 - delta - fnr) / fpr));
  return best;
}

double detectableEpsilon(long long n0, long long n1, double delta, double confidence) {
  const double best = epsilonFromRates(clopperPearsonUpper(0, n0, confidence), clopperPearsonUpper(0, n1, confidence),
                                       delta);
  return std::max(0.0, best);
}

RatePoint ratesAt(const std::vector<double>& sortedD, const std::vector<double>& sortedDprime, const Decision& decision,
                  double confidence, double delta) {
  const auto n0 = static_cast<long long>(sortedD.size()), n1 = static_cast<long long>(sortedDprime.size());
  // False positive: a run on D that the test calls D'. False negative: a run on D' it calls D.
  const long long falsePositives =
      decision.above ? countAbove(sortedD, decision.threshold) : countBelow(sortedD, decision.threshold);
  const long long falseNegatives = decision.above ? n1 - countAbove(sortedDprime, decision.threshold)
                                                  : n1 - countBelow(sortedDprime, decision.threshold);
  RatePoint p;
  p.threshold = decision.threshold;
  p.fpr = static_cast<double>(falsePositives) / static_cast<double>(n0);
  p.fnr = static_cast<double>(falseNegatives) / static_cast<double>(n1);
  p.fprUpper = clopperPearsonUpper(falsePositives, n0, confidence);
  p.fnrUpper = clopperPearsonUpper(falseNegatives, n1, confidence);
  p.epsilon = epsilonFromRates(p.fprUpper, p.fnrUpper, delta);
  return p;
}

std::vector<double> candidateThresholds(std::vector<double> pooled, std::size_t maxCount) {
  std::sort(pooled.begin(), pooled.end());
  pooled.erase(std::unique(pooled.begin(), pooled.end()), pooled.end());
  std::vector<double> thresholds;
  if (pooled.empty()) return thresholds;
  const double spread = std::max(1.0, std::abs(pooled.back() - pooled.front()));
  thresholds.push_back(pooled.front() - spread);
  const std::size_t gaps = pooled.size() - 1;
  const std::size_t keep = std::min(gaps, std::max<std::size_t>(maxCount, 1));
  for (std::size_t k = 0; k < keep; ++k) {
    // Evenly spaced ranks among the gaps (all of them when there are few).
    const std::size_t gap = keep == gaps ? k : (k * gaps) / keep;
    thresholds.push_back(pooled[gap] + (pooled[gap + 1] - pooled[gap]) / 2.0);
  }
  thresholds.push_back(pooled.back() + spread);
  return thresholds;
}

Certificate selectAndCertify(const std::vector<double>& selectionD, const std::vector<double>& selectionDprime,
                             const std::vector<double>& certifyD, const std::vector<double>& certifyDprime,
                             double delta, double confidence, std::size_t maxThresholds) {
  const std::vector<double> s0 = sortedCopy(selectionD), s1 = sortedCopy(selectionDprime);
  std::vector<double> pooled = s0;
  pooled.insert(pooled.end(), s1.begin(), s1.end());
  Certificate best;
  best.selectedEpsilon = kNegInf;
  for (double t : candidateThresholds(pooled, maxThresholds))
    for (bool above : {true, false}) {
      const RatePoint p = ratesAt(s0, s1, {t, above}, confidence, delta);
      if (p.epsilon > best.selectedEpsilon) {
        best.selectedEpsilon = p.epsilon;
        best.decision = {t, above};
      }
    }
  best.heldOut = ratesAt(sortedCopy(certifyD), sortedCopy(certifyDprime), best.decision, confidence, delta);
  best.epsilonLower = std::max(0.0, best.heldOut.epsilon);
  return best;
}

Curve rateCurve(const std::vector<double>& samplesD, const std::vector<double>& samplesDprime, double delta,
                double confidence, std::size_t maxThresholds) {
  const std::vector<double> s0 = sortedCopy(samplesD), s1 = sortedCopy(samplesDprime);
  std::vector<double> pooled = s0;
  pooled.insert(pooled.end(), s1.begin(), s1.end());
  Curve curve;
  for (double t : candidateThresholds(pooled, maxThresholds)) {
    curve.points.push_back(ratesAt(s0, s1, {t, true}, confidence, delta));
    const RatePoint below = ratesAt(s0, s1, {t, false}, confidence, delta);
    curve.epsilonUncorrected = std::max({curve.epsilonUncorrected, curve.points.back().epsilon, below.epsilon});
  }
  return curve;
}

}  // namespace dpstudio::audit
