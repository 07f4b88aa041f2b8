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

  // Every option is checked before any data is read.
  auto plan = privacyPlan(command, command.parser().value("mechanism"));
  if (!plan) return command.fail(plan.error());
  QString noTranscript;
  if (auto protocol = readMultipartyProtocol(command, nullptr, &noTranscript); !protocol)
    return command.fail(protocol.error());
  const auto* mechanism = std::get_if<experiment::TrainingMechanism>(&plan.value().choice);
  const bool tuned = mechanism && !mechanism->tuneLambdas.empty();
  const bool selected = mechanism && mechanism->selection;
  auto noiseSpec = noiseChoice(command);
  if (!noiseSpec) return command.fail(noiseSpec.error());
  auto ledger = CliLedger::open(command, "dpstudio-cli train");
  if (!ledger) return command.fail(ledger.error());

  auto request = command.dataRequest();
  if (!request) return command.fail(request.error());
  auto prepared = prepareData(request.value());
  if (!prepared) return command.fail(prepared.error());
  const Dataset& train = prepared.value().train;
  const Dataset& test = prepared.value().test;

  auto noise = privacy::makeNoiseSource(noiseSpec.value().kind, noiseSpec.value().seed);
  if (!noise) return command.fail(noise.error());
  const auto start = std::chrono::steady_clock::now();
  experiment::RunControl control;
  // Beside a private release, the non-private model of the same learner on the same rows:
  // what the privacy costs (issue: a baseline beside every result).
  control.trainBaseline = plan.value().isPrivate();
  auto run = experiment::runPlan(plan.value(), prepared.value(), *noise.value(), control);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!run) return command.fail(run.error());
  // On the record before anything of the release is written or shown.
  if (auto recorded = ledger.value().record(experiment::releaseLedgerEntries(
          plan.value(), run.value(), datasetIdentity(request.value().trainSpec)));
      !recorded)
    return command.fail(recorded.error());
  auto bundlePath = writeRunBundle(command, plan.value(), run.value(), prepared.value(), noise.value()->provenance());
  if (!bundlePath) return command.fail(bundlePath.error());
  const bool isPrivate = plan.value().isPrivate();
  const TrainedModel& model = isPrivate ? run.value().release->model : run.value().baseline.model;
  mech::MechanismReport report;
  if (isPrivate) {
    report = run.value().release->report;
  } else {
    auto none = plan.value().calibrate({train.rows(), train.features(), train.classes()});
    if (!none) return command.fail(none.error());
    report = std::move(none).value();
    report.gradientNorm = model.summary.gradientNorm;
  }
  const double trainAccuracy = accuracy(*model.model, model.theta, train.X, train.y);
  const bool hasTest = test.rows() > 0;
  const double testAccuracy = hasTest ? accuracy(*model.model, model.theta, test.X, test.y) : 0.0;
  const std::optional<double> mostCommonClass = experiment::mostCommonClassAccuracy(test);
  const std::optional<double> nonPrivateAccuracy = isPrivate ? run.value().baseline.testAccuracy : std::nullopt;
  // DP-SGD's own settings without its noise: underfitting apart from the price of privacy.
  const bool noisyDpSgd = mechanism && !selected && mechanism->options.kind == mech::MechanismKind::DpSgd &&
                          !(mechanism->options.sgd.noiseMultiplier && *mechanism->options.sgd.noiseMultiplier == 0);
  const std::optional<double> noiseFreeAccuracy =
      noisyDpSgd && hasTest ? experiment::noiseFreeSgdAccuracy(mechanism->options, train, test) : std::nullopt;
  const OptimizerOutput optimizer = optimizerOutput(model);
  // DP-SGD with noise multiplier 0 runs as a mechanism but guarantees nothing (ε = ∞).
  const bool hasGuarantee = isPrivate && std::isfinite(report.epsilon);
  // The same judgement as the bundle's: experiment noise, a step fitted on the data or a
  // structure read off it makes the result NOT private, whatever the mechanism guarantees.
  const bundle::GuaranteeScope scope = bundle::guaranteeScope(
      report, bundle::privacyContext(plan.value(), prepared.value(), noise.value()->provenance()));
  const LearnerSpec learner = plan.value().learner();
  const double lambda = tuned || selected ? *report.find(mech::Calibrated::ChosenLambda) : learner.lambda;
  // Private selection: what it chose among (public, fixed before the data were read).
  std::vector<std::string> candidates;
  std::optional<mech::SelectionPlan> selection;
  if (selected) {
    auto planned = mech::planSelection({mechanism->options, *mechanism->selection},
                                       {train.rows(), train.features(), train.classes()});
    if (!planned) return command.fail(planned.error());
    selection = std::move(planned).value();
    for (const mech::MechanismOptions& candidate : selection->candidates)
      candidates.push_back(mech::candidateLabel(candidate));
  }
  const std::string chosen =
      selected ? candidates.at(static_cast<std::size_t>(*report.find(mech::Calibrated::ChosenIndex)) - 1) : std::string();
  const bool hasRanges = !request.value().preprocess.publicRanges.empty();
  std::vector<std::string> warnings = train.provenance.warnings;
  warnings.insert(warnings.end(), ledger.value().warnings().begin(), ledger.value().warnings().end());
  if (isPrivate)
    for (std::string& warning :
         experiment::planWarnings(plan.value(), report, {train.rows(), train.features(), train.classes()}))
      warnings.push_back(std::move(warning));
  if (noiseFreeAccuracy && nonPrivateAccuracy)
    if (auto underfit = experiment::sgdUnderfitsWarning(*noiseFreeAccuracy, *nonPrivateAccuracy))
      warnings.push_back(*underfit);
  if (isPrivate && hasTest && mostCommonClass)
    if (auto useless = experiment::noBetterThanMostCommonClassWarning(testAccuracy, *mostCommonClass))
      warnings.push_back(*useless);
  command.warn(warnings);

  if (command.json()) {
    QJsonObject out{
        {"model", QString::fromStdString(report.model)},
        {"mechanism", QString::fromStdString(report.mechanism)},
        {"calibration", QString::fromStdString(report.calibrationWord())},
        {"epsilon", hasGuarantee ? QJsonValue(report.epsilon) : QJsonValue::Null},
        {"delta", hasGuarantee ? QJsonValue(report.delta) : QJsonValue::Null},
        {"private", scope.isPrivate()},
        {"mechanism_guarantee_holds", scope.mechanismHolds},
        {"guarantee_covers", QString::fromStdString(scope.covers())},
        {"noise_source", QString::fromStdString(noise.value()->provenance().kindName())},
        {"lambda", lambda},
        {"train_accuracy", trainAccuracy},
        {"test_accuracy", hasTest ? QJsonValue(testAccuracy) : QJsonValue::Null},
        {"train_rows", static_cast<qint64>(train.rows())},
        {"test_rows", static_cast<qint64>(test.rows())},
        {"features", static_cast<qint64>(train.features())},
        {"classes", static_cast<qint64>(train.classes())},
        {"seconds", seconds},
        {"header", headerJson(train.provenance)},
        {"warnings", toJsonArray(warnings)},
        {"preprocessing", toJsonArray(train.provenance.steps)},
        {"not_private", toJsonArray(train.provenance.notPrivate)},
        {"structure_from_data", structureFromDataJson(train.provenance)},
        {"feature_map", featureMapJson(prepared.value().preprocessor)},
        {"report", mech::reportToJson(report)},
    };
    for (auto it = optimizer.json.begin(); it != optimizer.json.end(); ++it) out[it.key()] = it.value();
    if (hasTest) {
      QJsonObject baselines{{"most_common_class_test_accuracy", *mostCommonClass},
                            {"what", "measured on the test part for comparison: NOT private, not a release"}};
      if (nonPrivateAccuracy) baselines["nonprivate_test_accuracy"] = *nonPrivateAccuracy;
      if (noiseFreeAccuracy) baselines["noise_free_dpsgd_test_accuracy"] = *noiseFreeAccuracy;
      out["baselines"] = baselines;
    }
    if (hasRanges)
      out["clipped_values"] = QJsonObject{{"train", static_cast<qint64>(prepared.value().clippedTrainValues)},
                                          {"test", static_cast<qint64>(prepared.value().clippedTestValues)}};
    if (learner.kind == ModelKind::HuberSvm || learner.kind == ModelKind::Lmgc) out["huber"] = learner.huber;
    // Only the released parameters are covered by the guarantee; these were measured on the
    // private training rows and are diagnostics for experiments, not releases.
    if (isPrivate)
      out["diagnostics_not_private"] = QJsonArray{"train_accuracy", "objective", "iterations", "gradient_norm",
                                                  "termination", "clipped_values"};
    if (selected) {
      QJsonObject selection{{"candidates", toJsonArray(candidates)}, {"chosen", QString::fromStdString(chosen)},
                            {"private_selection", report.find(mech::Calibrated::SelectionRuns).has_value()}};
      if (const auto runs = report.find(mech::Calibrated::SelectionRuns)) selection["runs"] = *runs;
      if (const auto mean = report.find(mech::Calibrated::MeanRuns)) selection["mean_runs"] = *mean;
      out["selection"] = selection;
    }
    if (tuned) {
      QJsonArray lambdas;
      for (double candidate : mechanism->tuneLambdas) lambdas.append(candidate);
      out["tune_lambdas"] = lambdas;
    }
    reportBundle(bundlePath.value(), &out);
    out["ledger"] = ledger.value().json();
    command.printJson(out);
    return kOk;
  }
  printText(QString("model           %1 (lambda %2%3)")
                .arg(QString::fromStdString(report.model))
                .arg(lambda)
                .arg(tuned ? QString(", chosen privately among %1 candidates").arg(mechanism->tuneLambdas.size())
                           : QString()));
  if (selected && report.find(mech::Calibrated::SelectionRuns))
    printText(QString("selection       %1, chosen privately among %2 candidates in %3 runs")
                  .arg(QString::fromStdString(chosen))
                  .arg(candidates.size())
                  .arg(*report.find(mech::Calibrated::SelectionRuns)));
  else if (selected)
    printText(QString("selection       %1: the public rule's choice, at the whole epsilon (--tune chooses privately "
                      "among every mechanism)")
                  .arg(QString::fromStdString(chosen)));
  printText(QString("data            %1 train rows, %2 test rows, %3 features, %4 classes")
                .arg(train.rows()).arg(test.rows()).arg(train.features()).arg(train.classes()));
  if (train.provenance.csv) printText("header          " + headerText(train.provenance));
  for (const auto& step : train.provenance.steps) printText("preprocessing   " + QString::fromStdString(step));
  if (hasRanges)
    printText(QString("clipped values  %1 of %2 training values and %3 of %4 test values were outside the declared "
                      "ranges%5")
                  .arg(prepared.value().clippedTrainValues)
                  .arg(train.rows() * static_cast<Index>(prepared.value().rawFeatures))
                  .arg(prepared.value().clippedTestValues)
                  .arg(test.rows() * static_cast<Index>(prepared.value().rawFeatures))
                  .arg(isPrivate ? "  (NOT private: a count over the data, a diagnostic)" : ""));
  for (const auto& note : train.provenance.notPrivate) printText("NOT PRIVATE     " + QString::fromStdString(note));
  printStructureFromData(train.provenance);
  if (isPrivate) printMechanismReport(report, "b");
  printText("optimizer       " + optimizer.text);
  printText(QString("train accuracy  %1%2")
                .arg(trainAccuracy, 0, 'f', 4)
                .arg(isPrivate ? "  (NOT private: measured on the training rows, a diagnostic)" : ""));
  if (hasTest) {
    printText(QString("test accuracy   %1").arg(testAccuracy, 0, 'f', 4));
    QString line = QString("baselines       most common class %1").arg(*mostCommonClass, 0, 'f', 4);
    if (nonPrivateAccuracy) line += QString(", non-private %1").arg(nonPrivateAccuracy.value(), 0, 'f', 4);
    if (noiseFreeAccuracy) line += QString(", DP-SGD without noise %1").arg(noiseFreeAccuracy.value(), 0, 'f', 4);
    printText(line + "  (measured on the test part for comparison: NOT private)");
  }
  printText(QString("seconds         %1").arg(seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(report.statement));
  if (isPrivate && !scope.isPrivate())
    printText("privacy         NOT PRIVATE: the guarantee covers " + QString::fromStdString(scope.covers()));
  if (isPrivate && noise.value()->kind() == privacy::NoiseKind::Experiment)
    printText("noise           experiment (seed " + QString::number(noiseSpec.value().seed) +
              "): replayable, so NOT private; drop --noise experiment for a release");
  reportBundle(bundlePath.value(), nullptr);
  ledger.value().print();
  return kOk;
}

}  // namespace dpstudio::cli
