// `train --mechanism multiparty`: run → record and write → print, as `train` does
// (cmd_train.cpp). Its accuracies are measured as for the training mechanisms, next to paper
// 004's baselines, every one of them NOT private but the all-data DP baseline, which is a
// second release of its own ε and is recorded as one.

#include "app/cli/train_multiparty.h"

#include <QJsonArray>

#include <optional>

#include "app/cli/bundle_output.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/release_output.h"
#include "core/experiment/plan_warnings.h"
#include "core/experiment/release_entries.h"
#include "core/mechanisms/report_json.h"
#include "core/util/atomic_file.h"

namespace dpstudio::cli {
namespace {

// What a multiparty release costs: as published, the ε that can be proven, not the claim.
double epsilonSpent(const mech::MechanismReport& report) { return report.chargedEpsilon(); }

// The protocol's transcript, written atomically where --transcript asks (nothing else when
// the option is absent). It holds no private value: every message in it is a ciphertext, a
// random share or a public key (paillier/protocol_transcript.h).
Result<QString> writeTranscript(const QString& path, const experiment::MultipartyDiagnostics& d) {
  if (path.isEmpty()) return QString();
  if (d.transcriptJson.empty())
    return Error{ErrorKind::Internal, "the protocol produced no transcript", path.toStdString(), 0, "transcript"};
  if (auto written = writeFileAtomically(QByteArray::fromStdString(d.transcriptJson), path, "the protocol transcript");
      !written)
    return written.error();
  return path;
}

// A finished run: released, on the ledger, written.
struct MultipartyOutcome {
  experiment::PlanRun run;
  std::optional<QString> bundlePath;
  QString transcriptPath;  // empty: none written
  double seconds = 0;
  std::vector<std::string> warnings;
  bundle::GuaranteeScope scope;

