#pragma once
// The answers a private predictor (docs/algorithms.md §3 F, G) has given to the shown model's test
// points. As dpstudio-cli measures it (and paper 003), the private test accuracy is that of
// the test points answered through the predictor, in test order — the first B at most —
// so a user spends the budget by asking for the next few and watches it run out.
//
// It owns the noise source the answers draw from: one stream per predictor repetition, made
// from the run's settings (experiment: seeded, so the answers are the CLI's for the same
// seed; release: the OS CSPRNG), so that successive batches never reuse noise.
//
// GUI thread only: answering is cheap (one noisy score vector, or one vote of T teachers,
// per point), and the ledger records the whole (ε, δ) at the first answer — on this thread,
// before the answer is shown.

#include <memory>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/privacy/noise_source.h"
#include "ui/training/training_document.h"

namespace dpstudio::ui {

class PredictionAnswers {
 public:
  // result: a prediction result (result->prediction is set); noise: where the answers' noise
  // comes from.
  PredictionAnswers(std::shared_ptr<const TrainingResult> result, std::unique_ptr<privacy::NoiseSource> noise);
  // For the settings of `result`: a noise source of its kind and seed.
  static Result<std::shared_ptr<PredictionAnswers>> make(std::shared_ptr<const TrainingResult> result);

  // Answers the next `count` ≥ 1 test points through the predictor, all or nothing; the first
  // answer of the budget records it in `ledger`. Errors are core's (answer B+1: "inference
  // budget spent: …"), or that fewer than `count` test points are left unanswered.
  Status answerNext(long long count, privacy::PrivacyLedger* ledger);

  const TrainingResult& result() const { return *result_; }
  Index testRows() const;
  Index answered() const { return static_cast<Index>(labels_.size()); }
  Index unanswered() const { return testRows() - answered(); }
  // The released label of test point i, for i < answered().
  const std::vector<Index>& labels() const { return labels_; }
  long long budget() const;
  long long remaining() const;
  // Answered points whose released label is their true one.
  long long correct() const { return correct_; }
  // The non-private decisions on the same points (F: θ*; G: the teachers' plurality): NOT
  // private, for comparison only.
  long long nonPrivateCorrect() const { return nonPrivateCorrect_; }
  // Prediction sensitivity: ‖b‖ of each answer's noise, in answer order, and their mean
  // (diagnostics, not released); empty and 0 for subsample-and-aggregate.
  const std::vector<double>& noiseNorms() const { return noiseNorms_; }
  double meanNoiseNorm() const;
  const privacy::NoiseProvenance& noise() const;

 private:
  std::shared_ptr<const TrainingResult> result_;
  std::unique_ptr<privacy::NoiseSource> noise_;
  std::vector<Index> labels_;
  long long correct_ = 0;
  long long nonPrivateCorrect_ = 0;
  std::vector<double> noiseNorms_;
};

}  // namespace dpstudio::ui
