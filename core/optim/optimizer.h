#pragma once
// Optimizers: Options in, Summary out (Ceres-style). Progress and cancellation come through
// an IterationCallback, never through threads or exceptions; "cancelled" is a termination,
// not an error. Solver exceptions (LBFGSpp throws) are caught at this boundary.

#include <functional>
#include <string>

#include <Eigen/Core>

#include "core/util/result.h"

namespace dpstudio {

enum class Termination {
  Converged,         // the gradient (or projected-gradient) norm reached the tolerance
  MaxIterations,     // stopped at the iteration limit
  Cancelled,         // the callback asked to stop
  LineSearchFailed,  // no step decreased the objective (often: already at machine precision)
  NumericalError,    // a non-finite objective or gradient
  Completed,         // ran a fixed plan of steps to its end (DP-SGD): success, no tolerance
};

std::string terminationName(Termination termination);

struct IterationInfo {
  int iteration = 0;
  double objective = 0;
  double gradientNorm = 0;
};

// Called after every iteration; return false to stop (termination Cancelled).
using IterationCallback = std::function<bool(const IterationInfo&)>;

struct OptimizeSummary {
  Termination termination = Termination::Converged;
  std::string message;  // details for people, e.g. the solver's exception text
  int iterations = 0;
  int evaluations = 0;  // objective + gradient evaluations
  double objective = 0;
  double gradientNorm = 0;  // ‖∇J‖ at the result; for constrained problems the norm of the
                            // projected-gradient step (proj(θ − ∇J) − θ)
  double seconds = 0;
  double step = 0;  // projected gradient: its last step size (≈ 1/L, L ∇J's Lipschitz constant)

  bool usable() const {
    return termination == Termination::Converged || termination == Termination::MaxIterations ||
           termination == Termination::LineSearchFailed || termination == Termination::Completed;
  }
};

// A smooth objective: returns J(θ) and overwrites grad with ∇J(θ).
using SmoothFunction = std::function<double(const Eigen::VectorXd& theta, Eigen::VectorXd& grad)>;

}  // namespace dpstudio
