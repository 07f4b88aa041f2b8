#pragma once
// L-BFGS for smooth unconstrained problems, through LBFGSpp (Debian liblbfgspp-dev).

#include "core/optim/optimizer.h"

namespace dpstudio {

struct LbfgsOptions {
  // Stop when ‖∇J‖ ≤ max(absoluteTolerance, relativeTolerance·‖θ‖).
  double absoluteTolerance = 1e-9;
  double relativeTolerance = 1e-9;
  int maxIterations = 2000;
  // Correction pairs kept, at most kMaxPairBytes of them (2·m·d doubles). Ill-conditioned
  // fits need many: softmax on MNIST at λ = 1e-5 took 176 iterations with 10 pairs, 102 with
  // 50 (77 with 80); logistic on a9a 225 → 114; each pair costs 4d flops an iteration, far
  // below one gradient.
  int memory = 50;
  int maxLineSearch = 40;     // trial steps per line search

  static constexpr double kMaxPairBytes = 64.0 * 1024 * 1024;

  // Names the first invalid field, e.g. "memory must be >= 1".
  Status validate() const;
};

// Minimizes f from theta (in: the warm start; out: the best point found).
OptimizeSummary minimizeLbfgs(const SmoothFunction& f, Eigen::VectorXd& theta,
                              const LbfgsOptions& options, const IterationCallback& callback = {});

}  // namespace dpstudio
