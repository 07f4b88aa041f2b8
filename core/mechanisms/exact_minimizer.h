#pragma once
// The sensitivity bounds of output perturbation (A), prediction sensitivity (F) and
// multiparty aggregation (I) hold for the exact minimizer of a strongly convex objective,
// which no optimizer returns. A relative gradient norm of 1e-9·(1 + ‖θ‖) (the first design;
// docs/algorithms.md §3.0) depends on the data (through θ) and is not tied to the sensitivity, so
// the leftover distance to the minimizer is not covered by any calibration.
//
// Instead: fix the tolerance τ in advance from public quantities only, and calibrate on the
// sensitivity plus twice the distance τ allows (each of the two neighbouring outputs may sit
// that far from its own minimizer). μ-strong convexity gives ‖θ − θ*‖ ≤ τ/μ for an
// unconstrained problem; for the projected-gradient step on a convex set with an L-smooth
// objective, ‖θ − θ*‖ ≤ τ(1 + (1 + L)/μ). τ is chosen so that the extra is a fixed share
// (1e-4) of the exact sensitivity: the noise grows by 0.01%, and a run that stops short of τ
// releases nothing.

#include <string>

#include "core/learn/learner.h"

namespace dpstudio::mech {

struct ExactMinimizerBound {
  double strongConvexity = 1;  // μ of the objective the optimizer reports the gradient of
  double smoothness = 0;       // L for a constrained (projected) problem; 0 = unconstrained

  static constexpr double kShareOfSensitivity = 1e-4;

  // ‖θ − θ*‖ per unit of the reached gradient norm.
  double distancePerTolerance() const;
  // τ for a sensitivity Δ₀ of the exact minimizer (or of whatever it moves by a factor ≤ 1
  // per unit of parameter distance, e.g. scores on ‖x‖ ≤ 1).
  double tolerance(double exactSensitivity) const;
  // Δ₀ + 2·τ·distancePerTolerance() = Δ₀·(1 + 1e-4): what the noise is calibrated on.
  double sensitivity(double exactSensitivity) const;
};

// The caller's control (progress, stop token, warm start) stopping only at ‖∇J‖ ≤ τ, with
// room for the iterations an exact solve takes.
TrainControl exactMinimizerControl(const TrainControl& control, double tolerance);

// Ok when the optimizer reached τ; otherwise an Internal error on field "tolerance" saying
// that `what` released nothing and why.
Status requireExactMinimizer(const OptimizeSummary& summary, double tolerance, const std::string& what);

}  // namespace dpstudio::mech
