#pragma once
// Whether DP-SGD's step size can work, from public quantities only (issue 11): the step η,
// λ, and the model's curvature bound for rows in the unit ball — never the private rows.
//
// DP-SGD (docs/algorithms.md §3 E) steps θ ← θ − η·(ĝ + λθ) on J(θ) = (1/n)Σℓ_i + (λ/2)‖θ‖², ĝ the
// noisy mean of the clipped per-example gradients. Two limits follow:
//   · η ≥ 2/λ: each step multiplies θ by 1 − ηλ, of magnitude ≥ 1, while ĝ stays bounded
//     (clipped) — θ grows or oscillates without end on every dataset. Certain.
//   · η > 2/(L + λ), L the largest curvature of the loss in the parameters for ‖x‖ ≤ 1
//     (ModelConstants::hessianBound: 1/4 logistic, 1/(2h) Huber, 1/2 softmax, C/(2h) LMGC,
//     whose features x̃x̃ᵀ have norm ≤ 1): a full gradient step is no longer a descent step
//     on every dataset in the unit ball. Data whose rows have norm near 1 and point alike
//     reach that curvature (test_mechanism_sgd_step: identical unit rows make the noise-free
//     iteration cycle instead of converging); shorter or spread-out rows have less, so a
//     larger step can still work there. A worst case, not a verdict: said as such.
// A step too SMALL for the data — rows far inside the unit ball, as spambase's under a
// generous norm bound, where the model barely leaves zero in the planned steps — depends on
// the rows' norms, which are private: no check here (the other half; noted).

#include <optional>
#include <string>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

struct SgdStepLimits {
  double curvature = 0;  // L: the loss's curvature bound in the parameters, rows in the unit ball
  double stable = 0;     // 2/(L + λ): the largest step that descends on every such dataset
  double divergent = 0;  // 2/λ: from here on θ diverges on every dataset (∞ for λ = 0)
};

// For DP-SGD with `options`' learner on data of `features` and `classes`; an error for an
// invalid learner or shape.
Result<SgdStepLimits> dpSgdStepLimits(const MechanismOptions& options, Index features, Index classes);

// The step DP-SGD takes: the given one, else 1/(L + λ) — half the stable limit, the step with
// which gradient descent on an L-smooth objective decreases it every step, on every dataset
// in the unit ball. (The old fixed default 0.5 was a quarter of softmax's: the noise-free
// iteration underfit.)
struct SgdStep {
  double eta = 0;
  bool fromProblem = false;  // not given: 1/(L + λ)
  std::string formula;       // for the report
};
Result<SgdStep> dpSgdStep(const MechanismOptions& options, Index features, Index classes);

// Whether DP-SGD with `options` estimates its step from the rows: no learning rate given, a
// linear model (whose curvature in the parameters is L·‖x‖²; not LMGC) and a share of ε for it.
bool estimatesSgdStep(const MechanismOptions& options);

// The safe step for rows whose mean squared norm is at most m: 1/(L·m + λ). The mean loss's
// curvature is at most L·λ_max((1/n)Σxxᵀ) ≤ L·m, so gradient descent with this step decreases
// the objective on these rows at every step, as 1/(L + λ) does on every dataset.
double sgdStepForRows(const SgdStepLimits& limits, double lambda, double meanSquaredNorm);

// The warning for a DP-SGD step size beyond those limits; empty for other mechanisms and
// for steps within them.
std::optional<std::string> dpSgdStepWarning(const MechanismOptions& options, Index features, Index classes);

}  // namespace dpstudio::mech
