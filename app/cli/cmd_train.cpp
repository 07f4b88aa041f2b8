#include <QJsonArray>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/cli/bundle_output.h"
#include "core/bundle/bundle_export.h"
#include "app/cli/cli_common.h"
#include "app/cli/ledger_option.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/plan_options.h"
#include "app/cli/private_prediction_options.h"
#include "app/cli/progress_line.h"
#include "core/experiment/plan_run.h"
#include "core/experiment/release_entries.h"
#include "core/experiment/result_baselines.h"
#include "core/experiment/sgd_convergence.h"
#include "core/mechanisms/report_json.h"
#include "core/mechanisms/selection.h"
#include "core/experiment/plan_warnings.h"
#include "core/privacy/validation.h"
#include "core/sources/source.h"

namespace dpstudio::cli {
namespace {

// What the optimizer did, without fake zeros: one-vs-rest solves C separate binary problems,
// so it has no single objective, and its iteration count is the largest per class (the limit
// applies to each), not their sum.
struct OptimizerOutput {
  QJsonObject json;  // objective, iterations, gradient_norm, termination (+ per class)
  QString text;
};

OptimizerOutput optimizerOutput(const TrainedModel& model) {
  OptimizerOutput out;
  const OptimizeSummary& summary = model.summary;
  if (model.classSummaries.empty()) {
    out.json = QJsonObject{{"objective", summary.objective},
                           {"iterations", summary.iterations},
                           {"gradient_norm", summary.gradientNorm},
                           {"termination", QString::fromStdString(terminationName(summary.termination))}};
    const QString what = summary.termination == Termination::Completed
                             ? QString("completed its %1 planned steps").arg(summary.iterations)
                             : QString("%1 after %2 iterations")
                                   .arg(QString::fromStdString(terminationName(summary.termination)))
                                   .arg(summary.iterations);
    out.text = QString("%1, objective %2, gradient norm %3")
                   .arg(what).arg(summary.objective, 0, 'g', 10).arg(summary.gradientNorm, 0, 'g', 3);
    if (!summary.message.empty()) {
      // Why the optimizer stopped short, in the solver's words: the user's first clue.
      out.json["message"] = QString::fromStdString(summary.message);
      out.text += QString(" (%1)").arg(QString::fromStdString(summary.message));
    }
    return out;
  }
  int maxIterations = 0;
  double maxGradient = 0;
  Termination worst = Termination::Converged;
  int notConverged = 0;
  QJsonArray objectives, iterations, gradients;
  QStringList perClass;
  for (const OptimizeSummary& part : model.classSummaries) {
    maxIterations = std::max(maxIterations, part.iterations);
    maxGradient = std::max(maxGradient, part.gradientNorm);
    if (static_cast<int>(part.termination) > static_cast<int>(worst)) worst = part.termination;
    notConverged += part.termination != Termination::Converged;
    objectives.append(part.objective);
    iterations.append(part.iterations);
    gradients.append(part.gradientNorm);
    perClass << QString::number(part.iterations);
  }
  const auto classes = static_cast<int>(model.classSummaries.size());
  out.json = QJsonObject{{"objective", QJsonValue::Null},
                         {"iterations", maxIterations},
                         {"gradient_norm", maxGradient},
                         {"termination", QString::fromStdString(terminationName(worst))},
                         {"objective_per_class", objectives},
                         {"iterations_per_class", iterations},
                         {"gradient_norm_per_class", gradients}};
  out.text = QString("one-vs-rest, %1 binary problems: %2; at most %3 iterations per class (%4), "
                     "largest gradient norm %5")
                 .arg(classes)
                 .arg(notConverged == 0 ? QString("all converged")
                                        : QString("%1 of %2 stopped before converging (%3)")
                                              .arg(notConverged).arg(classes)
                                              .arg(QString::fromStdString(terminationName(worst))))
                 .arg(maxIterations)
                 .arg(perClass.join(", "))
                 .arg(maxGradient, 0, 'g', 3);
  return out;
}

// What `train` computed, for the two printers: the run and everything shown beside it.
struct TrainOutcome {
  experiment::PrivacyPlan plan;
  experiment::PlanRun run;
  PreparedData prepared;
  NoiseChoice noiseSpec;
  privacy::NoiseProvenance noise;
  std::optional<QString> bundlePath;
  double seconds = 0;

