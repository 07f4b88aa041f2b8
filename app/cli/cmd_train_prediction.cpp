// `train --mechanism prediction|subsample|multiparty` (docs/algorithms.md §3 F, G, I).
//
// Private prediction has no released model to score: as paper 003 does, the test accuracy is
// measured by answering B test points through the private predictor (all of them when the
// test set is smaller), and the output says so. The B points are a seeded random sample of
// the test rows (seed: --split-seed), not the first B: on a file sorted by class (spambase)
// the first rows are all one class. By default (--evaluation experiment) a copy of the
// predictor with its own budget answers them with experiment noise — an experiment, NOT
// private, charged nowhere — so that an exported predictor keeps its whole budget;
// --evaluation charged answers through the predictor itself. The training accuracy is not
// measured (null). Multiparty aggregation releases a model: cmd_train_multiparty.cpp.
//
// With --ledger (ledger_option.h) the predictor's answers are the release: its budget's entry
// is opened by the first charged answer (a charged test answer, or a later `predict`), and a
// bundle (--out) keeps the budget's id so that later `predict` answers count against that entry.

#include <QJsonArray>

#include <optional>

#include "app/cli/bundle_output.h"
#include "app/cli/ledger_option.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/private_prediction_options.h"
#include "app/cli/release_output.h"
#include "app/cli/train_multiparty.h"
#include "app/cli/plan_options.h"
#include "core/bundle/bundle_export.h"
#include "core/experiment/answering.h"
#include "core/experiment/plan_warnings.h"
#include "core/experiment/result_baselines.h"
#include "core/mechanisms/report_json.h"
#include "core/privacy/validation.h"
#include "core/sources/source.h"

