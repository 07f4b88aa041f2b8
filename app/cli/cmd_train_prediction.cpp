// `train --mechanism prediction|subsample|multiparty` (ALGORITHMS §3 F, G, I).
//
// Private prediction has no released model to score: as paper 003 does, the test accuracy is
// measured by answering B test points through the private predictor (all of them when the
// test set is smaller), and the output says so. The B points are a seeded random sample of
// the test rows (seed: --split-seed), not the first B: on a file sorted by class (spambase)
// the first rows are all one class. The training accuracy would spend budget
// on training points and is not measured (null). Multiparty aggregation releases a model:
// its accuracies are measured as for the training mechanisms, next to paper 004's baselines.

#include <QJsonArray>

#include <chrono>

#include "app/cli/mechanism_options.h"
#include "app/cli/private_prediction_options.h"
#include "core/data/split.h"
#include "core/mechanisms/report_json.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"
#include "core/privacy/validation.h"

namespace dpstudio::cli {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}



QJsonObject commonJson(const mech::MechanismReport& report, const PreparedData& data, double seconds) {
  return QJsonObject{
      {"model", QString::fromStdString(report.model)},
      {"mechanism", QString::fromStdString(report.mechanism)},
      {"calibration", QString::fromStdString(report.calibration)},
      {"epsilon", report.epsilon},
      {"delta", report.delta},
      {"train_rows", static_cast<qint64>(data.train.rows())},
      {"test_rows", static_cast<qint64>(data.test.rows())},
      {"features", static_cast<qint64>(data.train.features())},
      {"classes", static_cast<qint64>(data.train.classes())},
      {"seconds", seconds},
      {"header", headerJson(data.train.provenance)},
      {"preprocessing", toJsonArray(data.train.provenance.steps)},
      {"not_private", toJsonArray(data.train.provenance.notPrivate)},
      {"structure_from_data", structureFromDataJson(data.train.provenance)},
      {"feature_map", featureMapJson(data.preprocessor)},
      {"report", mech::reportToJson(report)},
  };
}

// What every prediction mechanism prints after answering.
struct Answered {
  std::vector<Index> rows;  // the test rows answered (0-based), ascending
  std::uint64_t seed = 1;   // of their sample
  long long answered = 0;
  long long correct = 0;
  long long remaining = 0;
  double nonPrivateAccuracy = 0;  // the non-private model(s) on the same points: NOT private
};

