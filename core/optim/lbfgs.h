#pragma once
// L-BFGS for smooth unconstrained problems, through LBFGSpp (Debian liblbfgspp-dev).

#include "core/optim/optimizer.h"

namespace dpstudio {

struct LbfgsOptions {
  // Stop when ‖∇J‖ ≤ max(absoluteTolerance, relativeTolerance·‖θ‖).
  double absoluteTolerance = 1e-9;
  double relativeTolerance = 1e-9;
  int maxIterations = 2000;
  int memory = 10;            // number of correction pairs kept
  int maxLineSearch = 40;     // trial steps per line search

  // Names the first invalid field, e.g. "memory must be >= 1".
  Status validate() const;
};

// Minimizes f from theta (in: the warm start; out: the best point found).
OptimizeSummary minimizeLbfgs(const SmoothFunction& f, Eigen::VectorXd& theta,
                              const LbfgsOptions& options, const IterationCallback& callback = {});

}  // namespace dpstudio
