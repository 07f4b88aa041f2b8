#pragma once
// The order of paper 004's protocol (§3.2) as data: one list of steps, each run by one
// participant (Charlie, a party, or the public board). It is the single source of truth
// for the order: the in-process session (paillier_session.h) runs every step; a process that
// hosts one participant (tls/network_participant.h) runs exactly the steps whose actor it
// hosts, in the same order, and blocks in receive() where the in-process run found the
// message already queued. Because every step only sends, or receives what earlier steps
// sent, the per-participant subsequences cannot deadlock.

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

#include "core/prediction/paillier/protocol_curator.h"
#include "core/prediction/paillier/protocol_party.h"
#include "core/prediction/paillier/protocol_transcript.h"
#include "core/util/progress.h"

namespace dpstudio::multiparty::paillier {

// The participants this process holds; the others are reached through the network.
struct HostedParticipants {
  ProtocolCurator* curator = nullptr;   // Charlie; the public board lives with him
  std::vector<ProtocolParty*> parties;  // parties[j − 1] is P_j, null when elsewhere (size K)
  Eigen::VectorXd released;             // what the board summed, after its step

  bool hosts(std::uint32_t participant) const;  // 0 Charlie, 1..K parties, K + 1 the board
};

struct ProtocolStep {
  std::string stage;        // messageStage(...) of the messages it handles
  std::uint32_t actor = 0;  // who runs it: 0 Charlie, 1..K a party, K + 1 the public board
  std::function<Status(HostedParticipants&, ProtocolNetwork&)> run;
};

// Every step of one run with settings.parties parties, in the paper's order.
std::vector<ProtocolStep> protocolSchedule(const SessionSettings& settings);

// Runs, in order, the steps whose actor `here` hosts, timing each under its stage in
// `transcript`; stops at the first failure and returns it. progress: the fraction of the
// hosted steps done, after each; a stop request ends the run before the next step
// (ErrorKind::Cancelled), which the caller aborts like any failure.
Status runHostedSteps(const std::vector<ProtocolStep>& schedule, HostedParticipants& here, ProtocolNetwork& network,
                      ProtocolTranscript& transcript, const Progress& progress = {});

}  // namespace dpstudio::multiparty::paillier
