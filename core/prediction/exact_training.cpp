#include "core/prediction/exact_training.h"

#include <algorithm>

#include "core/mechanisms/mechanism_internal.h"
#include "core/privacy/validation.h"

namespace dpstudio::predict {

TrainControl exactControl(const TrainControl& control) {
  TrainControl exact = control;
  exact.tolerance = std::min(control.tolerance, mech::detail::kExactMinimizerTolerance);
  exact.maxIterations = std::max(control.maxIterations, 20000);
  return exact;
}

Status requireExactMinimizer(const OptimizeSummary& summary, const Eigen::VectorXd& theta) {
  const double allowed = mech::detail::kExactMinimizerTolerance * (1.0 + theta.norm());
  if (summary.gradientNorm <= allowed) return Ok{};
  return Error{ErrorKind::Internal,
               "the optimizer stopped at gradient norm " + privacy::formatNumber(summary.gradientNorm) + " > " +
                   privacy::formatNumber(allowed) +
                   "; the sensitivity bound holds for the exact minimizer only, so nothing was released (" +
                   summary.message + ")",
               {}, 0, "tolerance"};
}

Status requireUnitRows(const Dataset& data) { return mech::detail::requireUnitBall(data); }

}  // namespace dpstudio::predict
