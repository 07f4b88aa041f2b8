#pragma once
// The public board of paper 004's protocol (participant K + 1): the K + 1 final shares of
// K·ŵ_s are published to it, and anyone can sum them (mod Charlie's n') and divide by K to get
// the release ŵ + η_s. In one process the session plays it; over the network Charlie's
// process hosts it and publishes the released model (tls/network_participant.h).

#include <Eigen/Core>

#include "core/crypto/paillier.h"
#include "core/prediction/paillier/protocol_network.h"
#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {

// The board's id for K parties.
inline std::uint32_t publicBoardId(int parties) { return static_cast<std::uint32_t>(parties) + 1; }

// Receives the K + 1 published shares and returns their sum / K, decoded from fixed point.
Result<Eigen::VectorXd> collectPublishedRelease(ProtocolNetwork& network, const SessionSettings& settings,
                                                const crypto::PaillierPublicKey& curatorKey);

}  // namespace dpstudio::multiparty::paillier
