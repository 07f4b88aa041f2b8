#include "core/prediction/paillier/protocol_schedule.h"

#include <chrono>

#include "core/prediction/paillier/public_board.h"

namespace dpstudio::multiparty::paillier {

bool HostedParticipants::hosts(std::uint32_t participant) const {
  if (participant == kCurator || participant == publicBoardId(static_cast<int>(parties.size()))) return curator != nullptr;
  return participant <= parties.size() && parties[participant - 1] != nullptr;
}

std::vector<ProtocolStep> protocolSchedule(const SessionSettings& settings) {
  const int K = settings.parties;
  const std::string setup = messageStage(MessageKind::CuratorPublicKey);
  const std::string blind = messageStage(MessageKind::SizeShare);
  const std::string compare = messageStage(MessageKind::ComparisonRequest);
  const std::string select = messageStage(MessageKind::SelectionVector);
  const std::string share = messageStage(MessageKind::Reshare);
  const std::string publish = messageStage(MessageKind::PublishedShare);

  std::vector<ProtocolStep> steps;
  using PartyAction = Status (ProtocolParty::*)(ProtocolNetwork&);
  using CuratorAction = Status (ProtocolCurator::*)(ProtocolNetwork&);
  auto curator = [&](const std::string& stage, CuratorAction action) {
    steps.push_back({stage, kCurator, [action](HostedParticipants& h, ProtocolNetwork& n) { return (h.curator->*action)(n); }});
  };
  auto party = [&](const std::string& stage, std::uint32_t j, PartyAction action) {
    steps.push_back({stage, j, [j, action](HostedParticipants& h, ProtocolNetwork& n) { return (h.parties[j - 1]->*action)(n); }});
  };
  auto everyParty = [&](const std::string& stage, PartyAction action) {
    for (int j = 1; j <= K; ++j) party(stage, static_cast<std::uint32_t>(j), action);
  };

  curator(setup, &ProtocolCurator::createKey);
  everyParty(setup, &ProtocolParty::receiveCuratorKey);
  party(setup, 1, &ProtocolParty::createPartiesKeyAndPermutation);
  for (int j = 2; j <= K; ++j) party(setup, static_cast<std::uint32_t>(j), &ProtocolParty::receivePartiesKeyAndPermutation);
  curator(setup, &ProtocolCurator::receivePartiesPublicKey);
  everyParty(blind, &ProtocolParty::sendSizeShares);
  everyParty(blind, &ProtocolParty::sendPositionShares);
  curator(blind, &ProtocolCurator::blindAndPermute);
  everyParty(blind, &ProtocolParty::receiveBlindedShare);
  everyParty(blind, &ProtocolParty::receiveBlindedShareBroadcasts);
  // Charlie scans the slots for the smallest: slot k's comparison is evaluated by P_k.
  for (int k = 2; k <= K; ++k) {
    const auto slot = static_cast<std::uint32_t>(k);
    steps.push_back({compare, kCurator, [slot](HostedParticipants& h, ProtocolNetwork& n) {
                       return h.curator->requestComparison(n, slot);
                     }});
    party(compare, slot, &ProtocolParty::answerComparison);
    steps.push_back({compare, kCurator, [slot](HostedParticipants& h, ProtocolNetwork& n) {
                       return h.curator->finishComparison(n, slot);
                     }});
  }
  curator(select, &ProtocolCurator::sendSelection);
  everyParty(select, &ProtocolParty::contributeNoise);
  party(share, 1, &ProtocolParty::sendBlindedNoise);
  curator(share, &ProtocolCurator::receiveBlindedNoise);
  curator(share, &ProtocolCurator::sendReshares);
  everyParty(share, &ProtocolParty::sendReshares);
  curator(publish, &ProtocolCurator::publishShare);
  everyParty(publish, &ProtocolParty::publishShare);
  steps.push_back({publish, publicBoardId(K), [settings](HostedParticipants& h, ProtocolNetwork& n) -> Status {
                     auto released = collectPublishedRelease(n, settings, h.curator->publicKey());
                     if (!released) return released.error();
                     h.released = std::move(released).value();
                     return Ok{};
                   }});
  return steps;
}

Status runHostedSteps(const std::vector<ProtocolStep>& schedule, HostedParticipants& here, ProtocolNetwork& network,
                      ProtocolTranscript& transcript, const Progress& progress) {
  std::size_t hosted = 0, done = 0;
  for (const ProtocolStep& step : schedule) hosted += here.hosts(step.actor) ? 1 : 0;
  for (const ProtocolStep& step : schedule) {
    if (!here.hosts(step.actor)) continue;
    if (progress.cancelled())
      return Error{ErrorKind::Cancelled, "cancelled before the step of " + step.stage, {}, 0, "protocol"};
    const auto start = std::chrono::steady_clock::now();
    Status status = step.run(here, network);
    transcript.addStageTime(step.stage, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!status) return status;
    progress.report(static_cast<double>(++done) / static_cast<double>(hosted));
  }
  return Ok{};
}

}  // namespace dpstudio::multiparty::paillier
