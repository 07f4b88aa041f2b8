#pragma once
// How a private predictor's accuracy is measured (paper 003 §4): it has no released model to
// score, so B test points — a seeded random sample of the test rows, all of them when there
// are fewer — are answered through it, each answer spending one unit of its budget. Shared by
// `dpstudio-cli train` and every prediction trial of a sweep.
//
// The sample is seeded, not the first B rows: on a file sorted by class (spambase) the first
// rows are all one class.

#include <cstdint>
#include <vector>

#include "core/experiment/plan_run.h"

namespace dpstudio::experiment {

struct AnsweredSample {
  std::vector<Index> rows;  // the test rows answered (0-based), ascending
  std::uint64_t seed = 1;   // of their sample
  long long answered = 0;
  long long correct = 0;
  long long remaining = 0;  // the predictor's budget left afterwards
  // The non-private model(s) on the same points (F: θ*; G: the teachers' plurality): NOT
  // private, for comparison.
  double nonPrivateAccuracy = 0;

  double accuracy() const { return answered > 0 ? static_cast<double>(correct) / static_cast<double>(answered) : 0; }
};

// Answers min(B remaining, test rows) sampled rows through `predictor` (all or nothing).
// The answers are releases: with a ledger, the predictor records them there (its budget's
// entry, opened at the first answer) before they are returned.
Result<AnsweredSample> answerTestSample(PredictorRelease& predictor, const Dataset& test,
                                        privacy::NoiseSource& noise, std::uint64_t sampleSeed,
                                        privacy::PrivacyLedger* ledger = nullptr);

}  // namespace dpstudio::experiment
