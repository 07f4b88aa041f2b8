#pragma once
// `train --mechanism multiparty` (docs/algorithms.md §3 I): paper 004's aggregate of the
// parties' local models, released with its noise, beside the paper's baselines.

#include <string>

#include "app/cli/cli_common.h"
#include "app/cli/ledger_option.h"
#include "core/experiment/privacy_plan.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::cli {

// Runs the plan, records its releases in the ledger, writes the bundle (--out) and the
// protocol's transcript (transcriptPath, empty: none), and prints what was released.
int runTrainMultiparty(const Command& command, const experiment::PrivacyPlan& plan, const PreparedData& data,
                       privacy::NoiseSource& noise, const std::string& dataset, const CliLedger& ledger,
                       const QString& transcriptPath);

}  // namespace dpstudio::cli
