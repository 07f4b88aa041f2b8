#pragma once
// Whether a mechanism's noise leaves anything of the model: a data-independent check that
// the GUI's live calibration and `dpstudio-cli train` show as a warning (issue 11).
//
// For the mean-scale models, J(θ) = (1/n)Σℓ_i + (λ/2)‖θ‖² and J(θ*) ≤ J(0) = ℓ(0), so
// every minimizer has ‖θ*‖ ≤ √(2ℓ(0)/λ) whatever the data: ℓ(0) = log 2 (logistic), 1
// (Huber SVM: margin 0 is on the hinge's linear part), log C (softmax). When output
// perturbation's expected noise norm E‖b‖ exceeds that bound, the release is mostly noise
// on every dataset of this size. E‖b‖ scales as 1/λ, so equality holds at
// λ' = (E‖b‖·λ)²/(2ℓ(0)): the warning names it.

#include <optional>
#include <string>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

// ‖θ*‖ ≤ this for every dataset (one-vs-rest: each class's model); nullopt for LMGC (sum
// scale, no such bound here).
std::optional<double> minimizerNormBound(const LearnerSpec& learner, Index classes);

// Noise of expected norm `expectedNoiseNorm` against the longest minimizer of `learner`
// (minimizerNormBound): when the noise is longer, that bound and the λ at which the two would
// meet — the noise scales as 1/λ (its sensitivity does), the bound as 1/√λ, so they meet at
// λ' = (E‖b‖·λ)²/(2ℓ(0)). nullopt when the noise is shorter or there is no bound. Shared by
// output perturbation's warning, prediction sensitivity's and multiparty aggregation's.
struct NoiseAboveModel {
  double bound = 0;           // √(2ℓ(0)/λ)
  double balancingLambda = 0; // λ', in the learner's own λ
};
std::optional<NoiseAboveModel> noiseAboveModelBound(const LearnerSpec& learner, Index classes, double expectedNoiseNorm);

// LMGC (docs/algorithms.md §2.3): at Φ = 0 every score is equal and each row's loss is
// ℓ₀ = (C − 1)·H_h(0). Output perturbation's mean-scale objective
// (1/n)(Σℓ + λΣtr Ψ_c) + (λ₂/2)‖Φ‖² then has ‖Φ*‖ ≤ √(2ℓ₀/λ₂); DP-LMGC's sum-scale
// Σℓ + λΣtr Ψ_c + (ρ/2)‖Φ‖² without its noise ‖Φ₀‖ ≤ √(2nℓ₀/ρ), and its noise ⟨B, Φ⟩ moves
// the minimizer by at most ‖B‖/ρ (the cone's projection does not lengthen the move).
double lmgcLossAtZero(const LearnerSpec& learner, Index classes);

// The warning for output perturbation whose E‖b‖ (report.expectedNoiseNorm) exceeds
// minimizerNormBound() (LMGC: √(2ℓ₀/λ₂), the λ₂ named instead of λ); empty for every other
// mechanism and when the noise is smaller.
std::optional<std::string> noiseSwampsModelWarning(const MechanismOptions& options, const MechanismReport& report,
                                                   Index classes);

// The warning for objective and loss perturbation whose noise can move the released
// minimizer further than any model is long: their linear term b/n (objective, mean scale)
// or B (loss, sum scale) moves the minimizer of a q-strongly convex objective by at most
// ‖b‖/(n·q), q = λ + Δ (objective) or nλ + ρ (loss); the warning compares E‖b‖/(n·q) with
// minimizerNormBound(). DP-LMGC (corrected): E‖B‖/ρ against √(2nℓ₀/ρ), a ratio that ε does not
// change (both noise and ρ scale as 1/ε), so the warning names the n·ε at which they meet.
// Empty for every other mechanism and when the shift is smaller.
std::optional<std::string> perturbationSwampsModelWarning(const MechanismOptions& options,
                                                          const MechanismReport& report, const ProblemShape& shape);

}  // namespace dpstudio::mech
