#include "core/prediction/paillier/tls/network_participant.h"

#include <algorithm>
#include <charconv>

#include "core/prediction/paillier/protocol_curator.h"
#include "core/prediction/paillier/protocol_party.h"
#include "core/prediction/paillier/protocol_schedule.h"
#include "core/prediction/paillier/tls/link_frames.h"
#include "core/prediction/paillier/tls/tls_network.h"
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
  auto network = TlsNetwork::listenAsParty(process.self, settings.parties, process.port, options.tls,
                                           options.timeoutSeconds, *out.transcript);
  if (!network) {
    out.error = network.error();
    out.transcript->setOutcome("aborted: " + network.error().message);
    return out;
  }
  TlsNetwork& net = *network.value();
  if (process.listening) process.listening(net.port());
  ProtocolParty party(process.self, settings, std::move(process.local), std::move(process.noise));
  // The party knows the session's parameters already: Charlie's first messages may arrive
  // while it still waits for the other parties to connect.
  net.setFrameLimit(std::max(kSetupFrameLimit, frameLimit(settings.keyBits, settings.parties, settings.features)));
  Status status = net.joinSession(sessionParametersText(settings));
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
  auto announced = net.openSession();
  Result<std::map<std::string, std::string>> agreed =
      announced ? agreedParameters(announced.value()) : Result<std::map<std::string, std::string>>(announced.error());
  SessionSettings settings;
  settings.parties = K;
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
    }
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
  out.parameters = agreed.value();
  out.released = std::move(here.released);
  out.transcript->setOutcome("released");
  return out;
}

}  // namespace dpstudio::multiparty::paillier
