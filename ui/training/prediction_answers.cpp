#include "ui/training/prediction_answers.h"

#include <numeric>
#include <string>

namespace dpstudio::ui {

PredictionAnswers::PredictionAnswers(std::shared_ptr<const TrainingResult> result,
                                     std::unique_ptr<privacy::NoiseSource> noise)
    : result_(std::move(result)), noise_(std::move(noise)) {}

Result<std::shared_ptr<PredictionAnswers>> PredictionAnswers::make(std::shared_ptr<const TrainingResult> result) {
  const PrivacySettings& privacy = result->settings.privacy;
  auto noise = privacy::makeNoiseSource(privacy.noise, privacy.seed);
  if (!noise) return noise.error();
  return std::make_shared<PredictionAnswers>(std::move(result), std::move(noise).value());
}

Index PredictionAnswers::testRows() const { return result_->data->test.rows(); }

long long PredictionAnswers::budget() const { return result_->prediction->budget(); }

long long PredictionAnswers::remaining() const { return result_->prediction->remaining(); }

const privacy::NoiseProvenance& PredictionAnswers::noise() const { return noise_->provenance(); }

double PredictionAnswers::meanNoiseNorm() const {
  if (noiseNorms_.empty()) return 0.0;
  return std::accumulate(noiseNorms_.begin(), noiseNorms_.end(), 0.0) / static_cast<double>(noiseNorms_.size());
}

Status PredictionAnswers::answerNext(long long count, privacy::PrivacyLedger* ledger) {
  if (count < 1) return Error{ErrorKind::Usage, "answer at least one test point", {}, 0, "count"};
  const Dataset& test = result_->data->test;
  const Index first = answered();
  if (count > unanswered())
    return Error{ErrorKind::Usage,
                 "only " + std::to_string(unanswered()) + " of the " + std::to_string(test.rows()) +
                     " test points are left to answer",
                 {}, 0, "count"};
  const Eigen::MatrixXd X = test.X.middleRows(first, static_cast<Index>(count));
  // A copy of the predictor shares its budget (answer_budget.h): answering through it spends
  // the one budget of the shown release.
  auto predictor = result_->prediction->predictor;
  std::vector<Index> labels;
  std::vector<double> noiseNorms;
  if (auto* sensitivity = std::get_if<predict::PrivatePredictor>(&predictor)) {
    auto answers = sensitivity->answerRows(X, *noise_, ledger);
    if (!answers) return answers.error();
    for (const auto& a : answers.value()) {
      labels.push_back(a.label);
      if (a.noiseNorm) noiseNorms.push_back(*a.noiseNorm);  // experiment noise only
    }
  } else {
    auto answers = std::get<predict::SubsampleAggregate>(predictor).answerRows(X, *noise_, ledger);
    if (!answers) return answers.error();
    for (const auto& a : answers.value()) labels.push_back(a.label);
  }
  const Eigen::VectorXi plain = result_->prediction->nonPrivateLabels(X);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const int truth = test.y[first + static_cast<Index>(i)];
    correct_ += labels[i] == truth;
    nonPrivateCorrect_ += plain[static_cast<Index>(i)] == truth;
  }
  labels_.insert(labels_.end(), labels.begin(), labels.end());
  noiseNorms_.insert(noiseNorms_.end(), noiseNorms.begin(), noiseNorms.end());
  return Ok{};
}

}  // namespace dpstudio::ui
