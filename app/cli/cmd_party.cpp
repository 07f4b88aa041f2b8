// `dpstudio-cli party`: one party P_J of paper 004's protocol as a process of its own, for
// running the protocol on several machines (core/prediction/paillier/tls/). It trains its
// local model on its own data, waits for Charlie (`dpstudio-cli curator`) to connect, runs
// exactly its own steps of the protocol over TLS, and ends having published its share of
// the release; Charlie publishes the released model.
//
// The party's noise: by default (release mode) from the OS CSPRNG; with --noise experiment
// --seed S party J draws η_J from the stream party J draws in `train --mechanism multiparty
// --protocol paillier --noise experiment --seed S` (one process), so the two modes release
// the same model for the same seeds, which anyone who knows S can replay: NOT private. The
// party announces which in its hello; its transcript and output say it.
//
// It listens on 127.0.0.1 unless --listen-address says otherwise (another laptop's curator
// needs the party's LAN address or 0.0.0.0).

#include <QHostAddress>

#include <algorithm>
#include <cstdio>

#include "app/cli/mechanism_options.h"
#include "app/cli/network_options.h"
#include "app/cli/private_prediction_options.h"
#include "core/prediction/multiparty.h"
#include "core/sources/prepare.h"

namespace dpstudio::cli {
namespace {

constexpr long long kMaxParties = 1000;

Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

void addPartyOptions(QCommandLineParser& parser) {
  QCommandLineOption of(QStringList{"of", "parties"}, "Number of parties K (every party and Charlie agree on it).", "K");
  QCommandLineOption delta("delta", "Must stay unset: the release is (epsilon, 0)-DP.", "D");
  delta.setFlags(QCommandLineOption::HiddenFromHelp);
  QCommandLineOption baseline("multiparty-baseline", "Not available here: it needs the data pooled.");
  baseline.setFlags(QCommandLineOption::HiddenFromHelp);
  parser.addOptions({
      {"listen", "TCP port to listen on (at --listen-address); 0 lets the OS choose. The first line on stdout is the "
                 "port bound, alone, so that a script can read it.", "PORT"},
      {"listen-address", "IP address to listen on: 127.0.0.1 (the default: this machine only), this laptop's LAN "
                         "address, or 0.0.0.0 (every IPv4 interface) for a curator on another machine.", "ADDR",
       "127.0.0.1"},
      {"party", "This party's number J, 1..K.", "J"},
      of,
      delta,
      baseline,
      {"model", "logreg (default) or huber.", "M", "logreg"},
      {"epsilon", "Privacy budget epsilon of the release (default 1).", "E"},
      {"lambda", "lambda of lambda ||w||^2 (default 1e-4).", "L"},
      {"huber", "Huber hinge width h (default 0.5).", "H"},
      {"calibration", "corrected (default) or published.", "MODE", "corrected"},
      {"party-split", "Class exercise on one shared data set: DATA is split as `train --party-split F1,..,FK` splits "
                      "it, and this party keeps part J (its local model is then the one train computes for P_J). "
                      "Without it, every training row of DATA is this party's own.", "F1,..,FK"},
      {"partition-seed", "With --party-split: seed of the split (default 1).", "S"},
  });
}

// Party J's own noise stream: in experiment mode the one `train --seed S` gives P_J
// (paillier_aggregation.h: the J-th draw of the run's stream seeds stream J).
Result<std::unique_ptr<privacy::NoiseSource>> partyNoise(const NoiseChoice& choice, std::uint32_t party) {
  if (choice.kind == privacy::NoiseKind::Release) {
    auto source = privacy::ReleaseNoise::create();
    if (!source) return source.error();
    return std::unique_ptr<privacy::NoiseSource>(std::move(source).value());
  }
  privacy::ExperimentNoise run(choice.seed);
  std::uint64_t seed = 0;
  for (std::uint32_t j = 1; j <= party; ++j) seed = run.nextU64();
  return std::unique_ptr<privacy::NoiseSource>(std::make_unique<privacy::ExperimentNoise>(seed, party));
}

// ŵ_J on this party's rows: all of DATA's training rows, or part J of --party-split.
Result<multiparty::LocalModel> localModel(const multiparty::MultipartyOptions& options, const Dataset& train,
                                          std::uint32_t party, bool split) {
  if (!split) {
    std::vector<Index> all(static_cast<std::size_t>(train.rows()));
    for (Index i = 0; i < train.rows(); ++i) all[static_cast<std::size_t>(i)] = i;
    return multiparty::trainPartyModel(options, train, all, train.rows());
  }
  auto parts = multiparty::partyRows(train.rows(), options);
  if (!parts) return parts.error();
  Index smallest = train.rows();
  for (const auto& part : parts.value()) smallest = std::min(smallest, static_cast<Index>(part.size()));
  return multiparty::trainPartyModel(options, train, parts.value()[party - 1], smallest);
}

}  // namespace

int runParty(const QStringList& args) {
  Command command("party",
                  "One party of paper 004's multiparty protocol as a process of its own, over TCP with TLS. It trains "
                  "its local model on its own data (--train), listens (--listen), and runs its part of the protocol "
                  "when Charlie (`dpstudio-cli curator --parties host:port,..`) connects. It ends having published "
                  "its additive share of the release; Charlie publishes the released model. Neither its rows, its "
                  "size nor its model leave this process in the clear.",
                  "");
  command.addTrainingDataOptions();
  addPartyOptions(command.parser());
  addNoiseOptions(command.parser());
  addNetworkOptions(command.parser());
  int exitCode = 0;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QCommandLineParser& parser = command.parser();
  for (const char* required : {"listen", "party", "of", "train"})
    if (!parser.isSet(required)) return command.fail(usage(std::string("--") + required + " is required", required));
  if (parser.isSet("multiparty-baseline"))
    return command.fail(usage("the all-data baseline needs the data pooled: not available to a party", "multiparty-baseline"));
  auto port = command.integer("listen", 0, 0);
  if (!port) return command.fail(port.error());
  if (port.value() > 65535) return command.fail(usage("must be a TCP port, 0..65535", "listen"));
  auto K = command.integer("of", 0, 1);
  if (!K) return command.fail(K.error());
  if (K.value() > kMaxParties) return command.fail(usage("at most 1000 parties", "of"));
  auto J = command.integer("party", 0, 1);
  if (!J) return command.fail(J.error());
  if (J.value() > K.value())
    return command.fail(usage("--party " + std::to_string(J.value()) + " of --of " + std::to_string(K.value()), "party"));
  auto options = multipartyOptions(command);
  if (!options) return command.fail(options.error());
  auto network = networkOptions(command);
  if (!network) return command.fail(network.error());
  auto noiseSpec = noiseChoice(command);
  if (!noiseSpec) return command.fail(noiseSpec.error());
  const auto self = static_cast<std::uint32_t>(J.value());
  auto noise = partyNoise(noiseSpec.value(), self);
  if (!noise) return command.fail(noise.error());
  const bool seeded = noiseSpec.value().kind == privacy::NoiseKind::Experiment;
  const std::string noiseDescription =
      seeded ? "experiment (seed " + std::to_string(noiseSpec.value().seed) + ", P" + std::to_string(self) + "'s stream)"
             : noise.value()->provenance().describe();
  const QString listenAddress = parser.value("listen-address").trimmed();
  if (QHostAddress(listenAddress).isNull())
    return command.fail(usage("--listen-address '" + listenAddress.toStdString() +
                                  "' is not an IP address (e.g. 127.0.0.1, 0.0.0.0)",
                              "listen-address"));

  auto request = command.dataRequest();
  if (!request) return command.fail(request.error());
  auto prepared = prepareData(request.value());
  if (!prepared) return command.fail(prepared.error());
  auto local = localModel(options.value(), prepared.value().train, self, parser.isSet("party-split"));
  if (!local) return command.fail(local.error());

  multiparty::paillier::PartyProcess process;
  process.self = self;
  process.settings.options = options.value();
  process.settings.parties = static_cast<int>(K.value());
  process.settings.features = local.value().w.size();
  process.local = std::move(local).value();
  process.noise = std::move(noise).value();
  process.noiseDescription = noiseDescription;
  process.listenAddress = listenAddress.toStdString();
  process.port = static_cast<std::uint16_t>(port.value());
  process.listening = [](std::uint16_t bound) {
    printText(QString::number(bound));
    std::fflush(stdout);
  };
  process.joined = [self, &command] {
    if (!command.json()) {
      printText(QString("P%1 joined the session: every connection is up").arg(self));
      std::fflush(stdout);
    }
  };
  const auto outcome = multiparty::paillier::runPartyProcess(std::move(process), network.value());
  if (auto written = writeOwnTranscript(command, *outcome.transcript); !written && !outcome.error)
    return command.fail(written.error());
  if (outcome.error) return command.fail(*outcome.error);
  const QString transcript = parser.isSet("transcript") ? parser.value("transcript") : QString();
  if (command.json()) {
    command.printJson(QJsonObject{
        {"party", static_cast<qint64>(self)},
        {"parties", static_cast<qint64>(K.value())},
        {"outcome", "published its share; Charlie publishes the release"},
        {"noise_source", QString::fromStdString(noiseDescription) +
                             (seeded ? QString(": ") + multiparty::paillier::kExperimentNotPrivate : QString())},
        {"messages_sent", static_cast<qint64>(outcome.transcript->entries().size())},
        {"bytes_sent", static_cast<qint64>(outcome.transcript->totalBytes())},
        {"transcript", transcript.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(transcript)},
    });
    return kOk;
  }
  printText(QString("P%1 published its share of the release (%2 messages, %3 bytes sent%4); Charlie publishes the "
                    "released model")
                .arg(self)
                .arg(outcome.transcript->entries().size())
                .arg(outcome.transcript->totalBytes())
                .arg(transcript.isEmpty() ? QString() : "; transcript " + transcript));
  printText(QString("noise           %1%2")
                .arg(QString::fromStdString(noiseDescription))
                .arg(seeded ? QString("  (") + multiparty::paillier::kExperimentNotPrivate + ")" : QString()));
  return kOk;
}

}  // namespace dpstudio::cli