namespace dpstudio::cli {
namespace {

using Answered = experiment::AnsweredSample;

int printPrediction(const Command& command, const mech::MechanismReport& report, const PreparedData& data,
                    const predict::PredictionOptions& o, const Answered& a, double seconds,
                    const std::optional<QString>& bundlePath, const CliLedger& ledger,
                    const bundle::GuaranteeScope& scope, bool experimentEvaluation) {
  const double accuracy = a.answered > 0 ? static_cast<double>(a.correct) / static_cast<double>(a.answered) : 0.0;
  const bool all = a.answered == data.test.rows();
  const std::string note = "test accuracy over " +
                           (all ? "all " + std::to_string(a.answered) + " test points"
                                : std::to_string(a.answered) + " of the " + std::to_string(data.test.rows()) +
                                      " test points, a random sample (seed " + std::to_string(a.seed) + ")") +
                           (experimentEvaluation
                                ? ", each answered by a copy of the private predictor with its own budget and experiment "
                                  "noise (seed " + std::to_string(a.seed) + "): an experiment on the data, NOT private, "
                                  "not charged to the predictor's budget (--evaluation charged spends it instead)"
                                : ", each answered through the private predictor (budget " + std::to_string(o.budget) +
                                      "), each answer a release spending its budget") +
                           "; training accuracy not measured";
  std::vector<std::string> warnings = data.train.provenance.warnings;
  warnings.insert(warnings.end(), ledger.warnings().begin(), ledger.warnings().end());
  for (std::string& warning : experiment::planWarnings(experiment::PrivacyPlan::prediction(o), report,
                                                      {data.train.rows(), data.train.features(), data.train.classes()}))
    warnings.push_back(std::move(warning));
  // The floor every answer set must clear (issue 32 item 4): the test part's most common class.
  const std::optional<double> mostCommonClass = experiment::mostCommonClassAccuracy(data.test);
  if (a.answered > 0 && mostCommonClass)
    if (auto useless = experiment::noBetterThanMostCommonClassWarning(accuracy, *mostCommonClass))
      warnings.push_back(*useless);
  command.warn(warnings);
  if (command.json()) {
    QJsonObject out = releaseJson(report, data, seconds, scope);
    out["ledger"] = ledger.json();
    out["lambda"] = o.learner.lambda;
    if (mostCommonClass)
      out["baselines"] = QJsonObject{{"most_common_class_test_accuracy", *mostCommonClass},
                                     {"nonprivate_test_accuracy", a.nonPrivateAccuracy},
                                     {"what", "measured on the test part for comparison: NOT private, not a release"}};
    out["train_accuracy"] = QJsonValue::Null;
    out["test_accuracy"] = a.answered > 0 ? QJsonValue(accuracy) : QJsonValue::Null;
    out["test_accuracy_note"] = QString::fromStdString(note);
    out["answered"] = static_cast<qint64>(a.answered);
    QJsonArray rows;  // 1-based test-row numbers
    for (Index row : a.rows) rows.append(static_cast<qint64>(row + 1));
    out["answered_rows"] = rows;
    out["answered_rows_seed"] = QString::number(a.seed);
    out["evaluation"] = experimentEvaluation ? "experiment" : "charged";
    out["warnings"] = toJsonArray(warnings);
    out["budget"] = static_cast<qint64>(o.budget);
    out["budget_remaining"] = static_cast<qint64>(a.remaining);
    out["nonprivate_test_accuracy"] = a.nonPrivateAccuracy;
    if (o.kind == predict::PredictionKind::Subsample) out["teachers"] = static_cast<qint64>(o.teachers);
    reportBundle(bundlePath, &out);
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
  if (mostCommonClass)
    printText(QString("baselines       most common class %1 on the test part (NOT private, for comparison)")
                  .arg(*mostCommonClass, 0, 'f', 4));
  printText(QString("budget          %1 of %2 answers left").arg(a.remaining).arg(o.budget));
  printText(QString("seconds         %1").arg(seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(report.statement));
  if (!scope.isPrivate())
    printText("privacy         NOT PRIVATE: the guarantee covers " + QString::fromStdString(scope.covers()));
  reportBundle(bundlePath, nullptr);
  ledger.print();
  return kOk;
}

// How a private predictor's test accuracy is measured (issue 32 item 6: an exported predictor
// with "0 of 20 answers left" had spent them all on its own evaluation).
enum class Evaluation { Experiment, Charged };

Result<Evaluation> evaluationChoice(const Command& command) {
  const QString name = command.parser().isSet("evaluation") ? command.parser().value("evaluation") : "experiment";
  if (name == "experiment") return Evaluation::Experiment;
  if (name == "charged") return Evaluation::Charged;
  return Error{ErrorKind::Usage, "use experiment or charged, found '" + name.toStdString() + "'", {}, 0, "evaluation"};
}

int runPrediction(const Command& command, const experiment::PrivacyPlan& plan, const PreparedData& data,
                  privacy::NoiseSource& noise, std::uint64_t sampleSeed, const CliLedger& ledger) {
  const auto start = Clock::now();
  auto evaluation = evaluationChoice(command);
  if (!evaluation) return command.fail(evaluation.error());
  experiment::RunControl control;
  control.trainBaseline = false;  // the answers are the result; no all-rows model beside them
  auto run = experiment::runPlan(plan, data, noise, control);
  if (!run) return command.fail(run.error());
  experiment::PredictorRelease& predictor = *run.value().prediction;
  mech::MechanismReport report = predictor.report();
  const auto& options = std::get<experiment::PrivatePrediction>(plan.choice).options;
  if (evaluation.value() == Evaluation::Experiment) {
    // Exported first, its budget whole; a copy with its own budget answers the test sample
    // with seeded experiment noise, recorded nowhere: an experiment on the data, said so.
    auto bundlePath = writeRunBundle(command, plan, run.value(), data, noise.provenance());
    if (!bundlePath) return command.fail(bundlePath.error());
    experiment::PredictorRelease copy = predictor.freshRepetition();
    auto experimentNoise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, sampleSeed);
    if (!experimentNoise) return command.fail(experimentNoise.error());
    auto answered = experiment::answerTestSample(copy, data.test, *experimentNoise.value(), sampleSeed);
    if (!answered) return command.fail(answered.error());
    answered.value().remaining = predictor.remaining();  // the exported predictor's, untouched
    report.noiseSource = experimentNoise.value()->provenance().describe();
    return printPrediction(command, report, data, options, answered.value(), secondsSince(start), bundlePath.value(),
                           ledger, printedScope(report, plan, data, *experimentNoise.value()), true);
  }
  // The answers are the release: the predictor records them in the ledger as it gives them.
  auto answered = experiment::answerTestSample(predictor, data.test, noise, sampleSeed, ledger.session());
  if (!answered) return command.fail(answered.error());
  report.noiseSource = noise.provenance().describe();
  // Exported after the test answers: they are spent, and the bundle's count says so.
  auto bundlePath = writeRunBundle(command, plan, run.value(), data, noise.provenance());
  if (!bundlePath) return command.fail(bundlePath.error());
  return printPrediction(command, report, data, options, answered.value(), secondsSince(start), bundlePath.value(),
                         ledger, printedScope(report, plan, data, noise), false);
}

}  // namespace

int runTrainPrivatePrediction(const Command& command) {
  auto noiseSpec = noiseChoice(command);
  if (!noiseSpec) return command.fail(noiseSpec.error());
  // Refuse bad options before loading any data.
  auto plan = privacyPlan(command, command.parser().value("mechanism"));
  if (!plan) return command.fail(plan.error());
  auto* parties = std::get_if<experiment::Multiparty>(&plan.value().choice);
  QString transcriptPath;
  if (auto protocol = readMultipartyProtocol(command, parties ? &parties->options : nullptr, &transcriptPath); !protocol)
    return command.fail(protocol.error());
  auto ledger = CliLedger::open(command, "dpstudio-cli train");
  if (!ledger) return command.fail(ledger.error());
  auto request = command.dataRequest();
  if (!request) return command.fail(request.error());
  auto prepared = prepareData(request.value());
  if (!prepared) return command.fail(prepared.error());
  auto noise = privacy::makeNoiseSource(noiseSpec.value().kind, noiseSpec.value().seed);
  if (!noise) return command.fail(noise.error());
  return std::holds_alternative<experiment::Multiparty>(plan.value().choice)
             ? runTrainMultiparty(command, plan.value(), prepared.value(), *noise.value(),
                             datasetIdentity(request.value().trainSpec), ledger.value(), transcriptPath)
             : runPrediction(command, plan.value(), prepared.value(), *noise.value(), request.value().splitSeed,
                             ledger.value());
}

}  // namespace dpstudio::cli
