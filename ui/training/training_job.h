#pragma once
// The work of a training job, as plain functions of values: safe on a pool thread, since
// they touch nothing but their arguments and immutable shared data. TrainingController runs
// them and publishes what they return; tests may call them directly.
//
// A training prepares the data (or takes them, with a baseline trained the same way, from
// `reuse`) and runs the settings' PrivacyPlan through core's experiment layer (plan_run.h),
// with noise from a source made from the settings (experiment: seeded; release: the OS
// CSPRNG). Progress: the split and preprocessing take the first few percent, the run the
// rest.

#include <QString>

#include <memory>
#include <string>

#include "core/privacy/ledger.h"
#include "core/util/progress.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {

struct TrainingOutcome {
  std::shared_ptr<const TrainingResult> result;
  std::shared_ptr<const ModelView> view;  // empty if the view failed
  std::string viewError;
};

// reuse: a result of the same dataset whose settings train the same baseline
// (sameBaseline()); its prepared data and baseline model are taken instead of recomputed.
// test: a separate test file (already aligned to the dataset's classes), or empty to split.
Result<TrainingOutcome> trainWithView(const std::shared_ptr<const Dataset>& dataset,
                                      const std::shared_ptr<const Dataset>& test, const QString& name,
                                      const TrainingSettings& settings, const ViewSpec& viewSpec,
                                      const std::shared_ptr<const TrainingResult>& reuse, const Progress& progress);

// The shown model (the release of a private run) on the view plane, with the baseline's
// ellipses beside the release's for LMGC.
Result<ModelView> computeModelView(const TrainingResult& result, const ViewSpec& spec);

// Every release of a private result, each its own ledger entry, as core builds them for the
// CLI too (experiment::releaseLedgerEntries): the model, then multiparty's all-data DP
// baseline when the run drew it (a second release, its own ε).
std::vector<privacy::LedgerEntry> ledgerEntriesFor(const TrainingResult& result);

}  // namespace dpstudio::ui
