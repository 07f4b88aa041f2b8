#pragma once
// What a run of a plan deserves to be told before it starts, from public quantities and its
// calibration alone, for every plan kind in one place (issue 31 item 4, issue 32 item 4): the
// GUI's Mechanism form shows these before Train, `dpstudio-cli train` prints them with the
// result. The calibration's own warning (as published) is the report's `warning`, shown with
// the report; a release no better than the most common class is judged after the run
// (result_baselines.h).
//
//   training mechanism  δ not below 1/n; noise that swamps any model output perturbation can
//                       release, or that moves objective and loss perturbation's minimizer
//                       further than any model is long; a DP-SGD step too large to converge
//                       (mech::preRunWarnings);
//   private prediction  δ not below 1/n; prediction sensitivity's noise larger than any
//                       score the model can give; subsample-and-aggregate's teachers with
//                       fewer rows than features, or a vote the noise outweighs
//                       (predict::predictionWarnings);
//   multiparty          the noise larger than any party's model can be (multipartyWarnings).

#include <string>
#include <vector>

#include "core/experiment/privacy_plan.h"

namespace dpstudio::experiment {

// `calibration` is plan.calibrate(shape)'s report (for private tuning of λ, its first
// candidate's on one part, mech::calibratedProblem); `shape` the whole training part's.
std::vector<std::string> planWarnings(const PrivacyPlan& plan, const mech::MechanismReport& calibration,
                                      const mech::ProblemShape& shape);

}  // namespace dpstudio::experiment
