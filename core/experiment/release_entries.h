#pragma once
// What the privacy ledger records for a model release — a training mechanism's or
// multiparty's — as the CLI records it (`--ledger`): one entry per release, the model and
// then multiparty's all-data DP baseline when the run drew it (a second release from the
// same rows, with its own ε). Private predictors record their own entries at their first
// answer (core/prediction/budget_ledger.h). The GUI records exactly these entries: the
// ledger file is shared, and one release reads the same whichever front end made it.
//
// ε is what holds: as published, multiparty records the ε that can be proven for the
// paper's noise, not the claim; the note says so, and names the calibration, the noise
// family and source (the seed in experiment mode) and λ.

#include <string>
#include <vector>

#include "core/experiment/plan_run.h"
#include "core/privacy/ledger.h"

namespace dpstudio::experiment {

// `dataset`: the training data's identity (datasetIdentity()). Empty for a run that
// released nothing (a non-private plan, a private predictor).
std::vector<privacy::LedgerEntry> releaseLedgerEntries(const PrivacyPlan& plan, const PlanRun& run,
                                                       const std::string& dataset);
// The same from a run's parts, as the GUI keeps them.
std::vector<privacy::LedgerEntry> releaseLedgerEntries(const PrivacyPlan& plan,
                                                       const std::optional<ModelRelease>& release,
                                                       const std::optional<MultipartyDiagnostics>& multiparty,
                                                       const std::string& dataset);

}  // namespace dpstudio::experiment
