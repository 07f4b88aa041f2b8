#include "core/experiment/plan_warnings.h"

#include "core/mechanisms/pre_run_warnings.h"
#include "core/mechanisms/selection.h"
#include "core/prediction/multiparty_options.h"
#include "core/privacy/validation.h"
#include "core/util/overloaded.h"

namespace dpstudio::experiment {
namespace {

std::vector<std::string> trainingWarnings(const TrainingMechanism& training, const mech::MechanismReport& calibration,
                                          const mech::ProblemShape& shape) {
  if (training.selection) {
    // The public rule's one mechanism is warned about as itself; a private selection's runs
    // each have their own options, none to warn about alone (δ against n still applies).
    if (training.selection->tune) return mech::preRunWarnings(calibration, shape, nullptr);
    auto planned = mech::planSelection({training.options, *training.selection}, shape);
    const mech::MechanismOptions* only =
        planned && !planned.value().selects ? &planned.value().candidates.front() : nullptr;
    return mech::preRunWarnings(calibration, shape, only);
  }
  const mech::CalibratedProblem problem = mech::calibratedProblem(training.options, training.tuneLambdas, shape);
  return mech::preRunWarnings(calibration, shape, &problem.options);
}

}  // namespace

std::vector<std::string> planWarnings(const PrivacyPlan& plan, const mech::MechanismReport& calibration,
                                      const mech::ProblemShape& shape) {
  return std::visit(
      Overloaded{
          [](const NonPrivate&) { return std::vector<std::string>{}; },
          [&](const TrainingMechanism& training) { return trainingWarnings(training, calibration, shape); },
          [&](const PrivatePrediction& prediction) {
            std::vector<std::string> warnings = mech::preRunWarnings(calibration, shape, nullptr);
            for (std::string& warning : predict::predictionWarnings(prediction.options, calibration, shape))
              warnings.push_back(std::move(warning));
            return warnings;
          },
          [&](const Multiparty& multiparty) { return multiparty::multipartyWarnings(multiparty.options, calibration); },
      },
      plan.choice);
}

}  // namespace dpstudio::experiment
