#include "core/mechanisms/sgd_step.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/util/number_text.h"

namespace dpstudio::mech {

Result<SgdStepLimits> dpSgdStepLimits(const MechanismOptions& options, Index features, Index classes) {
  auto model = makeModel(options.learner, std::max<Index>(features, 1), std::max<Index>(classes, 2));
  if (!model) return model.error();
  SgdStepLimits limits;
  limits.curvature = model.value()->constants().hessianBound;
  const double lambda = options.learner.lambda;
  limits.stable = 2.0 / (limits.curvature + lambda);
  limits.divergent = lambda > 0 ? 2.0 / lambda : std::numeric_limits<double>::infinity();
  return limits;
}

Result<SgdStep> dpSgdStep(const MechanismOptions& options, Index features, Index classes) {
  if (options.sgd.learningRate) return SgdStep{*options.sgd.learningRate, false, "η: given"};
  auto limits = dpSgdStepLimits(options, features, classes);
  if (!limits) return limits.error();
  return SgdStep{1.0 / (limits.value().curvature + options.learner.lambda), true,
                 "η = 1/(L + λ), L = " + briefNumber(limits.value().curvature) +
                     " the loss's curvature bound on the unit ball"};
}

bool estimatesSgdStep(const MechanismOptions& options) {
  return !options.sgd.learningRate && options.learner.kind != ModelKind::Lmgc && options.sgd.stepEstimateShare > 0;
}

double sgdStepForRows(const SgdStepLimits& limits, double lambda, double meanSquaredNorm) {
  return 1.0 / (limits.curvature * meanSquaredNorm + lambda);
}

std::optional<std::string> dpSgdStepWarning(const MechanismOptions& options, Index features, Index classes) {
  if (options.kind != MechanismKind::DpSgd || !options.sgd.learningRate) return std::nullopt;
  const auto limits = dpSgdStepLimits(options, features, classes);
  const double eta = *options.sgd.learningRate;
  if (!limits || !(eta > 0)) return std::nullopt;
  if (eta >= limits.value().divergent)
    return "the step size diverges on every dataset: each DP-SGD step multiplies \u03b8 by 1 \u2212 \u03b7\u03bb = " +
           briefNumber(1.0 - eta * options.learner.lambda) + " (\u03b7 = " + briefNumber(eta) + ", \u03bb = " +
           briefNumber(options.learner.lambda) + "); use \u03b7 below 2/\u03bb = " +
           briefNumber(limits.value().divergent) + ", and below " + briefNumber(limits.value().stable) + " to be safe on every dataset";
  if (eta > limits.value().stable)
    return "the step size \u03b7 = " + briefNumber(eta) + " is above 2/(L + \u03bb) = " +
           briefNumber(limits.value().stable) + ", the largest that descends on every dataset whose rows lie in the unit ball (L = " +
           briefNumber(limits.value().curvature) +
           ", the loss's largest curvature): on rows of norm near 1 DP-SGD can oscillate instead of converging; "
           "a larger step only suits rows well inside the unit ball";
  return std::nullopt;
}

SgdSchedule sgdScheduleFromProblem(Index rows, Index features, Index classes, double epsilon) {
  const double parameters = std::sqrt(static_cast<double>(std::max<Index>(features, 1)) *
                                      static_cast<double>(std::max<Index>(classes, 1)));
  const double size = static_cast<double>(std::max<Index>(rows, 1)) * epsilon / parameters;
  SgdSchedule schedule;
  schedule.steps = static_cast<long long>(std::clamp(std::round(2 * size), 50.0, 2000.0));
  schedule.q = std::min(0.4, 40.0 / static_cast<double>(schedule.steps));
  schedule.averagedTail = 0.5;
  if (std::isinf(epsilon)) {
    // No noise to pay for a batch: at least kNoiseFreeBatch rows, whose sampling noise momentum
    // would otherwise carry as far as the gradient (ionosphere, 263 rows: batches of 5).
    schedule.q = std::min(1.0, std::max(schedule.q, kNoiseFreeBatch / static_cast<double>(std::max<Index>(rows, 1))));
    schedule.momentum = kNoiseFreeMomentum;
  }
  return schedule;
}

double sgdStepMultiplier(double meanSquaredNorm) {
  return std::min(2.0, 1 / meanSquaredNorm);  // m = 0: 1/m = ∞, so 2
}

bool takesScheduleFromProblem(ModelKind model, bool anyOfTheScheduleGiven) {
  return model != ModelKind::Lmgc && !anyOfTheScheduleGiven;
}

}  // namespace dpstudio::mech
