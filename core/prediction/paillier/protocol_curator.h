#pragma once
// The untrusted curator Charlie of paper 004's protocol (§3.2). He holds the key ζ, blinds
// and permutes the parties' size shares, learns the order of the sizes of slots whose owners
// he cannot identify (DGK comparisons), builds the encrypted indicator of the smallest slot,
// and ends with a share of K·ŵ_s. He never sees n_j, ŵ_j or η in the clear.

#include <optional>

#include "core/prediction/paillier/additive_resharing.h"
#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {

class ProtocolCurator {
 public:
  explicit ProtocolCurator(const SessionSettings& settings);

  Status createKey(ProtocolNetwork& network);  // ζ: pk' to every party
  Status receivePartiesPublicKey(ProtocolNetwork& network);
  // Stage 1.4: receive ξ(a'_i), ζ(b'_i) from every position; ã = π2(a' + r) to the parties,
  // b̃ = π2(b' − r) kept.
  Status blindAndPermute(ProtocolNetwork& network);
  // Stage 1.6: compare the current smallest slot with slot k (2..K), evaluated by P_k.
  Status requestComparison(ProtocolNetwork& network, std::uint32_t slot);
  Status finishComparison(ProtocolNetwork& network, std::uint32_t slot);
  // Stage 2.1: ζ(π2⁻¹(u)) to every party.
  Status sendSelection(ProtocolNetwork& network);
  // Stage 3.2: η + s from P1; Charlie's value is K·(η + s).
  Status receiveBlindedNoise(ProtocolNetwork& network);
  Status sendReshares(ProtocolNetwork& network);
  Status publishShare(ProtocolNetwork& network);

  void abort(const std::string& reason);
  const std::optional<std::string>& abortReason() const { return abortReason_; }

  // The simulation's view: the position (in π1 order) Charlie selected as the smallest.
  std::size_t selectedPosition() const { return permutation_.at(smallestSlot_ - 1); }
  const crypto::PaillierPublicKey& publicKey() const { return key_->publicKey; }

 private:
  SessionSettings settings_;
  crypto::OsRandom random_;
  std::optional<crypto::PaillierPrivateKey> key_;
  crypto::PaillierPublicKey partiesKey_;
  std::vector<std::size_t> permutation_;  // π2: slot k holds position permutation_[k − 1]
  std::vector<mpz_class> blindedB_;       // b̃, by slot
  std::uint32_t smallestSlot_ = 1;
  std::vector<mpz_class> value_;          // K·(η + s)
  std::optional<AdditiveResharing> resharing_;
  std::optional<std::string> abortReason_;
};

}  // namespace dpstudio::multiparty::paillier
