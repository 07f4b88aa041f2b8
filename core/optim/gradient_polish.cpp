#include "core/optim/gradient_polish.h"

#include <chrono>
#include <cmath>
#include <deque>

namespace dpstudio {
namespace {

struct Pair {
  Eigen::VectorXd s, y;
  double rho;
};

// The L-BFGS two-loop recursion: an approximation of −H⁻¹g.
Eigen::VectorXd quasiNewtonDirection(const std::deque<Pair>& pairs, const Eigen::VectorXd& g) {
  Eigen::VectorXd q = g;
  std::vector<double> alpha(pairs.size());
  for (std::size_t k = pairs.size(); k-- > 0;) {
    alpha[k] = pairs[k].rho * pairs[k].s.dot(q);
    q -= alpha[k] * pairs[k].y;
  }
  if (!pairs.empty()) {
    const Pair& last = pairs.back();
    q *= last.s.dot(last.y) / last.y.squaredNorm();
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double beta = pairs[k].rho * pairs[k].y.dot(q);
    q += (alpha[k] - beta) * pairs[k].s;
  }
  return -q;
}

}  // namespace

OptimizeSummary polishGradient(const SmoothFunction& f, Eigen::VectorXd& theta,
                               const PolishOptions& options, const IterationCallback& callback) {
  const auto start = std::chrono::steady_clock::now();
  OptimizeSummary summary;
  auto target = [&](const Eigen::VectorXd& x) {
    return std::max(options.absoluteTolerance, options.relativeTolerance * x.norm());
  };
  Eigen::VectorXd g(theta.size()), gTrial(theta.size()), gProbe(theta.size());
  double value = f(theta, g);
  ++summary.evaluations;
  std::deque<Pair> pairs;
  constexpr int kPatience = 20;
  Eigen::VectorXd bestTheta = theta;
  double bestNorm = g.norm();
  int sinceBest = 0;
  summary.termination = Termination::MaxIterations;
  for (int it = 0; it < options.maxIterations; ++it) {
    if (!std::isfinite(value) || !g.allFinite()) {
      summary.termination = Termination::NumericalError;
      break;
    }
    if (g.norm() <= target(theta)) {
      summary.termination = Termination::Converged;
      break;
    }
    Eigen::VectorXd p = quasiNewtonDirection(pairs, g);
    double slope0 = g.dot(p);
    if (!(slope0 < 0)) {  // not a descent direction: restart from steepest descent
      pairs.clear();
      p = -g;
      slope0 = -g.squaredNorm();
    }
    // The quasi-Newton step itself, accepted when it ends near the line's minimum (the slope
    // fell to a tenth: the strong Wolfe curvature condition); otherwise the secant on φ'(α)
    // between α = 0 and α = 1, the exact minimizer for a quadratic.
    Eigen::VectorXd trial = theta + p;
    double trialValue = f(trial, gProbe);
    ++summary.evaluations;
    const double slope1 = gProbe.dot(p);
    if (std::isfinite(trialValue) && gProbe.allFinite() && std::abs(slope1) <= 0.1 * std::abs(slope0)) {
      gTrial.swap(gProbe);
    } else {
      double step = 1.0;
      if (slope1 > slope0) step = std::clamp(-slope0 / (slope1 - slope0), 1e-8, 10.0);
      trial = theta + step * p;
      trialValue = f(trial, gTrial);
      ++summary.evaluations;
    }
    if (!std::isfinite(trialValue) || !gTrial.allFinite()) {
      summary.termination = Termination::LineSearchFailed;
      summary.message = "a polish step left the finite region";
      break;
    }
    // ‖∇J‖ need not fall at every exact line minimization; keep the best point and give up
    // only after a run of steps without a new best.
    if (gTrial.norm() < bestNorm) {
      bestNorm = gTrial.norm();
      bestTheta = trial;
      sinceBest = 0;
    } else if (++sinceBest >= kPatience) {
      summary.termination = Termination::LineSearchFailed;
      summary.message = "the gradient norm stopped decreasing (round-off level)";
      break;
    }
    Pair pair{trial - theta, gTrial - g, 0.0};
    const double sy = pair.s.dot(pair.y);
    theta = trial;
    g = gTrial;
    value = trialValue;
    ++summary.iterations;
    if (sy > 1e-300) {
      pair.rho = 1.0 / sy;
      pairs.push_back(std::move(pair));
      if (static_cast<int>(pairs.size()) > options.memory) pairs.pop_front();
    }
    if (callback && !callback({summary.iterations, value, g.norm()})) {
      summary.termination = Termination::Cancelled;
      break;
    }
  }
  if (bestNorm < g.norm() || !g.allFinite()) {
    theta = bestTheta;
    value = f(theta, g);
    ++summary.evaluations;
  }
  summary.objective = value;
  summary.gradientNorm = g.norm();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace dpstudio
