#include "core/privacy/composition.h"

#include <cmath>
#include <limits>

#include "core/privacy/gaussian.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Status validateCost(const PrivacyCost& cost) {
  if (auto ok = requireNonNegative("epsilon", cost.epsilon); !ok) return ok;
  if (!(cost.delta >= 0 && cost.delta < 1)) return invalidParameter("delta", "in [0, 1)", cost.delta);
  return Ok{};
}

Status validateUses(long long uses) {
  if (uses >= 1) return Ok{};
  return invalidParameter("uses", "a whole number >= 1", static_cast<double>(uses));
}

// ε of advanced composition for per-use ε* (the δ part is separate).
double advancedEpsilon(double perUseEpsilon, double uses, double logInvDeltaPrime) {
  return std::sqrt(2.0 * uses * logInvDeltaPrime) * perUseEpsilon +
         uses * perUseEpsilon * std::expm1(perUseEpsilon) / 2.0;
}

double logistic(double u) { return 1.0 / (1.0 + std::exp(-u)); }

}  // namespace

Result<PrivacyCost> basicComposition(const std::vector<PrivacyCost>& costs) {
  PrivacyCost total;
  for (const PrivacyCost& cost : costs) {
    if (auto ok = validateCost(cost); !ok) return ok.error();
    total.epsilon += cost.epsilon;
    total.delta += cost.delta;
  }
  return total;
}

Result<PrivacyCost> advancedComposition(PrivacyCost perUse, long long uses, double deltaPrime) {
  if (auto ok = validateCost(perUse); !ok) return ok.error();
  if (auto ok = validateUses(uses); !ok) return ok.error();
  if (auto ok = requireOpenUnit("delta_prime", deltaPrime); !ok) return ok.error();
  const double b = static_cast<double>(uses);
  return PrivacyCost{advancedEpsilon(perUse.epsilon, b, -std::log(deltaPrime)),
                     b * perUse.delta + deltaPrime};
}

Result<PrivacyCost> advancedPerUse(PrivacyCost total, long long uses, double deltaPrime,
                                   PerUseSolve solve) {
  if (auto ok = requirePositive("epsilon", total.epsilon); !ok) return ok.error();
  if (auto ok = requireOpenUnit("delta", total.delta); !ok) return ok.error();
  if (auto ok = validateUses(uses); !ok) return ok.error();
  if (!(deltaPrime > 0 && deltaPrime <= total.delta))
    return invalidParameter("delta_prime", "in (0, delta]", deltaPrime);
  const double b = static_cast<double>(uses);
  const double logInv = -std::log(deltaPrime);
  // Eq. 51, with √(L+ε) − √L written as ε/(√(L+ε) + √L) to avoid cancellation.
  const double published =
      std::sqrt(2.0 / b) * total.epsilon / (std::sqrt(logInv + total.epsilon) + std::sqrt(logInv));

  PrivacyCost perUse;
  if (solve == PerUseSolve::AsPublished) {
    perUse.epsilon = published;
  } else {
    // The exact composition is ≥ the quadratic eq. 51 solves, so its root lies in
    // [0, published]; keep the end that composes to ≤ ε.
    double lo = 0.0, hi = published;
    while (hi - lo > 1e-15 * hi) {
      const double mid = lo + (hi - lo) / 2;
      if (!(mid > lo && mid < hi)) break;
      (advancedEpsilon(mid, b, logInv) <= total.epsilon ? lo : hi) = mid;
    }
    perUse.epsilon = lo;
  }
  // δ* = (δ − δ')/B, nudged down until B·δ* + δ' ≤ δ holds in floating point too.
  perUse.delta = (total.delta - deltaPrime) / b;
  while (perUse.delta > 0 && b * perUse.delta + deltaPrime > total.delta)
    perUse.delta = std::nextafter(perUse.delta, 0.0);
  return perUse;
}

Result<GaussianPerAnswer> gaussianPerAnswer(PrivacyCost total, long long answers,
                                            double sensitivity, PerUseSolve solve) {
  if (auto ok = requirePositive("epsilon", total.epsilon); !ok) return ok.error();
  if (auto ok = requireOpenUnit("delta", total.delta); !ok) return ok.error();
  if (auto ok = validateUses(answers); !ok) return ok.error();
  if (auto ok = requirePositive("sensitivity", sensitivity); !ok) return ok.error();
  const double b = static_cast<double>(answers);

  GaussianPerAnswer result;
  auto basic = analyticGaussianSigma(total.epsilon / b, total.delta / b, sensitivity);
  if (!basic) return basic.error();
  result.sigmaBasic = basic.value();

  // σ as a function of u, δ' = δ·logistic(u): u spans δ' from ~1e-17·δ to δ(1 − 1e-17).
  // Any δ' is private; the search only looks for the least noise.
  auto sigmaAt = [&](double u, PrivacyCost* perUseOut) {
    auto perUse = advancedPerUse(total, answers, total.delta * logistic(u), solve);
    if (!perUse || !(perUse.value().epsilon > 0) || !(perUse.value().delta > 0)) return kInf;
    auto sigma = analyticGaussianSigma(perUse.value().epsilon, perUse.value().delta, sensitivity);
    if (!sigma) return kInf;
    if (perUseOut) *perUseOut = perUse.value();
    return sigma.value();
  };
  double bestU = 0.0, bestSigma = kInf;
  for (int i = -38; i <= 38; ++i) {
    const double sigma = sigmaAt(i, nullptr);
    if (sigma < bestSigma) { bestSigma = sigma; bestU = i; }
  }
  if (std::isfinite(bestSigma)) {
    // Golden-section refinement between the grid neighbours (σ(u) is unimodal there).
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = bestU - 1.0, d = bestU + 1.0;
    for (int iteration = 0; iteration < 60; ++iteration) {
      const double c1 = d - ratio * (d - a), c2 = a + ratio * (d - a);
      if (sigmaAt(c1, nullptr) <= sigmaAt(c2, nullptr)) d = c2; else a = c1;
    }
    const double refined = (a + d) / 2.0;
    if (sigmaAt(refined, nullptr) < bestSigma) bestU = refined;
  }
  PrivacyCost advancedPerAnswer;
  result.sigmaAdvanced = sigmaAt(bestU, &advancedPerAnswer);

  if (result.sigmaBasic <= result.sigmaAdvanced) {
    result.sigma = result.sigmaBasic;
    result.rule = "basic";
    result.perAnswer = {total.epsilon / b, total.delta / b};
  } else {
    result.sigma = result.sigmaAdvanced;
    result.rule = "advanced";
    result.perAnswer = advancedPerAnswer;
    result.deltaPrime = total.delta * logistic(bestU);
  }
  return result;
}

Result<EpsilonPerAnswer> epsilonPerAnswer(PrivacyCost total, long long answers,
                                          PerUseSolve solve) {
  if (auto ok = requirePositive("epsilon", total.epsilon); !ok) return ok.error();
  if (auto ok = validateCost(total); !ok) return ok.error();
  if (auto ok = validateUses(answers); !ok) return ok.error();
  EpsilonPerAnswer result;
  result.epsilonBasic = total.epsilon / static_cast<double>(answers);
  if (total.delta > 0) {
    auto perUse = advancedPerUse(total, answers, total.delta, solve);
    if (!perUse) return perUse.error();
    result.epsilonAdvanced = perUse.value().epsilon;
  }
  const bool advanced = result.epsilonAdvanced > result.epsilonBasic;
  result.epsilon = advanced ? result.epsilonAdvanced : result.epsilonBasic;
  result.rule = advanced ? "advanced" : "basic";
  return result;
}

}  // namespace dpstudio::privacy
