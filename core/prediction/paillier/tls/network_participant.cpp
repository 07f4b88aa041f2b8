#include "core/prediction/paillier/tls/network_participant.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/prediction/paillier/protocol_curator.h"
#include "core/prediction/paillier/protocol_party.h"
#include "core/prediction/paillier/protocol_schedule.h"
#include "core/prediction/paillier/tls/link_frames.h"
#include "core/prediction/paillier/tls/tls_network.h"
#include "core/privacy/release_granularity.h"
#include "core/util/number_text.h"

namespace dpstudio::multiparty::paillier {
namespace {

std::map<std::string, std::string> parseParameters(const std::string& text) {
  std::map<std::string, std::string> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(';', at), text.size());
    const std::string item = text.substr(at, end - at);
    const std::size_t equals = item.find('=');
    if (equals != std::string::npos) out[item.substr(0, equals)] = item.substr(equals + 1);
    at = end + 1;
  }
  return out;
}

// A positive count announced by a party, or nullopt.
std::optional<long long> count(const std::string& text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 1) return std::nullopt;
  return value;
}

// A finite number announced by a party (exactNumber's text), or nullopt.
std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The mechanism's options from the agreed parameters (what Charlie needs for the public
// bound of the release grid), or an error naming the first parameter that does not parse.
Result<MultipartyOptions> announcedOptions(const std::map<std::string, std::string>& p, int parties) {
  auto refused = [&](const std::string& key) {
    const auto it = p.find(key);
    return protocolError("Charlie refused to start: the parties announced " + key + "=" +
                         (it == p.end() ? std::string("(nothing)") : it->second));
  };
  auto value = [&](const std::string& key) { return p.count(key) ? p.at(key) : std::string(); };
  MultipartyOptions options;
  options.parties = parties;
  const auto model = parseModelKind(value("model"));
  if (!model) return refused("model");
  options.model = *model;
  const auto huber = number(value("huber")), lambda = number(value("lambda")), epsilon = number(value("epsilon"));
  if (!huber) return refused("huber");
  if (!lambda) return refused("lambda");
  if (!epsilon) return refused("epsilon");
  options.huber = *huber;
  options.lambda = *lambda;
  options.epsilon = *epsilon;
  if (value("calibration") == "corrected") options.calibration = mech::Calibration::Corrected;
  else if (value("calibration") == "published") options.calibration = mech::Calibration::Published;
  else return refused("calibration");
  return options;
}

// The release's noise as the parties announced it: release only if every party's is (nobody
// learns whose noise was selected).
void announcedNoise(const std::vector<PartyHello>& hellos, ProcessOutcome& out) {
  for (const PartyHello& hello : hellos)
    if (hello.noise == privacy::NoiseKind::Experiment) out.seededParties.push_back(hello.party);
  if (out.seededParties.empty()) {
    out.noise = privacy::NoiseKind::Release;
    out.noiseSource = "release (every party drew its noise from its OS CSPRNG)";
    return;
  }
  out.noise = privacy::NoiseKind::Experiment;
  std::string who;
  for (std::uint32_t j : out.seededParties) who += (who.empty() ? "P" : ", P") + std::to_string(j);
  out.noiseSource = "experiment (" +
                    (out.seededParties.size() == hellos.size() ? "every party drew seeded noise"
                                                               : who + " drew seeded noise, which may be the one selected") +
                    "): " + kExperimentNotPrivate;
}

// Every party must have announced the same parameters; the error names the first field on
// which two parties differ.
Result<std::map<std::string, std::string>> agreedParameters(const std::vector<std::string>& announced) {
  const auto first = parseParameters(announced.front());
  for (std::size_t j = 1; j < announced.size(); ++j) {
    const auto other = parseParameters(announced[j]);
    for (const auto& [key, value] : first) {
      const auto it = other.find(key);
      const std::string theirs = it == other.end() ? "(nothing)" : it->second;
      if (theirs != value)
        return protocolError("Charlie refused to start: the parties disagree on '" + key + "': P1 announced " + value +
                             ", P" + std::to_string(j + 1) + " announced " + theirs);
    }
    if (other.size() != first.size())
      return protocolError("Charlie refused to start: P" + std::to_string(j + 1) +
                           " announced other parameters than P1 (" + announced[j] + ")");
  }
  for (const char* needed : {"parties", "features", "key_bits"})
    if (!first.count(needed)) return protocolError(std::string("Charlie refused to start: the parties did not announce '") + needed + "'");
  return first;
}

// What every failed run does: the error says who stopped and why, and promises what the
// participant did (wiped its secrets, told its peers).
Error abortedError(const std::string& self, const Error& cause) {
  Error error = cause;
  error.message = self + " aborted the Paillier protocol: " + cause.message +
                  "; it discarded its secrets and told its peers to stop; nothing was released";
  return error;
}

}  // namespace

std::string sessionParametersText(const SessionSettings& s) {
  return "parties=" + std::to_string(s.parties) + ";features=" + std::to_string(s.features) +
         ";key_bits=" + std::to_string(s.keyBits) + ";model=" + modelKindName(s.options.model) +
         ";huber=" + exactNumber(s.options.huber) + ";lambda=" + exactNumber(s.options.lambda) +
         ";epsilon=" + exactNumber(s.options.epsilon) +
         ";calibration=" + (s.options.calibration == mech::Calibration::Corrected ? "corrected" : "published");
}

