#include "core/prediction/paillier/paillier_session.h"

#include "core/prediction/paillier/protocol_curator.h"
#include "core/prediction/paillier/protocol_party.h"
#include "core/prediction/paillier/protocol_schedule.h"

namespace dpstudio::multiparty::paillier {
namespace {

std::uint64_t freshSessionId() {
  crypto::OsRandom random;
  return crypto::randomBits(random, 64).get_ui();
}

}  // namespace

SessionOutcome runPaillierSession(const SessionSettings& settings, const std::vector<LocalModel>& locals,
                                  std::vector<std::unique_ptr<privacy::NoiseSource>> partyNoise, Tamper tamper,
                                  const Progress& progress) {
  SessionOutcome outcome;
  outcome.transcript = std::make_shared<ProtocolTranscript>(settings.keyBits, settings.parties);
  LoopbackNetwork network(freshSessionId(), *outcome.transcript, std::move(tamper));
  const int K = settings.parties;
  ProtocolCurator curator(settings);
  std::vector<std::unique_ptr<ProtocolParty>> parties;
  for (int j = 1; j <= K; ++j)
    parties.push_back(std::make_unique<ProtocolParty>(static_cast<std::uint32_t>(j), settings,
                                                      locals[static_cast<std::size_t>(j - 1)],
                                                      std::move(partyNoise[static_cast<std::size_t>(j - 1)])));

  // Every participant is here: the whole schedule runs, in the paper's order.
  HostedParticipants here;
  here.curator = &curator;
  for (auto& party : parties) here.parties.push_back(party.get());
  Status failure = runHostedSteps(protocolSchedule(settings), here, network, *outcome.transcript, progress);
  if (failure) failure = network.checkDrained();

  if (!failure) {
    const std::string reason = "the Paillier aggregation protocol aborted: " + failure.error().message +
                               "; every participant stopped and discarded its secrets, nothing was released";
    curator.abort(reason);
    outcome.aborted.push_back("Charlie");
    for (int j = 1; j <= K; ++j) {
      parties[static_cast<std::size_t>(j - 1)]->abort(reason);
      outcome.aborted.push_back("P" + std::to_string(j));
    }
    outcome.transcript->setOutcome("aborted: " + failure.error().message);
    Error error = failure.error();
    error.message = reason;
    outcome.error = error;
    return outcome;
  }
  outcome.released = std::move(here.released);
  const std::size_t position = curator.selectedPosition();
  for (int j = 1; j <= K; ++j)
    if (parties[static_cast<std::size_t>(j - 1)]->position() == position) {
      const ProtocolParty& selected = *parties[static_cast<std::size_t>(j - 1)];
      outcome.selectedParty = j;
      outcome.calibration = selected.calibration();
      outcome.noiseNorm = selected.noiseNorm();
      outcome.selectedNoise = selected.noiseDrawn();
    }
  outcome.transcript->setOutcome("released");
  return outcome;
}

}  // namespace dpstudio::multiparty::paillier
