#pragma once
// Private prediction (docs/algorithms.md §3 F, G): the options of the two mechanisms and their
// calibration — the noise parameters derived from (ε, δ, B, n, λ, K, T) alone, as a
// mech::MechanismReport in the same style as the training mechanisms (every number printed
// is the number used; "as published" carries a warning saying why it does not hold).
//
// Privacy unit: a *budget* of B answers. The guarantee (ε, δ) covers all B answers together
// (basic or advanced composition over the answers); a predictor refuses answer B+1.
//
//  F. prediction sensitivity (paper 003 Alg. 6/7): each answer releases the scores
//     θ*ᵀx + b of the exact minimizer θ* of the mean-scale objective (1/n)Σℓ + (λ/2)‖θ‖².
//     For ‖x‖ ≤ 1 the released scores move by at most Δ = 2K/(nλ) under substitution.
//  G. subsample-and-aggregate (paper 003 Alg. 8): T teachers on disjoint parts, the label
//     sampled with probability ∝ exp(β·votes).
//
// Pure functions, thread-safe. Errors are ErrorKind::InvalidPrivacy naming the parameter.

#include <cstdint>
#include <optional>
#include <string>

#include "core/learn/learner.h"
#include "core/mechanisms/mechanism.h"

namespace dpstudio::predict {

enum class PredictionKind {
  Sensitivity,  // F: noisy scores of one strongly convex model
  Subsample,    // G: exponential mechanism over the votes of T teachers
};

std::string predictionKindName(PredictionKind kind);  // "prediction", "subsample"
std::optional<PredictionKind> parsePredictionKind(const std::string& name);

struct PredictionOptions {
  PredictionKind kind = PredictionKind::Sensitivity;
  // F: logreg, huber or softmax (λ > 0 is the strong convexity the bound needs; LMGC has no
  // such bound in this form and is refused). G: any learner, trained non-privately.
  LearnerSpec learner;
  double epsilon = 1.0;     // total ε over the whole budget, finite > 0
  double delta = 0.0;       // total δ, in [0, 1)
  long long budget = 100;   // B: answers the predictor may give, ≥ 1
  Index teachers = 256;     // T (G only), ≥ 1; each part has ⌊n/T⌋ rows
  // F only: l2-laplace (any δ; the guarantee is then (ε, 0)) or gaussian (δ > 0).
  mech::NoiseFamily family = mech::NoiseFamily::L2Laplace;
  // corrected (default) or published. F published differs only for Gaussian noise under
  // advanced composition (paper 003 eq. 51); G published uses β = ε/B (Thm 7/8).
  mech::Calibration calibration = mech::Calibration::Corrected;
  // G: the seed of the data-independent partition into T parts (the proof holds for every
  // partition, so it may be public).
  std::uint64_t partitionSeed = 1;

  // Names the offending parameter, before any work.
  Status validate() const;
  bool operator==(const PredictionOptions&) const = default;
};

// The released score vector of a linear model for prediction sensitivity.
struct ScoreShape {
  double K = 1;          // the gradient bound that scales the sensitivity
  Index dimension = 1;   // coordinates released per answer (binary: the one score wᵀx)
  std::string kFormula;  // why K has this value
};
Result<ScoreShape> scoreShape(ModelKind model, Index classes);

// F: Δ = 2K/(nλ); δ = 0 or l2-laplace: β = (ε/B)/Δ = nλε/(2KB); Gaussian: σ from
// privacy::gaussianPerAnswer (basic or advanced composition, the smaller σ). Keys: K,
// Delta, budget, epsilon_per_answer, beta | sigma (+ delta_per_answer, delta_prime,
// sigma_basic, sigma_advanced), expected_noise_norm.
// G: corrected β = ε*/2 with ε* = ε/B (δ = 0) or privacy::epsilonPerAnswer (δ > 0; the
// larger of basic and advanced composition); published β = ε/B, or for δ > 0
// max(ε/B, √(2/B)(√(ln(1/δ)+ε) − √ln(1/δ))). Keys: teachers, part_rows, budget,
// epsilon_per_answer, beta, and for published epsilon_actual (what really holds).
// `shape.rows` is n (the training rows), `shape.features` d, `shape.classes` C.
Result<mech::MechanismReport> calibratePrediction(const PredictionOptions& options,
                                                  const mech::ProblemShape& shape);

// What a private predictor deserves to be told before it answers, from its calibration alone
// (issue 32 item 4). Prediction sensitivity whose expected noise norm E‖b‖ exceeds the
// longest score vector any model can give — ‖θ*ᵀx‖ ≤ ‖θ*‖ ≤ √(2ℓ(0)/λ) for ‖x‖ ≤ 1, whatever
// the data (mech::minimizerNormBound) — answers mostly noise; since E‖b‖ scales as 1/λ, the
// warning names the λ above which the noise is smaller. Subsample-and-aggregate whose
// teachers each train on fewer rows than the data have features, or whose votes cannot
// outweigh the exponential mechanism — even a unanimous vote of T teachers comes back with
// probability e^{βT}/(e^{βT} + C − 1), warned below 0.9.
std::vector<std::string> predictionWarnings(const PredictionOptions& options, const mech::MechanismReport& calibration,
                                           const mech::ProblemShape& shape);

}  // namespace dpstudio::predict
