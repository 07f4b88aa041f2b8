#include "core/mechanisms/exact_minimizer.h"

#include <algorithm>

#include "core/privacy/validation.h"

namespace dpstudio::mech {

double ExactMinimizerBound::distancePerTolerance() const {
  return smoothness > 0 ? 1.0 + (1.0 + smoothness) / strongConvexity : 1.0 / strongConvexity;
}

double ExactMinimizerBound::tolerance(double exactSensitivity) const {
  return kShareOfSensitivity * exactSensitivity / (2.0 * distancePerTolerance());
}

double ExactMinimizerBound::sensitivity(double exactSensitivity) const {
  return exactSensitivity + 2.0 * tolerance(exactSensitivity) * distancePerTolerance();
}

TrainControl exactMinimizerControl(const TrainControl& control, double tolerance) {
  TrainControl exact = control;
  exact.exactGradientNorm = tolerance;
  exact.maxIterations = std::max(control.maxIterations, 20000);
  return exact;
}

Status requireExactMinimizer(const OptimizeSummary& summary, double tolerance, const std::string& what) {
  if (summary.gradientNorm <= tolerance) return Ok{};
  std::string how = "optimizer termination: " + terminationName(summary.termination);
  if (!summary.message.empty()) how += ": " + summary.message;
  // What the user can change: the iteration limit when it was hit; otherwise the optimizer
  // stalled at the precision of doubles, and a larger λ conditions the problem better.
  const std::string fix =
      summary.termination == Termination::MaxIterations
          ? "raise the iteration limit (--max-iterations; the run stopped at it after " +
                std::to_string(summary.iterations) + " iterations)"
          : "use a larger lambda (a better-conditioned objective; tau is fixed in advance from n, lambda and K, "
            "so it cannot be loosened)";
  return Error{ErrorKind::Internal,
               "the optimizer stopped at gradient norm " + privacy::formatNumber(summary.gradientNorm) +
                   " > tau = " + privacy::formatNumber(tolerance) + " (" + how + "); " + what +
                   "'s sensitivity bound holds for the exact minimizer only, so nothing was released. To fix: " +
                   fix,
               {}, 0, "tolerance"};
}

}  // namespace dpstudio::mech
