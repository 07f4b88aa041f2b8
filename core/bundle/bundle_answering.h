#pragma once
// A dataset's rows answered through a bundle, the way every front end does it (`dpstudio-cli
// predict`, the GUI's Import Model): the labels re-expressed in the bundle's classes (by
// name), the bundle's preprocessing and model applied, and — for a stateful private
// predictor — the bundle rewritten atomically with the new answer count, and the answers
// recorded in the ledger, BEFORE anything is returned, so that no answer is ever seen
// without the budget and the ledger recording it. If either fails, the answers are dropped
// with the error (the budget then counts answers nobody saw, which errs on the safe side).

#include <QString>

#include <string>

#include "core/bundle/bundle_reader.h"

namespace dpstudio::bundle {

struct DatasetAnswers {
  Dataset data;  // the rows answered, labels in the bundle's classes
  BundlePredictions predictions;
  double accuracy = 0;  // against data's labels; 0 without rows
  // The ledger entry of the bundle's budget as recorded (a stateful predictor with a ledger).
  std::optional<privacy::LedgerEntry> recorded;
};

// The ledger that counts a stateful bundle's answers, and what it may say of the bundle's
// training data (a bundle never names it): the user's name for it, or nothing.
struct AnswerLedger {
  privacy::PrivacyLedger* ledger = nullptr;
  std::string trainingDataName;
};

// Errors: a label the bundle does not know, a feature count other than the bundle's input,
// more rows than a predictor's budget has left (nothing spent, nothing written), the
// rewrite of `path`, the ledger's (its keeper could not write the ledger file).
//
// The entry is the predictor's own opening entry, named by the bundle's budget id: a ledger
// that holds that budget's entry (the training run that exported the bundle recorded it)
// raises its count; otherwise the budget is opened now with its whole (ε, δ) and the count
// the bundle had reached, its dataset unknown but for `trainingDataName`.
Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise, const AnswerLedger& ledger = {});

}  // namespace dpstudio::bundle
