#include "core/privacy/repeat_select.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace dpstudio::privacy {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool isGeometric(double shape) { return shape == 1.0; }

}  // namespace

double repetitionMean(double shape, double gamma) {
  assert((shape == 0.0 || shape == 1.0) && gamma > 0 && gamma <= 1);
  if (gamma >= 1) return 1.0;
  if (isGeometric(shape)) return 1.0 / gamma;
  return (1.0 / gamma - 1.0) / std::log(1.0 / gamma);
}

double repetitionGamma(double shape, double mean) {
  assert(mean >= 1);
  if (mean <= 1) return 1.0;
  if (isGeometric(shape)) return 1.0 / mean;
  // The logarithmic law's mean falls from ∞ (γ → 0) to 1 (γ → 1).
  double low = 0, high = 1;
  while (high - low > 1e-12 * high) {
    const double mid = 0.5 * (low + high);
    (repetitionMean(shape, mid) > mean ? low : high) = mid;
  }
  return high;
}

std::uint64_t drawRepetitions(double shape, double gamma, NoiseSource& noise) {
  if (gamma >= 1) return 1;
  const double u = noise.uniform01();
  if (isGeometric(shape)) {
    // P(K > k) = (1 − γ)^k: K = 1 + ⌊log(1 − u)/log(1 − γ)⌋.
    const double k = std::floor(std::log1p(-u) / std::log1p(-gamma));
    return 1 + static_cast<std::uint64_t>(std::min(k, 1e15));
  }
  // Logarithmic: P(K = k) = (1 − γ)^k / (k·log(1/γ)); the running sum reaches u after E[K]
  // terms on average. Rounding may leave the sum just short of 1: stop where the terms vanish.
  const double norm = std::log(1.0 / gamma);
  double term = 1.0, cumulative = 0.0;
  for (std::uint64_t k = 1;; ++k) {
    term *= 1.0 - gamma;
    const double p = term / (static_cast<double>(k) * norm);
    cumulative += p;
    if (cumulative > u || p < 1e-300) return k;
  }
}

std::vector<double> repeatAndSelectRdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                                       double shape, double gamma) {
  assert(orders.size() == rdp.size());
  const double logMean = std::log(repetitionMean(shape, gamma));
  double constant = kInfinity;
  for (std::size_t j = 0; j < orders.size(); ++j)
    constant = std::min(constant, (1.0 - 1.0 / orders[j]) * rdp[j] + std::log(1.0 / gamma) / orders[j]);
  constant *= 1.0 + shape;
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) out[i] = rdp[i] + constant + logMean / (orders[i] - 1.0);
  // Monotone in the order: a bound at a higher order also holds at a lower one.
  std::vector<std::size_t> byOrder(orders.size());
  for (std::size_t i = 0; i < byOrder.size(); ++i) byOrder[i] = i;
  std::sort(byOrder.begin(), byOrder.end(), [&](std::size_t a, std::size_t b) { return orders[a] > orders[b]; });
  double best = kInfinity;
  for (std::size_t i : byOrder) out[i] = best = std::min(best, out[i]);
  return out;
}

double repeatAndSelectPureEpsilon(double runEpsilon, double shape) { return (2.0 + shape) * runEpsilon; }

std::vector<double> pureDpRdp(double epsilon, const std::vector<double>& orders) {
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) out[i] = std::min(epsilon, 0.5 * orders[i] * epsilon * epsilon);
  return out;
}

std::vector<double> laplaceRdp(double epsilon, const std::vector<double>& orders) {
  std::vector<double> out(orders.size());
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double a = orders[i];
    out[i] = epsilon + std::log1p((a - 1.0) * std::expm1((1.0 - 2.0 * a) * epsilon) / (2.0 * a - 1.0)) / (a - 1.0);
  }
  return out;
}

std::vector<double> gaussianRdp(double sensitivity, double sigma, const std::vector<double>& orders) {
  std::vector<double> out(orders.size());
  const double r = sensitivity / sigma;
  for (std::size_t i = 0; i < orders.size(); ++i) out[i] = 0.5 * orders[i] * r * r;
  return out;
}

}  // namespace dpstudio::privacy
