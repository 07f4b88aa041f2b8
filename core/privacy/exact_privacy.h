#pragma once
// A release's privacy loss where it is known more exactly than by the (ε, δ) it claims
// (docs/algorithms.md §1.6), and the trade-off curve that follows from it.
//
// A guarantee (ε, δ) bounds every membership test by one pair of lines. A mechanism whose
// release is a composition of Gaussian mechanisms is (ε, δ(ε))-DP at every ε at once — its
// privacy profile — and so bounds the tests by the envelope of all those lines (Dong, Roth &
// Su 2019, Prop. 2.12), a curve inside the (ε, δ) region that touches it where δ(ε) = δ:
//  - the Gaussian mechanism composed (output perturbation's one-vs-rest releases, prediction
//    sensitivity's B answers): μ-GDP, μ = √(Σ Δᵢ²/σᵢ²), with a closed-form curve;
//  - DP-SGD: the PLD accountant's δ(ε) of its composed subsampled Gaussian steps, after a
//    pure ε₀-DP step (its step-size estimate) by basic composition, δ(ε) = δ_steps(ε − ε₀).
//
// Pure functions; safe from any thread.

#include <optional>
#include <vector>

#include "core/privacy/accountant_kind.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/tradeoff.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

// What a mechanism's calibration knows of its release beyond (ε, δ) (MechanismReport).
struct ExactPrivacy {
  // The release is μ-GDP with this μ.
  std::optional<double> gaussianMu;
  // The release is the composition of these subsampled Gaussian events (DP-SGD's steps;
  // empty: none) under `adjacency`, after a pure ε-DP step of pureEpsilon (0: none).
  std::vector<SgmEvent> sampledGaussian;
  Adjacency adjacency = Adjacency::Substitution;
  double pureEpsilon = 0;
};

// The trade-off of a mechanism that is (εₖ, δₖ)-DP for every k: at each of `points` false-
// positive rates α evenly spaced in [0, 1], the largest least β of the pairs' boundaries. A
// valid bound from any set of pairs; the exact curve as they fill the profile. Errors: sizes
// that differ, no pair, points < 2, an ε < 0 or δ ∉ [0, 1].
Result<std::vector<TradeOffPoint>> profileTradeOffCurve(const std::vector<double>& epsilons,
                                                        const std::vector<double>& deltas, int points);

// The trade-off curve `exact` gives (μ-GDP's closed form, or DP-SGD's profile from the PLD
// accountant on a grid of ε); std::nullopt when it knows nothing beyond (ε, δ). Errors: the
// accountant's (a σ too small for its grid, "sigma").
Result<std::optional<std::vector<TradeOffPoint>>> exactTradeOffCurve(const ExactPrivacy& exact, int points);

}  // namespace dpstudio::privacy
