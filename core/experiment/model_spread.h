#pragma once
// The spread of private models: N models of one plan on the same data, each with fresh
// noise, the non-private baseline trained once — what the decision view's "Draw N" overlays
// so that the variance the noise causes is seen at a glance (the idea of Google PAIR's
// explorable "Can a model be differentially private and fair?").
//
// Like a sweep it is an experiment on the user's data, not a release: the draws use seeded
// experiment noise (never the OS CSPRNG), nothing of them is recorded in the ledger, and
// front ends label them so. Only plans that release a model have a spread (training
// mechanisms and multiparty aggregation); a private predictor releases answers.
//
// Deterministic: draw i depends on (seed, i) only, whatever the thread count.

#include <cstdint>
#include <vector>

#include "core/experiment/plan_run.h"

namespace dpstudio::experiment {

// The noise seed of draw `index` of a spread started at `seed`.
std::uint64_t spreadSeed(std::uint64_t seed, int index);

// count ≥ 1 draws. baseline: the non-private model of the same learner and solver on `data`
// (a shown result's), reused; nullptr trains it once. Errors: a plan that releases no model,
// count < 1, a draw's own error; cancelled through progress.
Result<std::vector<TrainedModel>> drawPrivateModels(const PrivacyPlan& plan, const PreparedData& data, int count,
                                                    std::uint64_t seed, const FittedModel* baseline,
                                                    const Progress& progress = {});

}  // namespace dpstudio::experiment
