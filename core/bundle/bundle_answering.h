#pragma once
// A dataset's rows answered through a bundle, the way every front end does it (`dpstudio-cli
// predict`, the GUI's Import Model): the labels re-expressed in the bundle's classes (by
// name), the bundle's preprocessing and model applied, and — for a stateful private
// predictor — the answers recorded in the ledger before they are drawn, and the bundle
// rewritten atomically with the new answer count, BEFORE anything is returned, so that no
// answer is ever seen without the budget and the ledger recording it. If the rewrite fails,
// the answers are dropped with the error (the budget then counts answers nobody saw, which
// errs on the safe side).
//
// A copy of a bundle carries its own count: without a ledger, each copy may give B answers
// (inherent to a budget kept in a file). The ledger is the defence: it adds up the answers of
// every copy and every session under the bundle's budget id and refuses past B.

#include <QString>

#include <optional>

#include "core/bundle/bundle_reader.h"

namespace dpstudio::bundle {

struct DatasetAnswers {
  Dataset data;  // the rows answered, labels in the bundle's classes
  BundlePredictions predictions;
  std::optional<double> accuracy;  // against data's labels; none without rows or labels
  // This session's ledger entry of the bundle's budget as recorded (a stateful predictor
  // with a ledger).
  std::optional<privacy::LedgerEntry> recorded;
};

// Errors: a label the bundle does not know, a feature count other than the bundle's input,
// more rows than a predictor's budget has left (nothing spent, nothing written), the ledger's
// (its count of the budget, over every session and copy, would pass B; or its keeper could
// not write the ledger file: nothing drawn, nothing written), the rewrite of `path`.
//
// The entry is the predictor's, under the bundle's budget id, noting the bundle's path and
// the rows' dataset: a ledger that has opened that budget (the training run that exported
// the bundle, an earlier `predict`) counts this session's answers in an entry of their own at
// ε = δ = 0, on the opening's dataset; otherwise the budget is opened now with its whole
// (ε, δ) and the count the bundle had reached, its dataset unknown.
Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise, privacy::PrivacyLedger* ledger = nullptr);

}  // namespace dpstudio::bundle
