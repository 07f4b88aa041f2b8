#pragma once
// Composition of (ε, δ)-DP releases (docs/algorithms.md §1.3) and the per-answer budgets that
// private prediction (§3 F, G) derives from them. Pure functions, thread-safe. Errors are
// ErrorKind::InvalidPrivacy and name the parameter ("epsilon", "delta", "delta_prime",
// "uses").

#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::privacy {

struct PrivacyCost {
  double epsilon = 0.0;  // finite, ≥ 0
  double delta = 0.0;    // in [0, 1)
};

// Basic composition: (Σ ε_i, Σ δ_i). Each cost must be valid; the empty list costs (0, 0).
// The δ total may reach or pass 1 (then the guarantee is void; the caller shows it).
Result<PrivacyCost> basicComposition(const std::vector<PrivacyCost>& costs);

// Advanced composition (Dwork & Rothblum 2016; paper 003 eqs. 48–49): `uses` runs of an
// (ε*, δ*)-DP mechanism are (√(2B ln(1/δ'))·ε* + B·ε*(e^{ε*} − 1)/2, B·δ* + δ')-DP for any
// δ' in (0, 1).
Result<PrivacyCost> advancedComposition(PrivacyCost perUse, long long uses, double deltaPrime);

// How the per-use ε* is solved from a target ε.
enum class PerUseSolve {
  // The largest ε* whose advanced composition is ≤ ε, by bisection (default). Always
  // recomposes to at most the target.
  Exact,
  // Paper 003 eq. 51, ε* = √(2/B)(√(ln(1/δ') + ε) − √(ln(1/δ'))). It solves the quadratic
  // with ε*²/2 in place of ε*(e^{ε*} − 1)/2, which is SMALLER, so this ε* recomposes to
  // slightly MORE than ε (e.g. ε = 1, B = 10, δ' = 1e-6 gives 1.0005): kept only for the
  // "as published" variants, whose reports must say so.
  AsPublished,
};

// Per-use (ε*, δ*) for a total (ε, δ) over `uses` runs with slack δ' in (0, δ]:
// δ* = (δ − δ')/B and ε* as `solve` says. δ' = δ gives δ* = 0 (pure ε* per use).
Result<PrivacyCost> advancedPerUse(PrivacyCost total, long long uses, double deltaPrime,
                                   PerUseSolve solve = PerUseSolve::Exact);

// Gaussian noise for each of B answers of ℓ2-sensitivity Δ within a total (ε, δ), δ > 0
// (§3 F, paper 003 Alg. 7): σ_basic = σ(ε/B, δ/B) by basic composition, σ_advanced =
// min over δ' in (0, δ) of σ(ε*, δ*) by advanced composition (analytic calibration for
// both); the smaller wins.
struct GaussianPerAnswer {
  double sigma = 0.0;          // min(sigmaBasic, sigmaAdvanced)
  PrivacyCost perAnswer;       // the (ε*, δ*) that σ is calibrated for
  std::string rule;            // "basic" or "advanced"
  double deltaPrime = 0.0;     // the chosen δ' (advanced); 0 for basic
  double sigmaBasic = 0.0;
  double sigmaAdvanced = 0.0;  // +∞ when no δ' gives a valid per-use budget
};
Result<GaussianPerAnswer> gaussianPerAnswer(PrivacyCost total, long long answers,
                                            double sensitivity,
                                            PerUseSolve solve = PerUseSolve::Exact);

// A pure ε* for each of B answers of an ε*-DP mechanism (e.g. the exponential mechanism,
// §3 G): ε/B by basic composition; if δ > 0 also advanced composition with δ' = δ and
// δ* = 0; the larger ε* (less noise) wins.
struct EpsilonPerAnswer {
  double epsilon = 0.0;         // max(epsilonBasic, epsilonAdvanced)
  std::string rule;             // "basic" or "advanced"
  double epsilonBasic = 0.0;
  double epsilonAdvanced = 0.0;  // 0 when δ = 0
};
Result<EpsilonPerAnswer> epsilonPerAnswer(PrivacyCost total, long long answers,
                                          PerUseSolve solve = PerUseSolve::Exact);

}  // namespace dpstudio::privacy
