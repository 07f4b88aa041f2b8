#pragma once
// Shared by the mechanism implementations (not part of the public interface).

#include "core/data/preprocess.h"
#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise.h"

namespace dpstudio::mech::detail {

// The refusal when rows exceed the unit ball: how to pick a public R from what is known of
// the data's domain, without any value computed from the rows (issue 13 bug 6).
inline constexpr const char* kNormBoundHint =
    "the training rows must satisfy ||x|| <= 1 for the privacy proof and some exceed it. Declare the features' "
    "public ranges (--feature-range LO,HI for all, --feature-ranges lo1:hi1,... for each): they are centred and "
    "R is derived from them, nothing to compute. Or declare a public norm bound R (--norm-bound R) from the "
    "data's known domain, not from the data: e.g. pixels in [0, 255] with d features give R = 255*sqrt(d); or "
    "--unit-rows. Do not use the data's largest row norm (info's max_row_norm): "
    "it is itself a release of the private data";

// ‖x_i‖ ≤ 1 for every row (with a rounding allowance of 1e-9), else kNormBoundHint.
Status requireUnitBall(const Dataset& train);

// Scales every row with ‖x‖ > 1 to ‖x‖ ≤ 1 exactly (core/data/preprocess.h, whose row
// scalings end with it).
using dpstudio::clipRowsToUnitBall;

// The rows a mechanism trains on. Rows beyond the rounding allowance are refused
// (requireUnitBall: the user declares a public norm bound); rows within it — 1 < ‖x‖ ≤
// 1 + 1e-9, what dividing by a norm bound R can leave — are clipped to ‖x‖ ≤ 1 instead of
// being let through, because the sensitivity Δ is calibrated for ‖x‖ ≤ 1 exactly (issue 13
// bug 4). No copy of the data unless a row needs clipping.
struct UnitBallRows {
  std::optional<Dataset> clipped;  // set when some rows were clipped
  Index count = 0;                 // rows clipped
  const Dataset& rows(const Dataset& original) const { return clipped ? *clipped : original; }
};
Result<UnitBallRows> unitBallRows(const Dataset& train);

// Records in the report how many rows were clipped (nothing when none were).
void noteClippedRows(MechanismReport& report, Index count);

// The report fields every mechanism fills the same way.
MechanismReport baseReport(const MechanismOptions& options, NoiseLaw noise);

// Records a draw in the report and, in release mode, rounds the released parameters to the
// documented granularity (release_granularity.h).
Status finishRelease(MechanismReport& report, privacy::NoiseSource& source, Eigen::Ref<Eigen::VectorXd> released,
                     double noiseScale);

// Loss perturbation's noise (C, and D corrected) for gradient bound K, under substitution
// (sensitivity 2K; loss_perturbation.cpp says why): sets beta or sigma and the expected
// norm in `report` (noiseDimension must be set) and returns "(ε, δ)-DP".
std::string setLossPerturbationNoise(MechanismReport& report, const MechanismOptions& options, double K);

// B, C and D release an approximate minimizer of a perturbed objective, so where the
// optimizer starts leaks through whatever it has not yet forgotten: they start from zero
// (data-independent, feasible for LMGC) and ignore control.warmStart, which is typically
// fitted on the same data (LMGC's own default start is a non-private class-mean and
// covariance fit). `experimentStart`, set by trainPrivatelyFromSolution only (a sweep
// trial), replaces zero. Returns the control to use.
TrainControl perturbedProblemStart(const TrainControl& control, Index parameters,
                                   const Eigen::VectorXd* experimentStart);

// A sweep trial's start for an unconstrained perturbed problem J' = J₀ + ((q − q₀)/2)‖θ‖² + cᵀθ
// (q₀ the quadratic of the non-private J₀ on the same scale, terms = (q, c)): the non-private
// minimizer θ* moved to where ∇J' would vanish if the loss's gradient stayed at its value at
// θ*, (q₀θ* − c)/q. Exact along every direction the rows do not span (MNIST's constant
// border pixels), where the noise dominates at small ε; the optimizer corrects the rest.
Eigen::VectorXd shiftedSolution(const Eigen::VectorXd& solution, double baselineQuadratic,
                                const ObjectiveTerms& terms);

// The privacy proofs of B, C and D are for the exact minimizer: records the optimizer's
// termination in report.termination (the worst so far, for one-vs-rest) and, when it is
// anything but Converged (iteration limit, failed line search, numerical error), says so
// in report.warning.
void noteConvergence(MechanismReport& report, const OptimizeSummary& summary);

// A refusal of an option (MechanismOptions::validate, TrainingMechanism::validate), naming
// its field.
inline Error invalidOption(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}

inline bool isBinaryLinear(ModelKind kind) {
  return kind == ModelKind::LogisticRegression || kind == ModelKind::HuberSvm;
}

}  // namespace dpstudio::mech::detail
