#pragma once
// The work of a training job for the private-prediction mechanisms and multiparty
// aggregation (ALGORITHMS §3 F, G, I), as training_job.h does it for §3 A–E: plain
// functions of values, safe on a pool thread. trainWithView() calls them once the data are
// prepared; progress goes from `from` to `to` of the job's bar.
//
//  F: trains the predictor's θ*, which is also the result's non-private model. Nothing is
//     released: the answers are (prediction_answers.h), so nothing is recorded here.
//  G: trains the T teachers (parallel, cancellable: a cancelled run keeps nothing).
//  I: trains the K parties and the all-data models and draws the release's noise from the
//     settings' source; the release is recorded by the controller, like a training's.

#include "core/util/progress.h"
#include "ui/training_document.h"

namespace dpstudio::ui {

// result.data must be set. F sets result.model (θ*) and its accuracies; G leaves them.
Status trainPredictor(TrainingResult& result, const Progress& progress, double from, double to);

// result.data must be set. Sets result.model (w*), result.release and result.multiparty.
Status trainMultipartyRelease(TrainingResult& result, const Progress& progress, double from, double to);

}  // namespace dpstudio::ui
