#pragma once
// Goodness-of-fit tests for the sampler tests: one-sample Kolmogorov–Smirnov against a
// continuous CDF, and Pearson's χ² against exact probabilities.

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include <boost/math/distributions/chi_squared.hpp>

namespace dpstudio::test {

struct FitResult {
  double statistic = 0.0;  // KS: D = sup |F_n − F|; χ²: Σ (O − E)²/E
  double pValue = 0.0;
};

// P(K > λ) for the Kolmogorov distribution, 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}.
inline double kolmogorovSurvival(double lambda) {
  if (lambda < 0.2) return 1.0;  // the series converges slowly there, and p > 0.9999
  double sum = 0.0;
  for (int k = 1; k <= 100; ++k) {
    const double term = std::exp(-2.0 * k * k * lambda * lambda);
    sum += (k % 2 == 1 ? term : -term);
    if (term < 1e-17) break;
  }
  return std::clamp(2.0 * sum, 0.0, 1.0);
}

// KS test of `samples` against `cdf`; the p-value uses Stephens' finite-n correction
// λ = (√n + 0.12 + 0.11/√n)·D, accurate for n ≥ 35.
inline FitResult kolmogorovSmirnov(std::vector<double> samples,
                                   const std::function<double(double)>& cdf) {
  std::sort(samples.begin(), samples.end());
  const double n = static_cast<double>(samples.size());
  double d = 0.0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double f = cdf(samples[i]);
    d = std::max({d, static_cast<double>(i + 1) / n - f, f - static_cast<double>(i) / n});
  }
  const double rootN = std::sqrt(n);
  return {d, kolmogorovSurvival((rootN + 0.12 + 0.11 / rootN) * d)};
}

// Pearson χ² of observed counts against probabilities (df = categories − 1).
inline FitResult chiSquared(const std::vector<long>& observed, const std::vector<double>& probability) {
  double total = 0.0;
  for (long count : observed) total += static_cast<double>(count);
  double statistic = 0.0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double expected = total * probability[i];
    const double diff = static_cast<double>(observed[i]) - expected;
    statistic += diff * diff / expected;
  }
  const boost::math::chi_squared_distribution<double> law(static_cast<double>(observed.size() - 1));
  return {statistic, boost::math::cdf(boost::math::complement(law, statistic))};
}

}  // namespace dpstudio::test
