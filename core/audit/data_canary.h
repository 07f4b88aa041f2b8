#pragma once
// The adversary's choice on the user's own data (ALGORITHMS §3 J (a); issue 13 §2) for the
// mechanisms that release or answer from the exact minimizer θ*(D) of a strongly convex
// mean-scale objective: output perturbation (A) and prediction sensitivity (F).
//
// Their sensitivity structure is known: the release is θ*(D) + b (A) or θ*(D)ᵀq + b at a
// query q (F), so the pair to audit is the one whose substitution moves θ* (A), or the
// scores at the best query (F), furthest. The search:
//  1. candidate canaries: unit vectors along ± each column of θ*(D) and ± the first
//     8 coordinate axes, and the test points (as they are, and scaled to the norm bound),
//     each with every label;
//  2. to first order θ* moves by H⁻¹(∇ℓ(canary) − ∇ℓ(row))/n: the pairs (canary, training
//     row) are ranked by that gradient difference at θ*(D), and the best kCandidatesRetrained
//     among the unit vectors and as many among the test points are retrained exactly on D'
//     (warm-started at θ*(D));
//  3. the pair that moves θ* furthest wins (A); for F the query is the test point (or the
//     canary) at which the noise-free scores move furthest, and the pair with the largest
//     such move wins.
// The description names the replaced row, the canary (and the test row it came from), the
// query, and the move as a fraction of the calibration's Δ = 2K/(nλ).
//
// An audit on the user's data is an experiment: nothing is released and nothing is charged
// to any ledger, and the pair is read off the private data (callers say so where shown).

#include "core/audit/audit.h"

namespace dpstudio::audit {

inline constexpr int kCandidatesRetrained = 8;
inline constexpr Index kTestPointsSearched = 400;  // the first ones; more only add retraining-free ranking cost

// D: the training rows (‖x‖ ≤ 1); testPoints: candidates for the canary and the query (may
// have no rows). options.target must be Training with kind Output, or Prediction with kind
// Sensitivity; the model must be unconstrained (not LMGC).
Result<AuditProblem> searchedCanaryFromData(const AuditOptions& options, const Dataset& D, const Dataset& testPoints);

// Whether searchedCanaryFromData applies to these options.
bool canarySearchApplies(const AuditOptions& options);

}  // namespace dpstudio::audit