  bool isPrivate = false;
  mech::MechanismReport report;
  double trainAccuracy = 0;
  std::optional<double> testAccuracy;
  std::optional<double> mostCommonClass, nonPrivateAccuracy, noiseFreeAccuracy;
  OptimizerOutput optimizer;
  bool hasGuarantee = false;  // DP-SGD with noise multiplier 0 runs as a mechanism but guarantees nothing
  bundle::GuaranteeScope scope;
  double lambda = 0;
  bool tuned = false, selected = false, hasRanges = false;
  std::vector<double> tuneLambdas;
  std::vector<std::string> candidates;  // private selection's, public, fixed before the data were read
  std::string chosen;
  std::vector<std::string> warnings;

  const TrainedModel& model() const { return isPrivate ? run.release->model : run.baseline.model; }
  const Dataset& train() const { return prepared.train; }
  const Dataset& test() const { return prepared.test; }
};

// Parse: every option is checked before any data is read.
struct TrainRequest {
  experiment::PrivacyPlan plan;
  NoiseChoice noise;
  DataRequest data;
};

Result<TrainRequest> parseTrain(const Command& command) {
  auto plan = privacyPlan(command, command.parser().value("mechanism"));
  if (!plan) return plan.error();
  QString noTranscript;
  if (auto protocol = readMultipartyProtocol(command, nullptr, &noTranscript); !protocol) return protocol.error();
  auto noise = noiseChoice(command);
  if (!noise) return noise.error();
  auto data = command.dataRequest();
  if (!data) return data.error();
  TrainRequest request{std::move(plan).value(), noise.value(), std::move(data).value()};
  request.data.preprocess.scaleToData = request.plan.scalesRowsToData();
  return request;
}

// Run: the plan on the data, recorded in the ledger and written as a bundle before anything
// of the release is shown, and what is shown beside it.
Result<TrainOutcome> runTrainRequest(const Command& command, const TrainRequest& request, const CliLedger& ledger) {
  auto prepared = prepareData(request.data);
  if (!prepared) return prepared.error();
  auto noise = privacy::makeNoiseSource(request.noise.kind, request.noise.seed);
  if (!noise) return noise.error();
  TrainOutcome out;
  out.plan = request.plan;
  out.prepared = std::move(prepared).value();
  out.noiseSpec = request.noise;
  out.noise = noise.value()->provenance();
  const Dataset& train = out.train();
  const Dataset& test = out.test();
  const auto start = std::chrono::steady_clock::now();
  experiment::RunControl control;
  // Beside a private release, the non-private model of the same learner on the same rows:
  // what the privacy costs (issue: a baseline beside every result).
  control.trainBaseline = out.plan.isPrivate();
  // A fit over a second says how far it is on stderr (issue 34: LMGC ran minutes silently).
  ProgressLine progressLine("train", QString(), 100, true);
  control.progress = Progress([&progressLine](double done) { progressLine.setFraction(done); });
  auto run = experiment::runPlan(out.plan, out.prepared, *noise.value(), control);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!run) return run.error();
  out.run = std::move(run).value();
  // On the record before anything of the release is written or shown.
  if (auto recorded = ledger.record(
          experiment::releaseLedgerEntries(out.plan, out.run, datasetIdentity(request.data.trainSpec)));
      !recorded)
    return recorded.error();
  auto bundlePath = writeRunBundle(command, out.plan, out.run, out.prepared, out.noise);
  if (!bundlePath) return bundlePath.error();
  out.bundlePath = bundlePath.value();

