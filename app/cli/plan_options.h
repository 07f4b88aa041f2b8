#pragma once
// The PrivacyPlan a command's options describe (core/experiment/privacy_plan.h), for one
// mechanism name: `train`'s --mechanism, or each item of `sweep`'s --mechanisms. Reads
// --model, --epsilon, --delta, --lambda, --huber, --distribution, --calibration, the DP-SGD
// options, --tune-lambdas, --budget, --teachers, --parties, --party-split, --partition-seed,
// --tolerance and --max-iterations (whichever the command has).

#include "app/cli/cli_common.h"
#include "core/experiment/privacy_plan.h"

namespace dpstudio::cli {

// `item` is a mechanism name, optionally with ":"-separated overrides of the command's
// options: a calibration (corrected, published) or a noise family (l2-laplace, gaussian),
// e.g. "multiparty:published", "output:gaussian". Errors name the item.
// WithSolverAndTuning also reads --tolerance, --max-iterations and --tune-lambdas, which the
// command must then define (train, sweep); MechanismOnly leaves them (audit).
enum class PlanOptions { WithSolverAndTuning, MechanismOnly };
Result<experiment::PrivacyPlan> privacyPlan(const Command& command, const QString& item,
                                            PlanOptions read = PlanOptions::WithSolverAndTuning);

}  // namespace dpstudio::cli
