#include "core/optim/projected_gradient.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace dpstudio {
namespace {

Error invalidOption(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

// Below this relative size, differences of J are treated as rounding noise.
constexpr double kValueReliable = 1e-9;

bool finite(double value, const Eigen::VectorXd& grad) {
  return std::isfinite(value) && grad.allFinite();
}

// The state of one point: where, J there, ∇J there.
struct Point {
  Eigen::VectorXd x;
  double f = 0;
  Eigen::VectorXd g;
};

class Solver {
 public:
  Solver(const SmoothFunction& f, const ProjectionFunction& project, const ProjectedGradientOptions& o)
      : f_(f), project_(project), o_(o) {}

  void projectInPlace(Eigen::VectorXd& v) const {
    if (project_) project_(v);
  }

  bool evaluate(Point& p) {
    ++evaluations;
    p.f = f_(p.x, p.g);
    return finite(p.f, p.g);
  }

  // ‖P(x − ∇J(x)) − x‖: the stopping measure (unit step, see the header), or the caller's
  // (options.stationarity). Also sets the tolerance that goes with it.
  double projectedGradientNorm(const Point& p) {
    if (o_.stationarity) {
      const ProjectedGradientOptions::Stationarity s = o_.stationarity(p.x, p.g);
      tolerance_ = std::max(o_.absoluteTolerance, o_.relativeTolerance * s.parameterNorm);
      return s.measure;
    }
    scratch_ = p.x - p.g;
    projectInPlace(scratch_);
    tolerance_ = std::max(o_.absoluteTolerance, o_.relativeTolerance * p.x.norm());
    return (scratch_ - p.x).norm();
  }

  // The tolerance at the point last measured by projectedGradientNorm().
  double tolerance() const { return tolerance_; }

  // One backtracking gradient step from y into next. Returns false if no trial step
  // satisfied the bound within maxBacktracks.
  bool gradientStep(const Point& y, Point& next, double& alpha) {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    for (int trial = 0; trial < o_.maxBacktracks; ++trial, alpha *= o_.backtrackingFactor) {
      next.x = y.x - alpha * y.g;
      projectInPlace(next.x);
      if (!evaluate(next)) continue;  // overshot into a non-finite region: shorter step
      const Eigen::VectorXd d = next.x - y.x;
      const double d2 = d.squaredNorm();
      if (d2 == 0) return true;  // y is a fixed point of the step: stationary
      // The quadratic upper bound J(x⁺) ≤ J(y) + ∇J(y)ᵀd + ‖d‖²/(2α). Once its curvature
      // term is within a few orders of the rounding of J itself (J is often a long sum),
      // J values cannot decide; then use the curvature test on gradients instead,
      // ⟨∇J(x⁺) − ∇J(y), d⟩ ≤ ‖d‖²/α (as TFOCS does).
      const double scale = std::max(std::abs(y.f), std::abs(next.f));
      const double curvature = 0.5 * d2 / alpha;
      const bool accepted = curvature > kValueReliable * scale
                                ? next.f - y.f <= y.g.dot(d) + curvature + 64 * eps * scale
                                : (next.g - y.g).dot(d) <= d2 / alpha;
      if (accepted) return true;
    }
    return false;
  }

  int evaluations = 0;

 private:
  const SmoothFunction& f_;
  const ProjectionFunction& project_;
  const ProjectedGradientOptions& o_;
  Eigen::VectorXd scratch_;
  double tolerance_ = 0;
};

}  // namespace

Status ProjectedGradientOptions::validate() const {
  if (!(absoluteTolerance >= 0) || !(relativeTolerance >= 0) || !std::isfinite(absoluteTolerance) ||
      !std::isfinite(relativeTolerance) || (absoluteTolerance == 0 && relativeTolerance == 0))
    return invalidOption("tolerances must be finite, >= 0 and not both 0", "tolerance");
  if (maxIterations < 1) return invalidOption("maxIterations must be >= 1", "maxIterations");
  if (!(initialStep > 0) || !std::isfinite(initialStep))
    return invalidOption("initialStep must be finite and > 0", "initialStep");
  if (!(backtrackingFactor > 0 && backtrackingFactor < 1))
    return invalidOption("backtrackingFactor must be in (0, 1)", "backtrackingFactor");
  if (!(stepGrowth >= 1) || !std::isfinite(stepGrowth))
    return invalidOption("stepGrowth must be finite and >= 1", "stepGrowth");
  if (maxBacktracks < 1) return invalidOption("maxBacktracks must be >= 1", "maxBacktracks");
  if (measureEvery < 1) return invalidOption("measureEvery must be >= 1", "measureEvery");
  return Ok{};
}

OptimizeSummary minimizeProjectedGradient(const SmoothFunction& f, const ProjectionFunction& project,
                                          Eigen::VectorXd& theta,
                                          const ProjectedGradientOptions& options,
                                          const IterationCallback& callback) {
  const auto start = std::chrono::steady_clock::now();
  OptimizeSummary summary;
  const auto finish = [&](Termination termination, std::string message = {}) {
    summary.termination = termination;
    if (!message.empty()) summary.message = std::move(message);
    summary.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
  };
  if (auto status = options.validate(); !status)
    return finish(Termination::NumericalError, status.error().toString());

  Solver solver(f, project, options);
  Point x{theta, 0, Eigen::VectorXd(theta.size())};
  solver.projectInPlace(x.x);
  theta = x.x;  // feasible from here on, whatever happens
  const bool startFinite = solver.evaluate(x);
  summary.evaluations = solver.evaluations;
  summary.objective = x.f;
  if (!startFinite)
    return finish(Termination::NumericalError, "the objective or its gradient is not finite at the start");
  summary.gradientNorm = solver.projectedGradientNorm(x);
  if (summary.gradientNorm <= solver.tolerance()) return finish(Termination::Converged);

  Point y = x;     // where the next gradient step starts (extrapolated, maybe infeasible)
  bool yIsX = true;  // no momentum in y
  Point next = x;  // the trial iterate
  Eigen::VectorXd previous = x.x;
  double t = 1;    // FISTA's momentum sequence
  double alpha = options.initialStep;
  Termination termination = Termination::MaxIterations;
  std::string message;
  bool measured = true;  // summary.gradientNorm is x's

  for (int iteration = 1; iteration <= options.maxIterations; ++iteration) {
    summary.iterations = iteration;
    if (iteration > 1) alpha *= options.stepGrowth;
    if (!solver.gradientStep(y, next, alpha)) {
      termination = Termination::LineSearchFailed;
      message = "no step size satisfied the backtracking condition";
      break;
    }
    const double noise = 64 * std::numeric_limits<double>::epsilon() *
                         std::max(std::abs(x.f), std::abs(next.f));
    if (!yIsX && next.f > x.f + noise) {
      // The extrapolation overshot: reject the step and retry from x without momentum.
      // (From the feasible x itself a step satisfying the bound cannot increase J in exact
      // arithmetic, so without momentum the step is always taken.)
      t = 1;
      y = x;
      yIsX = true;
    } else {
      // Adaptive restart (gradient scheme): drop the momentum when the step and the
      // direction of travel disagree.
      double tNext = 0.5 * (1 + std::sqrt(1 + 4 * t * t));
      if (options.restart && (y.x - next.x).dot(next.x - x.x) > 0) tNext = 1;
      const double beta = tNext == 1 ? 0.0 : (t - 1) / tNext;
      t = tNext;
      previous.swap(x.x);   // previous ← the old iterate
      std::swap(x, next);   // x ← the accepted trial; next keeps spare buffers
      measured = iteration % options.measureEvery == 0 || iteration == options.maxIterations;
      if (measured) summary.gradientNorm = solver.projectedGradientNorm(x);
      yIsX = true;
      if (beta == 0) {
        y = x;
      } else {
        y.x = x.x + beta * (x.x - previous);
        if (solver.evaluate(y)) {
          yIsX = false;
        } else {
          t = 1;
          y = x;
        }
      }
    }
    summary.objective = x.f;
    summary.evaluations = solver.evaluations;
    if (callback && !callback({iteration, x.f, summary.gradientNorm})) {
      termination = Termination::Cancelled;
      break;
    }
    if (measured && summary.gradientNorm <= solver.tolerance()) {
      termination = Termination::Converged;
      break;
    }
  }

  if (!measured) summary.gradientNorm = solver.projectedGradientNorm(x);
  theta = x.x;
  summary.step = alpha;
  summary.objective = x.f;
  summary.evaluations = solver.evaluations;
  if (termination == Termination::LineSearchFailed &&
      summary.gradientNorm <= solver.tolerance())
    termination = Termination::Converged;  // failed only because it was done
  return finish(termination, message);
}

}  // namespace dpstudio
