#include "core/prediction/subsample_aggregate.h"

#include "core/sources/source.h"
#include "core/learn/learner.h"
#include "core/prediction/budget_ledger.h"

#include "core/prediction/part_training.h"
#include "core/privacy/noise.h"

namespace dpstudio::predict {

Eigen::MatrixXi TeacherEnsemble::votes(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXi counts = Eigen::MatrixXi::Zero(X.rows(), model->classes());
  for (const Eigen::VectorXd& theta : thetas) {
    const Eigen::VectorXi predicted = model->predict(theta, X);
    for (Index i = 0; i < X.rows(); ++i) ++counts(i, predicted[i]);
  }
  return counts;
}

Result<std::shared_ptr<const TeacherEnsemble>> trainTeachers(const PredictionOptions& options, const Dataset& train,
                                                             const TrainControl& control) {
  if (auto status = options.validate(); !status) return status.error();
  if (auto calibrated = calibratePrediction(options, {train.rows(), train.features(), train.classes()}); !calibrated)
    return calibrated.error();
  auto model = makeModel(options.learner, train.features(), train.classes());
  if (!model) return model.error();
  const RowParts parts = equalRandomParts(train.rows(), options.teachers, options.partitionSeed);
  const Index classes = train.classes();
  const LearnerSpec learner = options.learner;
  auto trained = trainParts(train, parts,
                            [&](const Dataset& part, const TrainControl& each) {
                              return trainModel(learner, part.X, part.y, classes, each);
                            },
                            control);
  if (!trained) return trained.error();
  auto ensemble = std::make_shared<TeacherEnsemble>();
  ensemble->model = model.value();
  ensemble->partRows = train.rows() / options.teachers;
  ensemble->trainRows = train.rows();
  ensemble->dataset = datasetIdentity(train.provenance.source);
  for (TrainedModel& teacher : trained.value()) ensemble->thetas.push_back(std::move(teacher.theta));
  return std::shared_ptr<const TeacherEnsemble>(std::move(ensemble));
}

Result<SubsampleAggregate> SubsampleAggregate::train(const PredictionOptions& options, const Dataset& train,
                                                     const TrainControl& control) {
  if (options.kind != PredictionKind::Subsample)
    return Error{ErrorKind::InvalidPrivacy, "SubsampleAggregate is subsample-and-aggregate; use PrivatePredictor",
                 {}, 0, "mechanism"};
  auto teachers = trainTeachers(options, train, control);
  if (!teachers) return teachers.error();
  return restore(options, std::move(teachers).value(), 0);
}

Result<SubsampleAggregate> SubsampleAggregate::restore(const PredictionOptions& options,
                                                       std::shared_ptr<const TeacherEnsemble> teachers,
                                                       long long used, std::uint64_t budgetId) {
  if (options.kind != PredictionKind::Subsample)
    return Error{ErrorKind::InvalidPrivacy, "not a subsample-and-aggregate predictor", {}, 0, "mechanism"};
  if (!teachers || !teachers->model)
    return Error{ErrorKind::BadBundle, "the teachers are missing", {}, 0, "teachers"};
  if (teachers->teachers() != options.teachers)
    return Error{ErrorKind::BadBundle,
                 "the options name " + std::to_string(options.teachers) + " teachers, the ensemble has " +
                     std::to_string(teachers->teachers()),
                 {}, 0, "teachers"};
  for (const Eigen::VectorXd& theta : teachers->thetas)
    if (theta.size() != teachers->model->parameterCount() || !theta.allFinite())
      return Error{ErrorKind::BadBundle, "a teacher's parameters have the wrong length or are not finite", {}, 0,
                   "teachers"};
  auto report = calibratePrediction(options, {teachers->trainRows, teachers->model->inputDim(),
                                              teachers->model->classes()});
  if (!report) return report.error();
  if (auto status = AnswerBudget::checkUsed(options.budget, used); !status) return status.error();
  auto core = std::make_shared<Core>();
  core->options = options;
  core->teachers = std::move(teachers);
  core->report = std::move(report).value();
  return SubsampleAggregate(std::move(core), AnswerBudget(options.budget, used, budgetId));
}

SubsampleAggregate SubsampleAggregate::freshRepetition() const {
  return SubsampleAggregate(core_, AnswerBudget(core_->options.budget, 0));
}

Status SubsampleAggregate::checkQueries(const Eigen::MatrixXd& X) const {
  if (X.cols() != core_->teachers->model->inputDim())
    return Error{ErrorKind::Usage,
                 "the queries have " + std::to_string(X.cols()) + " features, the teachers " +
                     std::to_string(core_->teachers->model->inputDim()),
                 {}, 0, "query"};
  if (!X.allFinite()) return Error{ErrorKind::InvalidPrivacy, "the queries must be finite", {}, 0, "query"};
  return Ok{};
}

privacy::LedgerEntry SubsampleAggregate::openingEntry() const {
  const mech::MechanismReport& r = core_->report;
  privacy::LedgerEntry entry;
  // The style of every ledger entry: "Mechanism (Model)", the calibration in the note.
  const std::optional<ModelKind> model = parseModelKind(r.model);
  entry.mechanism = "Subsample-and-aggregate (" + (model ? modelLongName(*model) : r.model) + ")";
  entry.epsilon = r.chargedEpsilon();  // as published: what really holds
  entry.delta = r.chargedDelta();
  entry.dataset = core_->teachers->dataset;
  entry.note = "calibration " + r.calibrationWord() + "; inference budget of " + std::to_string(budget()) +
               " answers opened by its first answer; " + r.statement;
  if (!ledgerNote_.empty()) entry.note += "; " + ledgerNote_;
  return entry;
}

Result<VoteAnswer> SubsampleAggregate::answer(const Eigen::VectorXd& x, privacy::NoiseSource& noise,
                                              privacy::PrivacyLedger* ledger) {
  auto answers = answerRows(x.transpose(), noise, ledger);
  if (!answers) return answers.error();
  return answers.value().front();
}

Result<std::vector<VoteAnswer>> SubsampleAggregate::answerRows(const Eigen::MatrixXd& X, privacy::NoiseSource& noise,
                                                               privacy::PrivacyLedger* ledger) {
  if (auto status = checkQueries(X); !status) return status.error();
  auto before = budget_.reserve(X.rows());
  if (!before) return before.error();
  if (auto status = recordAnswers(ledger, budget_, before.value(), X.rows(), [this] { return openingEntry(); });
      !status)
    return status.error();
  const Eigen::MatrixXi votes = core_->teachers->votes(X);
  std::vector<VoteAnswer> answers;
  answers.reserve(static_cast<std::size_t>(X.rows()));
  for (Index i = 0; i < X.rows(); ++i) {
    const Eigen::VectorXd utility = votes.row(i).transpose().cast<double>();
    auto label = privacy::sampleExponentialMechanism(noise, beta(), utility);
    if (!label) return label.error();
    answers.push_back({label.value(), before.value() + i + 1});
  }
  return answers;
}

}  // namespace dpstudio::predict
