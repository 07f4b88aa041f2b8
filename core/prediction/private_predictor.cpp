#include "core/prediction/private_predictor.h"

#include <cmath>

#include "core/sources/source.h"
#include "core/learn/learner.h"
#include "core/mechanisms/exact_minimizer.h"
#include "core/prediction/budget_ledger.h"
#include "core/prediction/data_contract.h"
#include "core/privacy/noise.h"
#include "core/privacy/release_granularity.h"
#include "core/privacy/validation.h"

namespace dpstudio::predict {
namespace {

// Rounding allowance on ‖x‖ ≤ 1, as for training rows: queries within it are clipped.
constexpr double kNormSlack = 1e-9;

Error invalidQuery(const std::string& message) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, "query"};
}

}  // namespace

Index labelOfScores(const Eigen::VectorXd& scores) {
  if (scores.size() == 1) return scores[0] > 0 ? 1 : 0;
  Index best = 0;
  scores.maxCoeff(&best);
  return best;
}

Result<PrivatePredictor> PrivatePredictor::train(const PredictionOptions& options, const Dataset& train,
                                                 const TrainControl& control) {
  if (options.kind != PredictionKind::Sensitivity)
    return Error{ErrorKind::InvalidPrivacy, "PrivatePredictor is prediction sensitivity; use SubsampleAggregate",
                 {}, 0, "mechanism"};
  if (auto status = options.validate(); !status) return status.error();
  auto bounded = unitRows(train);
  if (!bounded) return bounded.error();
  const Dataset& rows = bounded.value().rows(train);
  // Calibrate first: everything that can be refused is refused before any training.
  auto calibrated = calibratePrediction(options, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  const double tolerance = calibrated.value().calibrated(mech::Calibrated::GradientTolerance);
  auto trained = trainModel(options.learner, rows.X, rows.y, rows.classes(),
                            mech::exactMinimizerControl(control, tolerance));
  if (!trained) return trained.error();
  if (auto status = mech::requireExactMinimizer(trained.value().summary, tolerance, "prediction sensitivity"); !status)
    return status.error();
  const double reached = trained.value().summary.gradientNorm;
  auto predictor = restore(options, train.rows(), train.features(), train.classes(),
                           std::move(trained.value().theta), 0, datasetIdentity(train.provenance.source));
  if (!predictor) return predictor.error();
  auto core = std::make_shared<Core>(*predictor.value().core_);
  core->report.gradientNorm = reached;  // the exact-minimizer check, recorded with the result
  mech::detail::noteClippedRows(core->report, bounded.value().count);
  predictor.value().core_ = std::move(core);
  return predictor;
}

Result<PrivatePredictor> PrivatePredictor::restore(const PredictionOptions& options, Index trainRows,
                                                   Index features, Index classes, Eigen::VectorXd theta,
                                                   long long used, std::string dataset, std::uint64_t budgetId) {
  if (options.kind != PredictionKind::Sensitivity)
    return Error{ErrorKind::InvalidPrivacy, "not a prediction-sensitivity predictor", {}, 0, "mechanism"};
  auto report = calibratePrediction(options, {trainRows, features, classes});
  if (!report) return report.error();
  auto model = makeModel(options.learner, features, classes);
  if (!model) return model.error();
  if (theta.size() != model.value()->parameterCount())
    return Error{ErrorKind::BadBundle,
                 "the predictor has " + std::to_string(theta.size()) + " parameters, its model needs " +
                     std::to_string(model.value()->parameterCount()),
                 {}, 0, "theta"};
  if (!theta.allFinite()) return Error{ErrorKind::BadBundle, "the parameters must be finite", {}, 0, "theta"};
  if (auto status = AnswerBudget::checkUsed(options.budget, used); !status) return status.error();
  auto core = std::make_shared<Core>();
  core->options = options;
  core->model = model.value();
  core->theta = std::move(theta);
  core->report = std::move(report).value();
  core->trainRows = trainRows;
  core->dataset = std::move(dataset);
  return PrivatePredictor(std::move(core), AnswerBudget(options.budget, used, budgetId));
}

PrivatePredictor PrivatePredictor::freshRepetition() const {
  return PrivatePredictor(core_, AnswerBudget(core_->options.budget, 0));
}

Eigen::VectorXd PrivatePredictor::noiseFreeScores(const Eigen::VectorXd& x) const {
  const Eigen::MatrixXd all = core_->model->scores(core_->theta, x.transpose());
  // A binary model's scores are [0, wᵀx]: only wᵀx depends on θ and is released.
  if (core_->report.noiseDimension == 1) return Eigen::VectorXd::Constant(1, all(0, 1));
  return all.row(0).transpose();
}

Status PrivatePredictor::checkQuery(const Eigen::Ref<const Eigen::VectorXd>& x, Index row) const {
  const std::string where = row >= 0 ? " (query row " + std::to_string(row + 1) + ")" : "";
  if (x.size() != features())
    return Error{ErrorKind::Usage,
                 "the query has " + std::to_string(x.size()) + " features, the model " + std::to_string(features()) +
                     where,
                 {}, 0, "query"};
  if (!x.allFinite()) return invalidQuery("the query must be finite" + where);
  const double norm = x.norm();
  if (norm > 1.0 + kNormSlack)
    return invalidQuery("the sensitivity bound needs ||x|| <= 1, found " + privacy::formatNumber(norm) + where +
                        ": apply the training preprocessing (its public norm bound) to queries");
  return Ok{};  // a query within the rounding allowance is clipped to ‖x‖ ≤ 1 when answered
}

privacy::LedgerEntry PrivatePredictor::openingEntry() const {
  const mech::MechanismReport& r = core_->report;
  privacy::LedgerEntry entry;
  // The style of every ledger entry: "Mechanism (Model)", the calibration in the note.
  const std::optional<ModelKind> model = parseModelKind(r.model);
  entry.mechanism = "Prediction sensitivity (" + (model ? modelLongName(*model) : r.model) + ")";
  entry.epsilon = r.chargedEpsilon();
  entry.delta = r.chargedDelta();
  entry.dataset = core_->dataset;
  entry.note = "calibration " + r.calibrationWord() + "; inference budget of " + std::to_string(budget()) +
               " answers opened by its first answer; " + r.statement;
  if (!ledgerNote_.empty()) entry.note += "; " + ledgerNote_;
  return entry;
}

Result<PredictionAnswer> PrivatePredictor::draw(const Eigen::Ref<const Eigen::VectorXd>& x, long long number,
                                                privacy::NoiseSource& noise) const {
  // Release mode: the scale enlarged by F, as for every additive release (the scores are
  // θᵀx + b; release_granularity.h). Experiment answers keep the calibrated scale.
  std::optional<mech::MechanismReport> enlarged;
  if (noise.kind() == privacy::NoiseKind::Release) {
    enlarged = core_->report;
    mech::enlargeNoiseForRelease(*enlarged, noise);
  }
  const mech::MechanismReport& r = enlarged ? *enlarged : core_->report;
  const Index m = r.noiseDimension;
  auto b = mech::drawReportedNoise(r, noise);
  if (!b) return b.error();
  PredictionAnswer answer;
  // Δ bounds how far θᵀx moves for ‖x‖ ≤ 1 exactly: a query that checkQuery let through
  // within the rounding allowance is clipped first.
  Eigen::MatrixXd query = x.transpose();
  mech::detail::clipRowsToUnitBall(query);
  answer.scores = noiseFreeScores(query.row(0).transpose()) + b.value().noise;
  const double perCoordinate = r.expectedNoiseNorm / std::sqrt(static_cast<double>(m));
  if (auto rounded = privacy::applyReleaseGranularity(noise, answer.scores, perCoordinate); !rounded)
    return rounded.error();
  answer.label = labelOfScores(answer.scores);
  answer.number = number;
  answer.noiseScale = r.noiseScale();
  if (noise.kind() == privacy::NoiseKind::Experiment) answer.noiseNorm = b.value().norm;
  return answer;
}

Result<PredictionAnswer> PrivatePredictor::answer(const Eigen::VectorXd& x, privacy::NoiseSource& noise,
                                                  privacy::PrivacyLedger* ledger) {
  if (auto status = checkQuery(x, -1); !status) return status.error();
  auto before = budget_.reserve(1);
  if (!before) return before.error();
  if (auto status = recordAnswers(ledger, budget_, before.value(), 1, [this] { return openingEntry(); }); !status)
    return status.error();
  return draw(x, before.value() + 1, noise);
}

Result<std::vector<PredictionAnswer>> PrivatePredictor::answerRows(const Eigen::MatrixXd& X,
                                                                   privacy::NoiseSource& noise,
                                                                   privacy::PrivacyLedger* ledger) {
  for (Index i = 0; i < X.rows(); ++i)
    if (auto status = checkQuery(X.row(i).transpose(), i); !status) return status.error();
  auto before = budget_.reserve(X.rows());
  if (!before) return before.error();
  if (auto status = recordAnswers(ledger, budget_, before.value(), X.rows(), [this] { return openingEntry(); });
      !status)
    return status.error();
  std::vector<PredictionAnswer> answers;
  answers.reserve(static_cast<std::size_t>(X.rows()));
  for (Index i = 0; i < X.rows(); ++i) {
    auto one = draw(X.row(i).transpose(), before.value() + i + 1, noise);
    if (!one) return one.error();
    answers.push_back(std::move(one).value());
  }
  return answers;
}

}  // namespace dpstudio::predict
