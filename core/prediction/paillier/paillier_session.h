#pragma once
// One run of paper 004's protocol (§3.2) in one process: Charlie and the K parties as
// objects that talk only through serialized messages on a LoopbackNetwork, driven step by
// step in the paper's order (protocol_schedule.h, which a process of one participant follows
// too). Any refused message or failed step aborts the run: every participant stops and
// wipes its secrets, and the error names who refused what.

#include <memory>
#include <optional>

#include "core/prediction/aggregation.h"
#include "core/prediction/paillier/loopback_network.h"
#include "core/prediction/paillier/protocol_parameters.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::multiparty::paillier {

struct SessionOutcome {
  std::optional<Error> error;           // set when the run aborted
  std::vector<std::string> aborted;     // the participants that stopped (all of them on abort)
  std::shared_ptr<ProtocolTranscript> transcript;  // every message sent, also on abort
  // On success:
  Eigen::VectorXd released;             // the sum of the published shares / K = ŵ + η_s
  // The simulation's view (no participant knows these): the party whose noise the protocol
  // selected, with that party's own calibration and the norm of its own draw.
  int selectedParty = 0;
  mech::MechanismReport calibration;
  double noiseNorm = 0;
  Eigen::VectorXd selectedNoise;  // that party's η, to check the release against
};

// `partyNoise[j − 1]` is party j's own noise source. `tamper` is for tests.
// progress: reported after each step; a stop request aborts the run before the next one.
SessionOutcome runPaillierSession(const SessionSettings& settings, const std::vector<LocalModel>& locals,
                                  std::vector<std::unique_ptr<privacy::NoiseSource>> partyNoise, Tamper tamper = {},
                                  const Progress& progress = {});

}  // namespace dpstudio::multiparty::paillier
