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

// DP-SGD's schedule from public numbers only (DpSgdSettings::scheduleFromProblem;
// docs/algorithms.md §3 E): with S = n·ε/√(d·C), T = clamp(round(2S), 50, 2000) steps at
// Poisson rate q = min(0.4, 40/T) (so at most 40 epochs), the mean of the last half of the
// iterates released. For large σ the calibrated σ grows in proportion to q at a fixed T, so
// the noise of a step's mean gradient is set by T alone: a large batch costs no noise and
// cuts the sampling's; and the steps a run can afford before their noise outweighs their
// progress grow with n·ε against the parameters' count. At ε = ∞ (no noise) the batch is at
// least kNoiseFreeBatch rows and the steps take heavy-ball momentum β = kNoiseFreeMomentum.
struct SgdSchedule {
  double q = 0;
  long long steps = 0;
  double averagedTail = 0;
  double momentum = 0;  // β, the heavy ball's (DpSgdSettings::momentum)
};
SgdSchedule sgdScheduleFromProblem(Index rows, Index features, Index classes, double epsilon);
// The schedule's heavy-ball β at ε = ∞. Without noise on MNIST (softmax, 2 000 steps) the plain
// steps stop 1.75 points short of L-BFGS, and with β = 0.9 reach it. With noise, momentum moves
// the noise as far as the gradient along the flat directions: private runs keep β = 0 (digits
// at ε = 1: 0.738 → 0.618 with β = 0.9; MNIST 0.873 → 0.886; docs/performance.md).
inline constexpr double kNoiseFreeMomentum = 0.9;
// The schedule's smallest expected batch at ε = ∞ (q = min(1, max(0.02, 256/n))).
inline constexpr double kNoiseFreeBatch = 256;

// With the schedule from the problem, the step is this multiple of the rows' safe step
// 1/(L·m + λ): min(2, 1/m). The safe step bounds the curvature by L·m, the trace of the rows'
// second moment, where the largest eigenvalue, which decides, is usually far below it; twice
// the safe step is still within the stable 2/(L·m + λ) for rows on the unit sphere (m = 1,
// where the multiple is 1).
double sgdStepMultiplier(double meanSquaredNorm);

// Whether a front end's DP-SGD takes the schedule from the problem: for softmax (whose step is
// fitted to the rows; LMGC keeps the fixed defaults) when the user gave none of the batch, the
// epochs, the averaged share and the step.
bool takesScheduleFromProblem(ModelKind model, bool anyOfTheScheduleGiven);

// The warning for a DP-SGD step size beyond those limits; empty for other mechanisms and
// for steps within them.
std::optional<std::string> dpSgdStepWarning(const MechanismOptions& options, Index features, Index classes);

}  // namespace dpstudio::mech
