#include "core/optim/lbfgs.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <LBFGS.h>

#include "core/optim/gradient_polish.h"

namespace dpstudio {
namespace {

// Thrown from inside the objective to unwind LBFGSpp when the callback asks to stop;
// LBFGSpp has no hook of its own. Never leaves this file.
struct StopRequested {};
// Thrown when a trial point's objective is not finite: LBFGSpp would go on evaluating NaN.
struct LeftFiniteRegion {};
// Thrown when the line search asks for the point it has just evaluated, again: its step has
// shrunk below the resolution of θ, which happens near the optimum of an objective whose
// value is large against its last digits (loss perturbation on MNIST: J ≈ −6e8 at ε = 0.1).
// LBFGSpp would spend the rest of its max_linesearch trials (25 of a 48-evaluation run)
// there before giving up; the gradient polish below finishes instead.
struct LineSearchStalled {};

Error invalidOption(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

}  // namespace

std::string terminationName(Termination termination) {
  switch (termination) {
    case Termination::Converged: return "converged";
    case Termination::MaxIterations: return "max_iterations";
    case Termination::Cancelled: return "cancelled";
    case Termination::LineSearchFailed: return "line_search_failed";
    case Termination::NumericalError: return "numerical_error";
    case Termination::Completed: return "completed";
  }
  return "unknown";
}

Status LbfgsOptions::validate() const {
  if (!(absoluteTolerance >= 0) || !(relativeTolerance >= 0) ||
      (absoluteTolerance == 0 && relativeTolerance == 0))
    return invalidOption("tolerances must be >= 0 and not both 0", "tolerance");
  if (maxIterations < 1) return invalidOption("maxIterations must be >= 1", "maxIterations");
  if (memory < 1) return invalidOption("memory must be >= 1", "memory");
  if (maxLineSearch < 1) return invalidOption("maxLineSearch must be >= 1", "maxLineSearch");
  return Ok{};
}

OptimizeSummary minimizeLbfgs(const SmoothFunction& f, Eigen::VectorXd& theta,
                              const LbfgsOptions& options, const IterationCallback& callback) {
  const auto start = std::chrono::steady_clock::now();
  OptimizeSummary summary;
  if (auto status = options.validate(); !status) {
    summary.termination = Termination::NumericalError;
    summary.message = status.error().toString();
    return summary;
  }

  LBFGSpp::LBFGSParam<double> param;
  // Fewer pairs for a huge θ (d > 80 000 at 50 pairs), but not fewer than 10 unless asked.
  const double pairBytes = 2.0 * sizeof(double) * static_cast<double>(std::max<Eigen::Index>(theta.size(), 1));
  param.m = std::min(options.memory, std::max(10, static_cast<int>(LbfgsOptions::kMaxPairBytes / pairBytes)));
  param.epsilon = options.absoluteTolerance;
  param.epsilon_rel = options.relativeTolerance;
  param.max_iterations = options.maxIterations;
  param.max_linesearch = options.maxLineSearch;
  param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE;  // required by NocedalWright
  LBFGSpp::LBFGSSolver<double, LBFGSpp::LineSearchNocedalWright> solver(param);

  // LBFGSpp evaluates once per line-search trial; an "iteration" for the callback is an
  // accepted point, which we recognise as an evaluation whose objective is the best so far.
  int evaluations = 0;
  double best = INFINITY;
  Eigen::VectorXd bestTheta = theta;
  Eigen::VectorXd bestGrad;  // ∇J at bestTheta: the answer's gradient without evaluating again
  Eigen::VectorXd last;
  int repeats = 0;  // consecutive evaluations of the same point
  auto wrapped = [&](const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
    if (evaluations > 0 && x == last) {
      if (++repeats >= 2) throw LineSearchStalled{};
    } else {
      repeats = 0;
      last = x;
    }
    const double value = f(x, grad);
    ++evaluations;
    if (!std::isfinite(value) || !grad.allFinite()) throw LeftFiniteRegion{};
    if (value < best) {
      best = value;
      bestTheta = x;
      bestGrad = grad;
      if (callback && !callback({evaluations, value, grad.norm()})) throw StopRequested{};
    }
    return value;
  };

  double fx = 0;
  try {
    summary.iterations = solver.minimize(wrapped, theta, fx);
    summary.termination = summary.iterations >= options.maxIterations ? Termination::MaxIterations
                                                                      : Termination::Converged;
    // The line search can end on a trial point (even a non-finite one, when it
    // interpolates at round-off level); the best point evaluated is the answer.
    if (!theta.allFinite() || !(fx <= best)) theta = bestTheta;
  } catch (const LeftFiniteRegion&) {
    summary.termination = Termination::LineSearchFailed;
    summary.message = "a trial point had a non-finite objective";
    theta = bestTheta;
  } catch (const LineSearchStalled&) {
    summary.termination = Termination::LineSearchFailed;
    summary.message = "the line search stalled at round-off (the same point again)";
    theta = bestTheta;
  } catch (const StopRequested&) {
    summary.termination = Termination::Cancelled;
    theta = bestTheta;
  } catch (const std::exception& e) {
    // LBFGSpp throws when the line search fails; the best point seen is still valid.
    summary.termination = Termination::LineSearchFailed;
    summary.message = e.what();
    theta = bestTheta;
  }
  Eigen::VectorXd grad(theta.size());
  if (bestGrad.size() == theta.size() && theta == bestTheta) {
    // A warm start at the minimizer (a sweep's output perturbation) costs one evaluation.
    summary.objective = best;
    grad = bestGrad;
    summary.evaluations = evaluations;
  } else {
    summary.objective = f(theta, grad);
    summary.evaluations = evaluations + 1;
  }
  summary.gradientNorm = grad.norm();
  const double target = std::max(options.absoluteTolerance, options.relativeTolerance * theta.norm());
  if (!std::isfinite(summary.objective) || !grad.allFinite()) {
    summary.termination = Termination::NumericalError;
    summary.message = "the objective or its gradient is not finite";
  } else if (summary.termination != Termination::Cancelled && summary.gradientNorm > target &&
             summary.iterations < options.maxIterations) {
    // LBFGSpp's line search compares objective values and stalls near the optimum; finish
    // with derivative-only steps (see gradient_polish.h), within what is left of the
    // iteration limit: maxIterations bounds the two together (a limit of 1 once ran 164).
    PolishOptions polish;
    polish.absoluteTolerance = options.absoluteTolerance;
    polish.relativeTolerance = options.relativeTolerance;
    polish.maxIterations = std::min(polish.maxIterations, options.maxIterations - summary.iterations);
    const OptimizeSummary polished = polishGradient(f, theta, polish, callback);
    summary.iterations += polished.iterations;
    summary.evaluations += polished.evaluations;
    summary.objective = polished.objective;
    summary.gradientNorm = polished.gradientNorm;
    if (polished.termination == Termination::Converged || polished.termination == Termination::Cancelled ||
        polished.termination == Termination::NumericalError) {
      summary.termination = polished.termination;
      summary.message = polished.message;
    } else if (summary.iterations >= options.maxIterations) {
      summary.termination = Termination::MaxIterations;
    } else if (summary.termination == Termination::Converged) {
      summary.termination = Termination::LineSearchFailed;  // neither reached the tolerance
      summary.message = polished.message;
    }
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace dpstudio
