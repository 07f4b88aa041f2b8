#pragma once
// Stage 3's "simple secure function evaluation" (paper 004 §3.2, ref. [13]), for a sum: each
// of the K + 1 participants holds a vector V_X mod n' with Σ_X V_X = K·ŵ_s (fixed point).
// Each splits V_X into K + 1 uniformly random shares, sends one to every other participant
// and keeps one; each then adds what it kept and what it received, and publishes that. The
// published shares are uniform and independent except that they sum to K·ŵ_s: publishing
// them reveals the release and nothing else (in particular not ŵ_j, η or s).

#include "core/crypto/secure_random.h"
#include "core/prediction/paillier/protocol_network.h"

namespace dpstudio::multiparty::paillier {

class AdditiveResharing {
 public:
  // participants = K + 1 (ids 0..K); the public board is id K + 1.
  AdditiveResharing(std::uint32_t self, int participants, mpz_class modulus, unsigned keyBits);

  // Sends a random share of `value` to every other participant; keeps the rest.
  void sendShares(ProtocolNetwork& network, const std::vector<mpz_class>& value, crypto::RandomBytes& random);
  // Receives every other participant's share, adds them to the kept one, publishes the sum.
  Status receiveAndPublish(ProtocolNetwork& network);
  void wipe() { kept_.clear(); }

 private:
  std::uint32_t self_;
  int participants_;
  mpz_class modulus_;
  unsigned keyBits_;
  std::vector<mpz_class> kept_;
};

}  // namespace dpstudio::multiparty::paillier
