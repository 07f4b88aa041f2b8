#include "core/mechanisms/pre_run_warnings.h"

#include <cmath>

#include "core/mechanisms/noise_scale.h"
#include "core/mechanisms/sgd_step.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech {

std::vector<std::string> preRunWarnings(const MechanismReport& calibration, const ProblemShape& shape,
                                        const MechanismOptions* training) {
  std::vector<std::string> warnings;
  // A δ that allows publishing a whole record is accepted (a teacher may show exactly that)
  // but never silently; not where there is no guarantee at all (DP-SGD without noise).
  if (std::isfinite(calibration.epsilon))
    if (auto doubtful = privacy::doubtfulDeltaWarning(calibration.delta, static_cast<long>(shape.rows)))
      warnings.push_back(*doubtful);
  if (!training) return warnings;
  if (auto swamped = noiseSwampsModelWarning(*training, calibration, shape.classes)) warnings.push_back(*swamped);
  if (auto moved = perturbationSwampsModelWarning(*training, calibration, shape)) warnings.push_back(*moved);
  if (auto step = dpSgdStepWarning(*training, shape.features, shape.classes)) warnings.push_back(*step);
  return warnings;
}

CalibratedProblem calibratedProblem(const MechanismOptions& options, const std::vector<double>& tuneLambdas,
                                    const ProblemShape& shape) {
  CalibratedProblem problem{options, shape};
  if (tuneLambdas.empty()) return problem;
  problem.shape.rows = shape.rows / (static_cast<Index>(tuneLambdas.size()) + 1);
  problem.options.learner.lambda = tuneLambdas.front();
  return problem;
}

Result<MechanismReport> calibrateProblem(const MechanismOptions& options, const std::vector<double>& tuneLambdas,
                                         const ProblemShape& shape, privacy::NoiseKind noise) {
  const CalibratedProblem problem = calibratedProblem(options, tuneLambdas, shape);
  auto report = calibrate(problem.options, problem.shape, noise);
  if (report && !tuneLambdas.empty()) report.value().exactPrivacy.reset();
  return report;
}

}  // namespace dpstudio::mech