ProcessOutcome runPartyProcess(PartyProcess process, const NetworkRunOptions& options) {
  ProcessOutcome out;
  const SessionSettings& settings = process.settings;
  out.transcript = std::make_shared<ProtocolTranscript>(settings.keyBits, settings.parties);
  const std::string self = out.transcript->participantName(process.self);
  const bool seeded = process.noise->kind() == privacy::NoiseKind::Experiment;
  out.transcript->setNoise((process.noiseDescription.empty() ? process.noise->provenance().describe()
                                                              : process.noiseDescription) +
                               (seeded ? std::string(": ") + kExperimentNotPrivate : std::string()),
                           std::nullopt);
  auto network = TlsNetwork::listenAsParty(process.self, settings.parties, process.listenAddress, process.port,
                                           options.tls, options.timeoutSeconds, *out.transcript);
  if (!network) {
    out.error = network.error();
    out.transcript->setOutcome("aborted: " + network.error().message);
    return out;
  }
  TlsNetwork& net = *network.value();
  if (process.listening) process.listening(net.port());
  const privacy::NoiseKind noiseKind = process.noise->kind();
  ProtocolParty party(process.self, settings, std::move(process.local), std::move(process.noise));
  // The party knows the session's parameters already: Charlie's first messages may arrive
  // while it still waits for the other parties to connect.
  net.setFrameLimit(std::max(kSetupFrameLimit, frameLimit(settings.keyBits, settings.parties, settings.features)));
  Status status = net.joinSession(sessionParametersText(settings), noiseKind);
  if (status) {
    if (process.joined) process.joined();
    HostedParticipants here;
    here.parties.assign(static_cast<std::size_t>(settings.parties), nullptr);
    here.parties[process.self - 1] = &party;
    status = runHostedSteps(protocolSchedule(settings), here, net, *out.transcript);
  }
  if (status) status = net.finish();
  if (!status) {
    out.error = abortedError(self, status.error());
    party.abort(out.error->message);
    net.abortAll(status.error().message);
    out.transcript->setOutcome("aborted: " + status.error().message);
    return out;
  }
  out.transcript->setOutcome("released");
  return out;
}

ProcessOutcome runCuratorProcess(const std::vector<std::string>& addresses, const NetworkRunOptions& options,
                                 const std::function<void()>& joined) {
  ProcessOutcome out;
  const int K = static_cast<int>(addresses.size());
  out.transcript = std::make_shared<ProtocolTranscript>(crypto::kMinimumKeyBits, K);
  auto fail = [&](const Error& cause) {
    out.error = abortedError("Charlie", cause);
    out.transcript->setOutcome("aborted: " + cause.message);
    return out;
  };
  auto network = TlsNetwork::connectAsCurator(addresses, options.tls, options.timeoutSeconds, *out.transcript);
  if (!network) return fail(network.error());
  TlsNetwork& net = *network.value();
  auto hellos = net.openSession();
  std::vector<std::string> announced;
  if (hellos)
    for (const PartyHello& hello : hellos.value()) announced.push_back(hello.parameters);
  Result<std::map<std::string, std::string>> agreed =
      hellos ? agreedParameters(announced) : Result<std::map<std::string, std::string>>(hellos.error());
  SessionSettings settings;
  settings.parties = K;
  double gridScale = 0;  // the public bound on the selected party's per-coordinate noise scale
  if (agreed) {
    const auto& p = agreed.value();
    const auto features = count(p.at("features")), keyBits = count(p.at("key_bits")), parties = count(p.at("parties"));
    if (!features || !keyBits || *keyBits > 65536)
      agreed = protocolError("Charlie refused to start: the parties announced features=" + p.at("features") +
                             ", key_bits=" + p.at("key_bits"));
    else if (!parties || *parties != K)
      agreed = protocolError("Charlie refused to start: the parties say K = " + p.at("parties") + ", --parties lists " +
                             std::to_string(K));
    else {
      settings.features = *features;
      settings.keyBits = static_cast<unsigned>(*keyBits);
      auto mechanism = announcedOptions(p, K);
      // The largest noise the public parameters allow: a smallest party of one row.
      auto bound = mechanism ? calibrateMultiparty(mechanism.value(), 1, settings.features)
                             : Result<mech::MechanismReport>(mechanism.error());
      if (!mechanism)
        agreed = mechanism.error();
      else if (!bound)
        agreed = protocolError("Charlie refused to start: the announced parameters are not a valid mechanism: " +
                               bound.error().message);
      else {
        settings.options = mechanism.value();
        gridScale = perCoordinateNoiseScale(bound.value());
      }
    }
  }
  if (agreed) {
    announcedNoise(hellos.value(), out);
    out.transcript->setNoise(out.noiseSource, out.noise == privacy::NoiseKind::Release);
  }
  if (!agreed) {
    net.abortAll(agreed.error().message);
    return fail(agreed.error());
  }
  if (joined) joined();
  out.transcript->setKeyBits(settings.keyBits);
  net.setFrameLimit(frameLimit(settings.keyBits, settings.parties, settings.features));
  ProtocolCurator curator(settings);
  HostedParticipants here;
  here.curator = &curator;
  here.parties.assign(static_cast<std::size_t>(K), nullptr);
  Status status = runHostedSteps(protocolSchedule(settings), here, net, *out.transcript);
  if (status) status = net.finish();
  if (!status) {
    curator.abort(status.error().message);
    net.abortAll(status.error().message);
    return fail(status.error());
  }
  // The release grid, as the one-process path applies it (aggregation.cpp): post-processing.
  auto grid = privacy::applyReleaseGranularity(out.noise, here.released, gridScale);
  if (!grid) {
    net.abortAll(grid.error().message);
    return fail(grid.error());
  }
  out.releaseGranularity = grid.value();
  out.transcript->setReleaseGranularity(out.releaseGranularity);
  out.parameters = agreed.value();
  out.released = std::move(here.released);
  out.transcript->setOutcome("released");
  return out;
}

}  // namespace dpstudio::multiparty::paillier