  const experiment::ModelRelease& release() const { return *run.release; }
  const experiment::MultipartyDiagnostics& diagnostics() const { return *run.multiparty; }
};

Result<MultipartyOutcome> runMultipartyRelease(const Command& command, const experiment::PrivacyPlan& plan,
                                               const PreparedData& data, privacy::NoiseSource& noise,
                                               const std::string& dataset, const CliLedger& ledger,
                                               const QString& transcriptPath) {
  const auto start = Clock::now();
  experiment::RunControl control;
  // An aborted protocol still leaves its transcript: what was sent before the abort.
  std::optional<Error> transcriptFailure;
  if (!transcriptPath.isEmpty())
    control.abortedTranscript = [&](const std::string& json) {
      if (auto written = writeFileAtomically(QByteArray::fromStdString(json), transcriptPath, "the protocol transcript");
          !written)
        transcriptFailure = written.error();
    };
  auto run = experiment::runPlan(plan, data, noise, control);
  if (!run) {
    Error error = run.error();
    if (transcriptFailure) error.message += " (and the transcript was not written: " + transcriptFailure->message + ")";
    return error;
  }
  MultipartyOutcome out;
  out.seconds = secondsSince(start);
  out.run = std::move(run.value());
  // Each release (the aggregate, and the all-data DP baseline when drawn) on the record
  // before anything of them is written or shown.
  if (auto recorded = ledger.record(experiment::releaseLedgerEntries(plan, out.run, dataset)); !recorded)
    return recorded.error();
  auto bundlePath = writeRunBundle(command, plan, out.run, data, noise.provenance());
  if (!bundlePath) return bundlePath.error();
  out.bundlePath = bundlePath.value();
  auto transcript = writeTranscript(transcriptPath, out.diagnostics());
  if (!transcript) return transcript.error();
  out.transcriptPath = transcript.value();
  const mech::MechanismReport& report = out.release().report;
  out.warnings = data.train.provenance.warnings;
  out.warnings.insert(out.warnings.end(), ledger.warnings().begin(), ledger.warnings().end());
  for (std::string& warning :
       experiment::planWarnings(plan, report, {data.train.rows(), data.train.features(), data.train.classes()}))
    out.warnings.push_back(std::move(warning));
  out.scope = printedScope(report, plan, data, noise);
  return out;
}

QJsonValue accuracyOrNull(const std::optional<double>& value) { return value ? QJsonValue(*value) : QJsonValue::Null; }

// The aggregate's test accuracy without its noise (NOT private: a diagnostic).
std::optional<double> aggregateNonPrivateAccuracy(const MultipartyOutcome& o, const PreparedData& data) {
  if (data.test.rows() == 0) return std::nullopt;
  return accuracy(*o.release().model.model, o.diagnostics().average, data.test.X, data.test.y);
}

QString protocolName(const multiparty::MultipartyOptions& options) {
  return QString::fromStdString(multiparty::aggregationProtocolName(options.protocol));
}

QJsonObject multipartyJson(const MultipartyOutcome& o, const multiparty::MultipartyOptions& options,
                           const PreparedData& data, const CliLedger& ledger) {
  const experiment::ModelRelease& release = o.release();
  const experiment::MultipartyDiagnostics& d = o.diagnostics();
  QJsonObject out = releaseJson(release.report, data, o.seconds, o.scope);
  out["warnings"] = toJsonArray(o.warnings);
  out["lambda"] = options.lambda;
  out["train_accuracy"] = release.trainAccuracy;
  out["test_accuracy"] = accuracyOrNull(release.testAccuracy);
  QJsonArray sizes;
  for (Index size : d.partySizes) sizes.append(static_cast<qint64>(size));
  out["parties"] = sizes;
  out["smallest_party"] = release.report.calibrated(mech::Calibrated::SmallestParty);
  out["distance_to_all_data"] = d.distance;
  out["theorem_4_2_bound"] = d.bound;
  out["protocol"] = protocolName(options);
  out["transcript"] = o.transcriptPath.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(o.transcriptPath);
  QJsonObject baselines{
      {"note", d.allDataPrivate ? "NOT private except all_data_dp (a second release of its own epsilon, which "
                                  "needs the data pooled)"
                                : "NOT private (experiment diagnostics)"},
      {"aggregate_nonprivate_test_accuracy", accuracyOrNull(aggregateNonPrivateAccuracy(o, data))},
      {"all_data_nonprivate_test_accuracy", accuracyOrNull(o.run.baseline.testAccuracy)},
  };
  if (d.allDataPrivate) {
    baselines["all_data_dp_test_accuracy"] = accuracyOrNull(d.allDataPrivate->testAccuracy);
    baselines["all_data_dp_report"] = mech::reportToJson(d.allDataPrivate->report);
  }
  out["baselines"] = baselines;
  // Every release this run made, each with its own ε (basic composition: they add up).
  QJsonArray releases{QJsonObject{{"what", "aggregate"}, {"epsilon", epsilonSpent(release.report)}, {"delta", 0.0}}};
  if (d.allDataPrivate)
    releases.append(QJsonObject{
        {"what", "all-data DP baseline"}, {"epsilon", epsilonSpent(d.allDataPrivate->report)}, {"delta", 0.0}});
  out["releases"] = releases;
  out["ledger"] = ledger.json();
  reportBundle(o.bundlePath, &out);
  return out;
}

void printMultiparty(const MultipartyOutcome& o, const multiparty::MultipartyOptions& options,
                     const PreparedData& data, const CliLedger& ledger) {
  const experiment::ModelRelease& release = o.release();
  const experiment::MultipartyDiagnostics& d = o.diagnostics();
  QStringList sizes;
  for (Index size : d.partySizes) sizes << QString::number(size);
  printText(QString("model           %1, lambda %2 (objective (1/n_j) sum loss + lambda ||w||^2)")
                .arg(QString::fromStdString(release.report.model)).arg(options.lambda));
  printText("parties         " + sizes.join(", ") + " rows");
  printText("protocol        " + protocolName(options) +
            (options.protocol == multiparty::AggregationProtocolKind::Paillier
                 ? QString(" (%1 bytes of messages%2)")
                       .arg(release.report.calibrated(mech::Calibrated::ProtocolBytes), 0, 'f', 0)
                       .arg(o.transcriptPath.isEmpty() ? QString() : "; transcript " + o.transcriptPath)
                 : QString(" (sees every local model in the clear)")));
  printMechanismReport(release.report, "eta");
  printText(QString("||w_avg - w*||  %1 measured (NOT private), Theorem 4.2 bound %2")
                .arg(d.distance, 0, 'g', 6).arg(d.bound, 0, 'g', 6));
  printText(QString("train accuracy  %1").arg(release.trainAccuracy, 0, 'f', 4));
  if (const auto aggregate = aggregateNonPrivateAccuracy(o, data)) {
    printText(QString("test accuracy   %1").arg(*release.testAccuracy, 0, 'f', 4));
    printText(QString("baselines       all data non-private %1, aggregate non-private %2 (NOT private)")
                  .arg(*o.run.baseline.testAccuracy, 0, 'f', 4)
                  .arg(*aggregate, 0, 'f', 4));
    if (d.allDataPrivate)
      printText(QString("all data DP     test accuracy %1").arg(*d.allDataPrivate->testAccuracy, 0, 'f', 4));
  }
  printText(QString("seconds         %1").arg(o.seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(release.report.statement));
  if (!o.scope.isPrivate())
    printText("privacy         NOT PRIVATE: the guarantee covers " + QString::fromStdString(o.scope.covers()));
  if (d.allDataPrivate) {
    const double first = epsilonSpent(release.report), second = epsilonSpent(d.allDataPrivate->report);
    printText(QString("second release  the all-data DP baseline (--multiparty-baseline) is a separate (%1, 0)-DP "
                      "release from the same rows: this run spent epsilon %2 + %1 = %3 in total")
                  .arg(second, 0, 'g', 6)
                  .arg(first, 0, 'g', 6)
                  .arg(first + second, 0, 'g', 6));
  }
  reportBundle(o.bundlePath, nullptr);
  ledger.print();
}

}  // namespace

int runTrainMultiparty(const Command& command, const experiment::PrivacyPlan& plan, const PreparedData& data,
                       privacy::NoiseSource& noise, const std::string& dataset, const CliLedger& ledger,
                       const QString& transcriptPath) {
  auto outcome = runMultipartyRelease(command, plan, data, noise, dataset, ledger, transcriptPath);
  if (!outcome) return command.fail(outcome.error());
  const multiparty::MultipartyOptions& options = std::get<experiment::Multiparty>(plan.choice).options;
  command.warn(outcome.value().warnings);
  if (command.json())
    command.printJson(multipartyJson(outcome.value(), options, data, ledger));
  else
    printMultiparty(outcome.value(), options, data, ledger);
  return kOk;
}

}  // namespace dpstudio::cli
