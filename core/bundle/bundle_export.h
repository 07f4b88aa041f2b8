#pragma once
// From a finished run (core/experiment/plan_run.h) to the contents of a .dpmodel bundle:
// the released model, or the private predictor with its budget, its preprocessing, its
// privacy statement and its model card. Shared by `dpstudio-cli train --out` and the GUI's
// File → Export Model.
//
// Nothing measured on the private data goes in unless it is the DP output or is marked
// "private": false: no accuracy, objective, iteration count, reached gradient norm, drawn
// noise norm, row count clipped, dataset name or hash, no rows. What is in: the released
// parameters; for a stateful predictor its non-private parameters (θ*, the teachers; marked
// so) with its budget and the answers already given; the fitted preprocessing (PCA marked
// not private); the training settings (n, options, solver); the calibration.

#include "core/bundle/bundle_archive.h"
#include "core/bundle/bundle_privacy.h"
#include "core/experiment/plan_run.h"
#include "core/sources/prepare.h"

namespace dpstudio::bundle {

// `noise` is the source the run drew from (release or experiment). For a private predictor
// the budget count is read from run.prediction now: answers given before the export (the
// CLI's test answers) are spent.
Result<BundleContents> bundleFromPlanRun(const experiment::PrivacyPlan& plan, const experiment::PlanRun& run,
                                         const PreparedData& data, const privacy::NoiseProvenance& noise);

// The privacy context of a run's result: what the bundle's statement and `train`'s output
// judge it by (guaranteeScope). A private predictor's answers draw their own noise later,
// so its context says release noise whatever the run's source was.
PrivacyContext privacyContext(const experiment::PrivacyPlan& plan, const PreparedData& data,
                              const privacy::NoiseProvenance& noise);

// The "training" object's options, for the record (not read back but for predictors).
QJsonObject mechanismOptionsJson(const mech::MechanismOptions& options);

}  // namespace dpstudio::bundle