  const auto* mechanism = std::get_if<experiment::TrainingMechanism>(&out.plan.choice);
  out.tuned = mechanism && !mechanism->tuneLambdas.empty();
  out.selected = mechanism && mechanism->selection;
  if (out.tuned) out.tuneLambdas = mechanism->tuneLambdas;
  out.isPrivate = out.plan.isPrivate();
  const mech::ProblemShape shape{train.rows(), train.features(), train.classes()};
  if (out.isPrivate) {
    out.report = out.run.release->report;
  } else {
    auto none = out.plan.calibrate(shape);
    if (!none) return none.error();
    out.report = std::move(none).value();
    out.report.gradientNorm = out.model().summary.gradientNorm;
  }
  const TrainedModel& model = out.model();
  out.trainAccuracy = accuracy(*model.model, model.theta, train.X, train.y);
  if (test.rows() > 0) out.testAccuracy = accuracy(*model.model, model.theta, test.X, test.y);
  out.mostCommonClass = experiment::mostCommonClassAccuracy(test);
  if (out.isPrivate) out.nonPrivateAccuracy = out.run.baseline.testAccuracy;
  // DP-SGD's own settings without its noise: underfitting apart from the price of privacy.
  if (out.testAccuracy) out.noiseFreeAccuracy = experiment::noiseFreeSgdAccuracy(out.plan, train, test);
  out.optimizer = optimizerOutput(model);
  out.hasGuarantee = out.isPrivate && std::isfinite(out.report.epsilon);
  // The same judgement as the bundle's: experiment noise, a step fitted on the data or a
  // structure read off it makes the result NOT private, whatever the mechanism guarantees.
  out.scope = bundle::guaranteeScope(out.report, bundle::privacyContext(out.plan, out.prepared, out.noise));
  out.lambda = out.tuned || out.selected ? *out.report.find(mech::Calibrated::ChosenLambda) : out.plan.learner().lambda;
  if (out.selected) {
    auto planned = mech::planSelection({mechanism->options, *mechanism->selection}, shape);
    if (!planned) return planned.error();
    for (const mech::MechanismOptions& candidate : planned.value().candidates)
      out.candidates.push_back(mech::candidateLabel(candidate));
    out.chosen = out.candidates.at(static_cast<std::size_t>(*out.report.find(mech::Calibrated::ChosenIndex)) - 1);
  }
  out.hasRanges = !request.data.preprocess.publicRanges.empty();
  out.warnings = train.provenance.warnings;
  out.warnings.insert(out.warnings.end(), ledger.warnings().begin(), ledger.warnings().end());
  if (out.isPrivate)
    for (std::string& warning : experiment::planWarnings(out.plan, out.report, shape))
      out.warnings.push_back(std::move(warning));
  if (out.noiseFreeAccuracy && out.nonPrivateAccuracy)
    if (auto underfit = experiment::sgdUnderfitsWarning(*out.noiseFreeAccuracy, *out.nonPrivateAccuracy))
      out.warnings.push_back(*underfit);
  if (out.isPrivate && out.testAccuracy && out.mostCommonClass)
    if (auto useless = experiment::noBetterThanMostCommonClassWarning(*out.testAccuracy, *out.mostCommonClass))
      out.warnings.push_back(*useless);
  return out;
}

QJsonObject trainJson(const TrainOutcome& o, const CliLedger& ledger) {
  const Dataset& train = o.train();
  const Dataset& test = o.test();
  const mech::MechanismReport& report = o.report;
  const LearnerSpec learner = o.plan.learner();
  QJsonObject out{
      {"model", QString::fromStdString(report.model)},
      {"mechanism", QString::fromStdString(report.mechanism)},
      {"calibration", QString::fromStdString(report.calibrationWord())},
      {"epsilon", o.hasGuarantee ? QJsonValue(report.epsilon) : QJsonValue::Null},
      {"delta", o.hasGuarantee ? QJsonValue(report.delta) : QJsonValue::Null},
      {"private", o.scope.isPrivate()},
      {"mechanism_guarantee_holds", o.scope.mechanismHolds},
      {"guarantee_covers", QString::fromStdString(o.scope.covers())},
      {"noise_source", QString::fromStdString(o.noise.kindName())},
      {"lambda", o.lambda},
      {"train_accuracy", o.trainAccuracy},
      {"test_accuracy", o.testAccuracy ? QJsonValue(*o.testAccuracy) : QJsonValue::Null},
      {"train_rows", static_cast<qint64>(train.rows())},
      {"test_rows", static_cast<qint64>(test.rows())},
      {"features", static_cast<qint64>(train.features())},
      {"classes", static_cast<qint64>(train.classes())},
      {"seconds", o.seconds},
      {"header", headerJson(train.provenance)},
      {"warnings", toJsonArray(o.warnings)},
      {"preprocessing", toJsonArray(train.provenance.steps)},
      {"not_private", toJsonArray(train.provenance.notPrivate)},
      {"structure_from_data", structureFromDataJson(train.provenance)},
      {"feature_map", featureMapJson(o.prepared.preprocessor)},
      {"report", mech::reportToJson(report)},
  };
  for (auto it = o.optimizer.json.begin(); it != o.optimizer.json.end(); ++it) out[it.key()] = it.value();
  if (o.testAccuracy) {
    QJsonObject baselines{{"most_common_class_test_accuracy", *o.mostCommonClass},
                          {"what", "measured on the test part for comparison: NOT private, not a release"}};
    if (o.nonPrivateAccuracy) baselines["nonprivate_test_accuracy"] = *o.nonPrivateAccuracy;
    if (o.noiseFreeAccuracy) baselines["noise_free_dpsgd_test_accuracy"] = *o.noiseFreeAccuracy;
    out["baselines"] = baselines;
  }
  if (o.hasRanges)
    out["clipped_values"] = QJsonObject{{"train", static_cast<qint64>(o.prepared.clippedTrainValues)},
                                        {"test", static_cast<qint64>(o.prepared.clippedTestValues)}};
  if (learner.kind == ModelKind::HuberSvm || learner.kind == ModelKind::Lmgc) out["huber"] = learner.huber;
  if (learner.kind == ModelKind::Lmgc) out["components"] = learner.components;
  // Only the released parameters are covered by the guarantee; these were measured on the
  // private training rows and are diagnostics for experiments, not releases.
  if (o.isPrivate)
    out["diagnostics_not_private"] = QJsonArray{"train_accuracy", "objective", "iterations", "gradient_norm",
                                                "termination", "clipped_values"};
  if (o.selected) {
    QJsonObject selection{{"candidates", toJsonArray(o.candidates)}, {"chosen", QString::fromStdString(o.chosen)},
                          {"private_selection", report.find(mech::Calibrated::SelectionRuns).has_value()}};
    if (const auto runs = report.find(mech::Calibrated::SelectionRuns)) selection["runs"] = *runs;
    if (const auto mean = report.find(mech::Calibrated::MeanRuns)) selection["mean_runs"] = *mean;
    out["selection"] = selection;
  }
  if (o.tuned) {
    QJsonArray lambdas;
    for (double candidate : o.tuneLambdas) lambdas.append(candidate);
    out["tune_lambdas"] = lambdas;
  }
  reportBundle(o.bundlePath, &out);
  out["ledger"] = ledger.json();
  return out;
}

void printTrain(const TrainOutcome& o, const CliLedger& ledger) {
  const Dataset& train = o.train();
  const Dataset& test = o.test();
  const mech::MechanismReport& report = o.report;
  printText(QString("model           %1 (lambda %2%3)")
                .arg(QString::fromStdString(report.model))
                .arg(o.lambda)
                .arg(o.tuned ? QString(", chosen privately among %1 candidates").arg(o.tuneLambdas.size()) : QString()));
  if (o.selected && report.find(mech::Calibrated::SelectionRuns))
    printText(QString("selection       %1, chosen privately among %2 candidates in %3 runs")
                  .arg(QString::fromStdString(o.chosen))
                  .arg(o.candidates.size())
                  .arg(*report.find(mech::Calibrated::SelectionRuns)));
  else if (o.selected)
    printText(QString("selection       %1: the public rule's choice, at the whole epsilon (--tune chooses privately "
                      "among every mechanism)")
                  .arg(QString::fromStdString(o.chosen)));
  printText(QString("data            %1 train rows, %2 test rows, %3 features, %4 classes")
                .arg(train.rows()).arg(test.rows()).arg(train.features()).arg(train.classes()));
  if (train.provenance.csv) printText("header          " + headerText(train.provenance));
  for (const auto& step : train.provenance.steps) printText("preprocessing   " + QString::fromStdString(step));
  if (o.hasRanges)
    printText(QString("clipped values  %1 of %2 training values and %3 of %4 test values were outside the declared "
                      "ranges%5")
                  .arg(o.prepared.clippedTrainValues)
                  .arg(train.rows() * static_cast<Index>(o.prepared.rawFeatures))
                  .arg(o.prepared.clippedTestValues)
                  .arg(test.rows() * static_cast<Index>(o.prepared.rawFeatures))
                  .arg(o.isPrivate ? "  (NOT private: a count over the data, a diagnostic)" : ""));
  for (const auto& note : train.provenance.notPrivate) printText("NOT PRIVATE     " + QString::fromStdString(note));
  printStructureFromData(train.provenance);
  if (o.isPrivate) printMechanismReport(report, "b");
  printText("optimizer       " + o.optimizer.text);
  printText(QString("train accuracy  %1%2")
                .arg(o.trainAccuracy, 0, 'f', 4)
                .arg(o.isPrivate ? "  (NOT private: measured on the training rows, a diagnostic)" : ""));
  if (o.testAccuracy) {
    printText(QString("test accuracy   %1").arg(*o.testAccuracy, 0, 'f', 4));
    QString line = QString("baselines       most common class %1").arg(*o.mostCommonClass, 0, 'f', 4);
    if (o.nonPrivateAccuracy) line += QString(", non-private %1").arg(*o.nonPrivateAccuracy, 0, 'f', 4);
    if (o.noiseFreeAccuracy) line += QString(", DP-SGD without noise %1").arg(*o.noiseFreeAccuracy, 0, 'f', 4);
    printText(line + "  (measured on the test part for comparison: NOT private)");
  }
  printText(QString("seconds         %1").arg(o.seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(report.statement));
  if (o.isPrivate && !o.scope.isPrivate())
    printText("privacy         NOT PRIVATE: the guarantee covers " + QString::fromStdString(o.scope.covers()));
  if (o.isPrivate && o.noiseSpec.kind == privacy::NoiseKind::Experiment)
    printText("noise           experiment (seed " + QString::number(o.noiseSpec.seed) +
              "): replayable, so NOT private; drop --noise experiment for a release");
  reportBundle(o.bundlePath, nullptr);
  ledger.print();
}

}  // namespace

int runTrain(const QStringList& args) {
  Command command("train", "Train a model, with or without a privacy mechanism, and report its accuracy.", "");
  command.addTrainingDataOptions();
  addMechanismOptions(command.parser());
  addNoiseOptions(command.parser());
  addTuningOption(command.parser());
  addPrivatePredictionOptions(command.parser());
  addMultipartyProtocolOptions(command.parser());
  addBundleOutputOption(command.parser());
  addLedgerOptions(command.parser());
  command.parser().addOptions({
      {"tolerance", "Relative gradient tolerance of the optimizer (default 1e-8).", "TOL"},
      {"max-iterations", "Iteration limit of the optimizer (default 3000).", "N"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  if (!command.parser().positionalArguments().isEmpty())
    return command.usageError("train takes no positional arguments (use --train DATA)");
  if (privatePredictionKind(command) != PrivatePredictionKind::None) return runTrainPrivatePrediction(command);

  auto request = parseTrain(command);
  if (!request) return command.fail(request.error());
  auto ledger = CliLedger::open(command, "dpstudio-cli train");
  if (!ledger) return command.fail(ledger.error());
  auto outcome = runTrainRequest(command, request.value(), ledger.value());
  if (!outcome) return command.fail(outcome.error());
  command.warn(outcome.value().warnings);
  if (command.json())
    command.printJson(trainJson(outcome.value(), ledger.value()));
  else
    printTrain(outcome.value(), ledger.value());
  return kOk;
}

}  // namespace dpstudio::cli
