#pragma once
// Accelerated projected gradient (FISTA; Beck & Teboulle 2009) for
//
//   minimize J(θ) over a closed convex set S given by its Euclidean projection P_S,
//
// with J convex and smooth. Used for LMGC (S = each Φ_c ⪰ 0), and usable unconstrained
// (empty projection). The step size is found by backtracking on the quadratic upper bound
// and allowed to grow again between iterations, since LMGC's Huber loss has very different
// curvature in different regions. Momentum is reset when it stops helping (adaptive
// restart, O'Donoghue & Candès 2015), and a momentum step that would increase J is
// rejected, so J never increases (beyond rounding) and the returned θ is the best iterate.
//
// Guarantees: every iterate, the returned θ included, is the output of P_S (feasible),
// even when cancelled or when the line search fails. theta on input is the warm start;
// it is projected before the first evaluation.
//
// Stopping: ‖P_S(θ − ∇J(θ)) − θ‖ ≤ max(absoluteTolerance, relativeTolerance·‖θ‖). This
// "projected-gradient step" with unit step is zero exactly at a minimizer; unconstrained
// it is ‖∇J‖. It is reported as OptimizeSummary::gradientNorm and IterationInfo::gradientNorm.
// Note it scales with J: on the sum scale, choose tolerances relative to n. With
// ProjectedGradientOptions::stationarity set, that function's measure replaces it.
//
// Terminations: Converged; MaxIterations; Cancelled (the callback returned false);
// LineSearchFailed (maxBacktracks trial steps all failed the bound; reported as Converged
// instead if the tolerance holds there); NumericalError (invalid options, or J or ∇J not
// finite at the start). In every case but invalid options (theta untouched) theta holds
// the best feasible point reached.
//
// Cost per iteration: usually two evaluations of f (at the extrapolated point and at the
// new iterate) and two projections, plus one evaluation per backtracking step. f is also
// evaluated at extrapolated points, which may lie outside S: it must be finite near S
// (where it is not, the momentum is dropped for that step).

#include <functional>

#include "core/optim/optimizer.h"

namespace dpstudio {

struct ProjectedGradientOptions {
  double absoluteTolerance = 1e-8;  // ≥ 0; see "Stopping" above
  double relativeTolerance = 1e-8;  // ≥ 0; not both 0
  int maxIterations = 5000;         // ≥ 1; accepted or rejected steps, not evaluations
  double initialStep = 1.0;         // > 0: first trial step (a guess of 1/Lipschitz)
  double backtrackingFactor = 0.5;  // in (0, 1): step *= factor while the bound fails
  double stepGrowth = 1.1;          // ≥ 1: step *= growth before each iteration (1 = never grow)
  int maxBacktracks = 60;           // ≥ 1: trial steps per iteration before giving up
  bool restart = true;              // adaptive momentum restart (recommended)
  // ≥ 1: the stopping measure is taken every this many iterations (and at the last one, and
  // of the returned θ). Where it costs as much as a step (LMGC's: an eigendecomposition per
  // class), 4 saves most of that for at most 3 iterations past the tolerance. The steps do
  // not depend on it; the callback sees the last measure taken.
  int measureEvery = 1;

  // Optional: the stopping measure in other coordinates than the solver's. A solver run on a
  // reparametrized problem (θ = map(x), e.g. LMGC in whitened coordinates, lmgc_solver.h)
  // must stop on the original problem's measure, so that "converged" and the reported
  // gradient norm mean the same as without the map. Given the solver's x and ∇J(x), it
  // returns the measure and the norm of the original parameters (for relativeTolerance).
  struct Stationarity {
    double measure = 0;
    double parameterNorm = 0;
  };
  std::function<Stationarity(const Eigen::VectorXd& x, const Eigen::VectorXd& grad)> stationarity;

  // Names the first invalid field, e.g. "backtrackingFactor must be in (0, 1)".
  Status validate() const;
};

// Replaces θ by its Euclidean projection onto the feasible set, in place.
using ProjectionFunction = std::function<void(Eigen::VectorXd&)>;

// Minimizes f over the set whose projection is `project` (empty = unconstrained), from
// theta (in: the warm start; out: the best feasible point found). The callback sees every
// iteration; returning false stops with Termination::Cancelled and the current (feasible)
// iterate in theta. Invalid options: termination NumericalError with the message naming
// the field, theta untouched.
OptimizeSummary minimizeProjectedGradient(const SmoothFunction& f, const ProjectionFunction& project,
                                          Eigen::VectorXd& theta,
                                          const ProjectedGradientOptions& options,
                                          const IterationCallback& callback = {});

}  // namespace dpstudio
