#pragma once
// A dataset's rows answered through a bundle, the way every front end does it (`dpstudio-cli
// predict`, the GUI's Import Model): the labels re-expressed in the bundle's classes (by
// name), the bundle's preprocessing and model applied, and — for a stateful private
// predictor — the bundle rewritten atomically with the new answer count BEFORE anything is
// returned, so that no answer is ever seen without the budget recording it. If the rewrite
// fails, the answers are dropped with the error.

#include <QString>

#include "core/bundle/bundle_reader.h"

namespace dpstudio::bundle {

struct DatasetAnswers {
  Dataset data;  // the rows answered, labels in the bundle's classes
  BundlePredictions predictions;
  double accuracy = 0;  // against data's labels; 0 without rows
};

// Errors: a label the bundle does not know, a feature count other than the bundle's input,
// more rows than a predictor's budget has left (nothing spent, nothing written), the
// rewrite of `path`.
Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise);

}  // namespace dpstudio::bundle