int printPrediction(const Command& command, const mech::MechanismReport& report, const PreparedData& data,
                    const predict::PredictionOptions& o, const Answered& a, double seconds) {
  const double accuracy = a.answered > 0 ? static_cast<double>(a.correct) / static_cast<double>(a.answered) : 0.0;
  const bool all = a.answered == data.test.rows();
  const std::string note = "test accuracy over " +
                           (all ? "all " + std::to_string(a.answered) + " test points"
                                : std::to_string(a.answered) + " of the " + std::to_string(data.test.rows()) +
                                      " test points, a random sample (seed " + std::to_string(a.seed) + ")") +
                           ", each answered through the private predictor (budget " + std::to_string(o.budget) +
                           "); training accuracy not measured: it would spend budget";
  std::vector<std::string> warnings = data.train.provenance.warnings;
  if (auto doubtful = privacy::doubtfulDeltaWarning(report.delta, data.train.rows())) warnings.push_back(*doubtful);
  command.warn(warnings);
  if (command.json()) {
    QJsonObject out = commonJson(report, data, seconds);
    out["lambda"] = o.learner.lambda;
    out["train_accuracy"] = QJsonValue::Null;
    out["test_accuracy"] = a.answered > 0 ? QJsonValue(accuracy) : QJsonValue::Null;
    out["test_accuracy_note"] = QString::fromStdString(note);
    out["answered"] = static_cast<qint64>(a.answered);
    QJsonArray rows;  // 1-based test-row numbers
    for (Index row : a.rows) rows.append(static_cast<qint64>(row + 1));
    out["answered_rows"] = rows;
    out["answered_rows_seed"] = QString::number(a.seed);
    out["warnings"] = toJsonArray(warnings);
    out["budget"] = static_cast<qint64>(o.budget);
    out["budget_remaining"] = static_cast<qint64>(a.remaining);
    out["nonprivate_test_accuracy"] = a.nonPrivateAccuracy;
    if (o.kind == predict::PredictionKind::Subsample) out["teachers"] = static_cast<qint64>(o.teachers);
    command.printJson(out);
    return kOk;
  }
  printText(QString("model           %1 (lambda %2)").arg(QString::fromStdString(report.model)).arg(o.learner.lambda));
  printText(QString("data            %1 train rows, %2 test rows, %3 features, %4 classes")
                .arg(data.train.rows()).arg(data.test.rows()).arg(data.train.features()).arg(data.train.classes()));
  if (data.train.provenance.csv) printText("header          " + headerText(data.train.provenance));
  for (const auto& notPrivate : data.train.provenance.notPrivate)
    printText("NOT PRIVATE     " + QString::fromStdString(notPrivate));
  printStructureFromData(data.train.provenance);
  printMechanismReport(report, "eta");
  if (a.answered > 0) printText(QString("test accuracy   %1").arg(accuracy, 0, 'f', 4));
  printText("                (" + QString::fromStdString(note) + ")");
  printText(QString("non-private     %1 on the same points (NOT private, for comparison)")
                .arg(a.nonPrivateAccuracy, 0, 'f', 4));
  printText(QString("budget          %1 of %2 answers left").arg(a.remaining).arg(o.budget));
  printText(QString("seconds         %1").arg(seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(report.statement));
  return kOk;
}

template <class Predictor, class NonPrivate>
Result<Answered> answerTestPoints(Predictor& predictor, const Dataset& test, privacy::NoiseSource& noise,
                                  const NonPrivate& nonPrivateLabels, std::uint64_t seed) {
  Answered a;
  a.seed = seed;
  const Index k = std::min<Index>(test.rows(), static_cast<Index>(predictor.budget()));
  if (k > 0) {
    a.rows = seededSample(test.rows(), k, seed);
    Eigen::MatrixXd X(k, test.X.cols());
    for (Index i = 0; i < k; ++i) X.row(i) = test.X.row(a.rows[static_cast<std::size_t>(i)]);
    auto answers = predictor.answerRows(X, noise);
    if (!answers) return answers.error();
    const Eigen::VectorXi plain = nonPrivateLabels(X);
    long long agreeing = 0;
    for (Index i = 0; i < k; ++i) {
      const int truth = test.y[a.rows[static_cast<std::size_t>(i)]];
      a.correct += answers.value()[static_cast<std::size_t>(i)].label == truth;
      agreeing += plain[i] == truth;
    }
    a.answered = k;
    a.nonPrivateAccuracy = static_cast<double>(agreeing) / static_cast<double>(k);
  }
  a.remaining = predictor.remaining();
  return a;
}

int runPrediction(const Command& command, const PreparedData& data, privacy::NoiseSource& noise,
                  const TrainControl& control, std::uint64_t sampleSeed) {
  auto options = predictionOptions(command);
  if (!options) return command.fail(options.error());
  const auto start = Clock::now();
  if (options.value().kind == predict::PredictionKind::Sensitivity) {
    auto predictor = predict::PrivatePredictor::train(options.value(), data.train, control);
    if (!predictor) return command.fail(predictor.error());
    auto& p = predictor.value();
    auto answered = answerTestPoints(p, data.test, noise, [&p](const Eigen::MatrixXd& X) {
      return p.model().predict(p.theta(), X);
    }, sampleSeed);
    if (!answered) return command.fail(answered.error());
    mech::MechanismReport report = p.report();
    report.noiseSource = noise.provenance().describe();
    return printPrediction(command, report, data, options.value(), answered.value(), secondsSince(start));
  }
  auto predictor = predict::SubsampleAggregate::train(options.value(), data.train, control);
  if (!predictor) return command.fail(predictor.error());
  auto& p = predictor.value();
  auto answered = answerTestPoints(p, data.test, noise, [&p](const Eigen::MatrixXd& X) {
    const Eigen::MatrixXi votes = p.teachers().votes(X);
    Eigen::VectorXi majority(X.rows());
    for (Index i = 0; i < X.rows(); ++i) votes.row(i).maxCoeff(&majority[i]);
    return majority;
  }, sampleSeed);
  if (!answered) return command.fail(answered.error());
  mech::MechanismReport report = p.report();
  report.noiseSource = noise.provenance().describe();
  return printPrediction(command, report, data, options.value(), answered.value(), secondsSince(start));
}

// What a multiparty release costs: as published, the ε that can be proven, not the claim.
double epsilonSpent(const mech::MechanismReport& report) {
  return report.value("epsilon_provable").value_or(report.epsilon);
}

int runMultiparty(const Command& command, const PreparedData& data, privacy::NoiseSource& noise,
                  const TrainControl& control) {
  auto options = multipartyOptions(command);
  if (!options) return command.fail(options.error());
  const auto start = Clock::now();
  auto result = multiparty::trainMultiparty(options.value(), data.train, noise, control);
  if (!result) return command.fail(result.error());
  const double seconds = secondsSince(start);
  const auto& r = result.value();
  const Model& model = *r.released.model;
  const bool hasTest = data.test.rows() > 0;
  auto testAccuracy = [&](const Eigen::VectorXd& theta) {
    return hasTest ? QJsonValue(accuracy(model, theta, data.test.X, data.test.y)) : QJsonValue::Null;
  };
  const double trainAccuracy = accuracy(model, r.released.theta, data.train.X, data.train.y);
  std::vector<std::string> warnings = data.train.provenance.warnings;
  if (auto doubtful = privacy::doubtfulDeltaWarning(r.report.delta, data.train.rows())) warnings.push_back(*doubtful);
  command.warn(warnings);
  if (command.json()) {
    QJsonObject out = commonJson(r.report, data, seconds);
    out["warnings"] = toJsonArray(warnings);
    out["lambda"] = options.value().lambda;
    out["train_accuracy"] = trainAccuracy;
    out["test_accuracy"] = testAccuracy(r.released.theta);
    QJsonArray sizes;
    for (Index size : r.partySizes) sizes.append(static_cast<qint64>(size));
    out["parties"] = sizes;
    out["smallest_party"] = *r.report.value("smallest_party");
    out["distance_to_all_data"] = r.distance;
    out["theorem_4_2_bound"] = r.bound;
    QJsonObject baselines{
        {"note", r.allDataPrivate ? "NOT private except all_data_dp (a second release of its own epsilon, which "
                                    "needs the data pooled)"
                                  : "NOT private (experiment diagnostics)"},
        {"aggregate_nonprivate_test_accuracy", testAccuracy(r.average)},
        {"all_data_nonprivate_test_accuracy", testAccuracy(r.allData)},
    };
    if (r.allDataPrivate) {
      baselines["all_data_dp_test_accuracy"] = testAccuracy(r.allDataPrivate->theta);
      baselines["all_data_dp_report"] = mech::reportToJson(r.allDataPrivate->report);
    }
    out["baselines"] = baselines;
    // Every release this run made, each with its own ε (basic composition: they add up).
    QJsonArray releases{QJsonObject{{"what", "aggregate"}, {"epsilon", epsilonSpent(r.report)}, {"delta", 0.0}}};
    if (r.allDataPrivate)
      releases.append(QJsonObject{
          {"what", "all-data DP baseline"}, {"epsilon", epsilonSpent(r.allDataPrivate->report)}, {"delta", 0.0}});
    out["releases"] = releases;
    command.printJson(out);
    return kOk;
  }
  QStringList sizes;
  for (Index size : r.partySizes) sizes << QString::number(size);
  printText(QString("model           %1, lambda %2 (objective (1/n_j) sum loss + lambda ||w||^2)")
                .arg(QString::fromStdString(r.report.model)).arg(options.value().lambda));
  printText("parties         " + sizes.join(", ") + " rows");
  printMechanismReport(r.report, "eta");
  printText(QString("||w_avg - w*||  %1 measured (NOT private), Theorem 4.2 bound %2")
                .arg(r.distance, 0, 'g', 6).arg(r.bound, 0, 'g', 6));
  printText(QString("train accuracy  %1").arg(trainAccuracy, 0, 'f', 4));
  if (hasTest) {
    printText(QString("test accuracy   %1").arg(testAccuracy(r.released.theta).toDouble(), 0, 'f', 4));
    printText(QString("baselines       all data non-private %1, aggregate non-private %2 (NOT private)")
                  .arg(testAccuracy(r.allData).toDouble(), 0, 'f', 4)
                  .arg(testAccuracy(r.average).toDouble(), 0, 'f', 4));
    if (r.allDataPrivate)
      printText(QString("all data DP     test accuracy %1")
                    .arg(testAccuracy(r.allDataPrivate->theta).toDouble(), 0, 'f', 4));
  }
  printText(QString("seconds         %1").arg(seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(r.report.statement));
  if (r.allDataPrivate) {
    const double first = epsilonSpent(r.report), second = epsilonSpent(r.allDataPrivate->report);
    printText(QString("second release  the all-data DP baseline (--multiparty-baseline) is a separate (%1, 0)-DP "
                      "release from the same rows: this run spent epsilon %2 + %1 = %3 in total")
                  .arg(second, 0, 'g', 6)
                  .arg(first, 0, 'g', 6)
                  .arg(first + second, 0, 'g', 6));
  }
  return kOk;
}

}  // namespace

int runTrainPrivatePrediction(const Command& command) {
  auto noiseSpec = noiseChoice(command);
  if (!noiseSpec) return command.fail(noiseSpec.error());
  // Refuse bad options before loading any data.
  const PrivatePredictionKind kind = privatePredictionKind(command);
  if (kind == PrivatePredictionKind::Multiparty) {
    if (auto options = multipartyOptions(command); !options) return command.fail(options.error());
  } else if (auto options = predictionOptions(command); !options) {
    return command.fail(options.error());
  }
  auto request = command.dataRequest();
  if (!request) return command.fail(request.error());
  auto prepared = prepareData(request.value());
  if (!prepared) return command.fail(prepared.error());
  auto noise = privacy::makeNoiseSource(noiseSpec.value().kind, noiseSpec.value().seed);
  if (!noise) return command.fail(noise.error());
  TrainControl control;
  auto tolerance = command.number("tolerance", control.tolerance);
  if (!tolerance) return command.fail(tolerance.error());
  control.tolerance = tolerance.value();
  auto maxIterations = command.integer("max-iterations", control.maxIterations, 1);
  if (!maxIterations) return command.fail(maxIterations.error());
  control.maxIterations = static_cast<int>(maxIterations.value());
  return kind == PrivatePredictionKind::Multiparty
             ? runMultiparty(command, prepared.value(), *noise.value(), control)
             : runPrediction(command, prepared.value(), *noise.value(), control, request.value().splitSeed);
}

}  // namespace dpstudio::cli
