#pragma once
// What a privacy guarantee means for one person, in the terms of a hypothesis test
// (docs/algorithms.md §1.6): an attacker who sees the output decides between two neighbouring
// datasets — under the product's substitution adjacency (§0.1), one person's record being
// one value or another; for add/remove, the person being in or out. Its false-positive rate α
// (says "D" when it is D′) and false-negative rate β are bounded below by the guarantee.
//
// - (ε, δ)-DP: every test has β ≥ max(0, 1 − δ − e^ε·α, e^{−ε}·(1 − δ − α)) — the region
//   below is forbidden (Kairouz, Oh & Viswanath 2015; the audit draws it, rates.h).
// - μ-GDP (the Gaussian mechanism with sensitivity Δ and σ: μ = Δ/σ): β ≥ Φ(Φ⁻¹(1 − α) − μ),
//   tighter than any single (ε, δ) it implies (Dong, Roth & Su 2019).
// - An attacker's belief: with prior p on D, a test with false-positive rate α that says "D"
//   leaves a posterior of at most p·T / (p·T + (1 − p)·α),
//   T = 1 − β_min(α) the largest true-positive rate the guarantee allows. With δ = 0 every
//   test stays below e^ε·p / (e^ε·p + 1 − p) (approached as α → 0); with δ > 0 the bound
//   rises towards 1 as α → 0 (a test that almost never fires may be sure when it does).
//
// Pure functions; safe from any thread.

#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::privacy {

// The least β an (ε, δ)-DP mechanism allows at false-positive rate alpha ∈ [0, 1]. Stable for
// large ε (e^ε overflowing to ∞ leaves the e^{−ε} branch). Errors: ε < 0, δ ∉ [0, 1], α ∉ [0, 1].
Result<double> epsilonDeltaMinFalseNegative(double epsilon, double delta, double alpha);

// The least β μ-GDP allows at alpha: Φ(Φ⁻¹(1 − α) − μ). Errors: μ < 0, α ∉ [0, 1].
Result<double> gaussianMinFalseNegative(double mu, double alpha);

// μ of the Gaussian mechanism: sensitivity / σ (both > 0).
Result<double> gaussianMu(double sigma, double sensitivity);

// The largest posterior after any positive test under ε-DP, from prior ∈ [0, 1]:
// e^ε·p / (e^ε·p + 1 − p).
Result<double> posteriorBound(double prior, double epsilon);
// The largest posterior after a positive test of false-positive rate alpha ∈ (0, 1] under
// (ε, δ)-DP: p·T / (p·T + (1 − p)·α), T = 1 − epsilonDeltaMinFalseNegative(ε, δ, α).
Result<double> posteriorBoundAt(double prior, double epsilon, double delta, double alpha);

// A curve of (α, β) points, α evenly spaced in [0, 1] (points ≥ 2), for a plot.
struct TradeOffPoint {
  double falsePositive = 0;
  double falseNegative = 0;
};
Result<std::vector<TradeOffPoint>> epsilonDeltaTradeOffCurve(double epsilon, double delta, int points);
// The (ε, δ) boundary exactly, as its corners: (0, 1 − δ), the kink at α = (1 − δ)/(1 + e^ε),
// (1 − δ, 0), (1, 0). Expects ε ≥ 0 and δ ∈ [0, 1]; stable for large ε (the kink goes to 0).
std::vector<TradeOffPoint> epsilonDeltaTradeOffCorners(double epsilon, double delta);
Result<std::vector<TradeOffPoint>> gaussianTradeOffCurve(double mu, int points);

// What (ε, δ) means, in numbers a person reads (the CLI's `calibrate`; issue 35): the
// corners of the allowed trade-off, and an attacker's largest posterior from a few priors —
// any test when δ = 0, a test with a 1 % false-positive rate when δ > 0.
struct GuaranteeMeaning {
  struct Posterior {
    double prior = 0;
    double atMost = 0;
  };
  std::vector<TradeOffPoint> tradeOff;  // epsilonDeltaTradeOffCorners
  double testFalsePositive = 0;         // the α the posteriors assume; 0: any test (δ = 0)
  std::vector<Posterior> posteriors;    // priors 1 %, 10 %, 50 %
  std::string sentence;                 // the 1 % prior, in words
};
Result<GuaranteeMeaning> meaningOf(double epsilon, double delta);

// What is said instead where no guarantee holds (as published without an ε that holds).
inline constexpr const char* kNoGuaranteeMeaning =
    "No guarantee holds (as published, the proof fails): nothing bounds what an attacker learns about "
    "one person's record.";

}  // namespace dpstudio::privacy
