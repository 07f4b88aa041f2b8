// `dpstudio-cli curator`: Charlie, the untrusted curator of paper 004's protocol, as a process
// of his own (core/prediction/paillier/tls/). He dials every party (`dpstudio-cli party`),
// checks that they announced the same public parameters, runs exactly his own steps of the
// protocol over TLS, and collects the K + 1 published shares: he publishes the release,
// their sum / K (ŵ + η of the smallest party), as the one-process mode does, rounded to the
// release grid in release mode (network_participant.h says which grid). Every output says
// where the noise came from: release only if every party announced release noise; if any
// party used experiment noise, the release is NOT private and says so.

#include <QJsonArray>
#include <QJsonDocument>

#include "app/cli/network_options.h"
#include "core/util/atomic_file.h"

namespace dpstudio::cli {
namespace {

Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

QJsonObject releaseJson(const multiparty::paillier::ProcessOutcome& outcome) {
  QJsonObject parameters;
  for (const auto& [key, value] : outcome.parameters) parameters[QString::fromStdString(key)] = QString::fromStdString(value);
  QJsonArray released;
  for (Index i = 0; i < outcome.released.size(); ++i) released.append(outcome.released[i]);
  QJsonArray seeded;
  for (std::uint32_t j : outcome.seededParties) seeded.append(QString("P%1").arg(j));
  const bool isPrivate = outcome.noise == privacy::NoiseKind::Release;
  return QJsonObject{
      {"protocol", "paillier"},
      {"published_by", "Charlie (the curator): the sum of the K + 1 published shares / K"},
      {"parameters", parameters},
      {"released", released},
      {"noise_source", QString::fromStdString(outcome.noiseSource)},
      {"private", isPrivate},
      {"seeded_parties", seeded},
      {"release_granularity", outcome.releaseGranularity},
      {"note", isPrivate ? "the differentially private release w_avg + eta (eta calibrated for the smallest party, whom "
                           "nobody learned), rounded to release_granularity; the parties' sizes, models and noise were "
                           "never sent in the clear"
                         : QString("NOT private: w_avg + eta with experiment noise (%1 of the %2 parties seeded "
                                   "theirs): anyone who knows a seed can subtract the noise; a classroom replay, not a "
                                   "release")
                               .arg(seeded.size())
                               .arg(parameters["parties"].toString())},
  };
}

}  // namespace

int runCurator(const QStringList& args) {
  Command command("curator",
                  "Charlie, the untrusted curator of paper 004's multiparty protocol, as a process of his own over TCP "
                  "with TLS. He connects to every party (`dpstudio-cli party`), checks that they agree on the "
                  "parameters, and runs his part of the protocol. He publishes the release: the sum of the K + 1 "
                  "published shares / K, printed and written to --out. He never sees a party's size, model or noise.",
                  "");
  command.parser().addOptions({
      {"parties", "The parties' addresses, in party order: host:port,host:port,.. (what each party printed).",
       "ADDRESSES"},
      {"out", "Write the released model (JSON: parameters and the released weights) to FILE, atomically, only when "
              "the protocol succeeded.", "FILE"},
  });
  addNetworkOptions(command.parser());
  int exitCode = 0;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QCommandLineParser& parser = command.parser();
  if (!parser.isSet("parties")) return command.fail(usage("--parties host:port,.. is required", "parties"));
  std::vector<std::string> addresses;
  for (const QString& address : parser.value("parties").split(',')) addresses.push_back(address.trimmed().toStdString());
  if (addresses.empty() || addresses.size() > 1000) return command.fail(usage("1 to 1000 parties", "parties"));
  if (parser.isSet("out") && parser.value("out").isEmpty()) return command.fail(usage("--out needs a file name", "out"));
  auto network = networkOptions(command);
  if (!network) return command.fail(network.error());

  const auto outcome = multiparty::paillier::runCuratorProcess(addresses, network.value());
  if (auto written = writeOwnTranscript(command, *outcome.transcript); !written && !outcome.error)
    return command.fail(written.error());
  if (outcome.error) return command.fail(*outcome.error);
  QJsonObject release = releaseJson(outcome);
  if (parser.isSet("out"))
    if (auto written = writeFileAtomically(QJsonDocument(release).toJson(), parser.value("out"), "the released model");
        !written)
      return command.fail(written.error());
  const QString transcript = parser.isSet("transcript") ? parser.value("transcript") : QString();
  if (command.json()) {
    release["messages_sent"] = static_cast<qint64>(outcome.transcript->entries().size());
    release["bytes_sent"] = static_cast<qint64>(outcome.transcript->totalBytes());
    release["transcript"] = transcript.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(transcript);
    release["out"] = parser.isSet("out") ? QJsonValue(parser.value("out")) : QJsonValue(QJsonValue::Null);
    command.printJson(release);
    return kOk;
  }
  QStringList weights;
  for (Index i = 0; i < outcome.released.size(); ++i) weights << QString::number(outcome.released[i], 'g', 10);
  printText(QString("protocol        paillier over TLS, K = %1").arg(addresses.size()));
  QStringList parameters;
  for (const auto& [key, value] : outcome.parameters) parameters << QString::fromStdString(key + "=" + value);
  printText("parameters      " + parameters.join(", "));
  printText("released        " + weights.join(" "));
  const bool isPrivate = outcome.noise == privacy::NoiseKind::Release;
  printText("noise           " + QString::fromStdString(outcome.noiseSource));
  printText(isPrivate ? QString("release grid    %1 (every released number is a multiple of it)")
                            .arg(outcome.releaseGranularity, 0, 'g', 17)
                      : QString("release grid    none: experiment noise, the release is NOT private"));
  printText(QString("messages        %1 sent by Charlie, %2 bytes%3")
                .arg(outcome.transcript->entries().size())
                .arg(outcome.transcript->totalBytes())
                .arg(transcript.isEmpty() ? QString() : "; transcript " + transcript));
  if (parser.isSet("out")) printText("written         " + parser.value("out"));
  return kOk;
}

}  // namespace dpstudio::cli
