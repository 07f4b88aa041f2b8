#pragma once
// The last digits of a minimizer. Output perturbation's sensitivity bound holds for the
// exact minimizer only (core/mechanisms/exact_minimizer.h fixes how close), but near the
// optimum J changes by ~‖∇J‖²/λ — far below double precision of J itself — so any line
// search that compares objective values (LBFGSpp's) stalls around ‖∇J‖ ≈ 1e-8. This
// polish takes quasi-Newton steps whose length is chosen from directional derivatives
// alone (a secant on φ'(α) = ∇J(θ + αp)ᵀp, exact for a quadratic), which stay accurate
// to the precision of the gradient.

#include "core/optim/optimizer.h"

namespace dpstudio {

struct PolishOptions {
  // Stop when ‖∇J‖ ≤ max(absoluteTolerance, relativeTolerance·‖θ‖), as LbfgsOptions.
  double absoluteTolerance = 1e-9;
  double relativeTolerance = 1e-9;
  int maxIterations = 200;
  int memory = 10;
};

// Improves theta in place; returns the summary of the polish alone. Never makes ‖∇J‖ worse:
// a step that does not reduce it is rejected and the polish stops (LineSearchFailed).
OptimizeSummary polishGradient(const SmoothFunction& f, Eigen::VectorXd& theta,
                               const PolishOptions& options, const IterationCallback& callback = {});

}  // namespace dpstudio
