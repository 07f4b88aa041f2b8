#pragma once
// The exact likelihood-ratio statistic for a release that is the minimizer of a perturbed
// objective (loss perturbation, docs/algorithms.md §3 C): θ̂ = argmin J_X(θ) + ⟨B, θ⟩ with
// J_X(θ) = Σ_i ℓ(θ; x_i, y_i) + (A/2)‖θ‖², A = nλ + ρ, on dataset X ∈ {D, D'}.
//
// Without a constraint the map from the noise B to θ̂ is a bijection: the noise that
// explains an output is b_X(θ) = −∇J_X(θ), and the output's density is
//   p_X(θ) = p_B(b_X(θ)) · det ∇²J_X(θ)
// (Kifer, Smith & Thakurta 2012, the change of variables their proof bounds). The statistic
// is the log-likelihood ratio s(θ) = log p_{D'}(θ) − log p_D(θ), the most powerful test
// (Neyman–Pearson), with p_B the ℓ2-Laplace (∝ e^{−β‖b‖}) or Gaussian (∝ e^{−‖b‖²/2σ²})
// density. The Hessian is taken by central differences of the exact gradient (the Huber
// loss's second derivative jumps at its knots; a difference straddling one is off only on a
// set of θ of width ~1e-6). Not for LMGC: its PSD constraint makes outputs on the cone's
// boundary the image of a whole set of noises.
//
// Cost per evaluation: 2m + 2 loss-gradient evaluations on each dataset (m = parameters);
// exactLikelihoodAffordable() says when that is small beside a run of the mechanism.

#include "core/audit/audit.h"
#include "core/audit/statistic.h"

namespace dpstudio::audit {

bool exactLikelihoodAffordable(Index rows, Index parameters);

// `scale` is the noise law's β (ℓ2-Laplace) or σ (Gaussian); other laws are refused.
Result<Statistic> perturbedMinimizerStatistic(std::shared_ptr<const Model> model, const AuditProblem& problem,
                                              double quadratic, mech::NoiseLaw law, double scale);

}  // namespace dpstudio::audit
