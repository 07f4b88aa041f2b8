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
  return Error{ErrorKind::Internal,
               "the optimizer stopped at gradient norm " + privacy::formatNumber(summary.gradientNorm) + " > " +
                   privacy::formatNumber(tolerance) + "; " + what +
                   "'s sensitivity bound holds for the exact minimizer only, so nothing was released (" +
                   summary.message + ")",
               {}, 0, "tolerance"};
}

}  // namespace dpstudio::mech
