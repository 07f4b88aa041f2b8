#pragma once
// Party P_j of paper 004's protocol (§3.2): holds its local model ŵ_j and its size n_j,
// which never leave it in the clear. Each method is one step of the protocol (the
// coordinator, paillier_session.h, calls them in order); each reads the messages the step
// needs from the network, checks them, and sends its own.

#include <memory>
#include <optional>

#include "core/prediction/aggregation.h"
#include "core/prediction/paillier/additive_resharing.h"
#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {

class ProtocolParty {
 public:
  // id j in 1..K. `noise` is the party's own noise source (its η_j is drawn from it).
  ProtocolParty(std::uint32_t id, const SessionSettings& settings, LocalModel local,
                std::unique_ptr<privacy::NoiseSource> noise);

  Status receiveCuratorKey(ProtocolNetwork& network);
  // P1 only: generates the parties' key ξ and π1 and sends them (sk to the parties only).
  Status createPartiesKeyAndPermutation(ProtocolNetwork& network);
  // P2..PK: receive ξ's key pair and π1 from P1.
  Status receivePartiesKeyAndPermutation(ProtocolNetwork& network);
  // Stage 1.1–2: n_j = a_j + b_j; a_j and ζ(b_j) to P_π1(j).
  Status sendSizeShares(ProtocolNetwork& network);
  // Stage 1.2–3: the shares of the party whose position is ours → ξ(a'), ζ(b') to Charlie.
  Status sendPositionShares(ProtocolNetwork& network);
  // Stage 1.5: decrypt ã_j from Charlie and share it with the other parties.
  Status receiveBlindedShare(ProtocolNetwork& network);
  Status receiveBlindedShareBroadcasts(ProtocolNetwork& network);
  // Stage 1.6: evaluate one DGK comparison for Charlie (slot m against our slot).
  Status answerComparison(ProtocolNetwork& network);
  // Stage 2.1–3: pick ζ(v_j) from Charlie's vector through π1, draw η_j calibrated for n_j,
  // compute ψ_j = ζ(v_j)^η_j; P2..PK send it to P1.
  Status contributeNoise(ProtocolNetwork& network);
  // Stage 2.4 and 3.1 (P1 only): ψ = Π ψ_j, then ζ(η + s) to Charlie.
  Status sendBlindedNoise(ProtocolNetwork& network);
  // Stage 3.3: P1 holds ŵ_1 − K·s, the others ŵ_j; reshare, then publish.
  Status sendReshares(ProtocolNetwork& network);
  Status publishShare(ProtocolNetwork& network);

  // Stops and wipes every secret (keys, shares, model, noise).
  void abort(const std::string& reason);
  const std::optional<std::string>& abortReason() const { return abortReason_; }

  // The simulation's view, for the report and the tests (no other participant can see it):
  // the position π1(j) of this party, its noise calibration and the norm of its draw.
  std::size_t position() const { return permutation_.at(id_ - 1); }
  const mech::MechanismReport& calibration() const { return calibration_; }
  double noiseNorm() const { return noiseNorm_; }
  const Eigen::VectorXd& noiseDrawn() const { return noiseDrawn_; }
  Index rows() const { return rows_; }

 private:
  std::uint32_t id_;
  SessionSettings settings_;
  Eigen::VectorXd w_;
  Index rows_;
  std::unique_ptr<privacy::NoiseSource> noise_;
  crypto::OsRandom random_;

  crypto::PaillierPublicKey curatorKey_;
  std::optional<crypto::PaillierPrivateKey> partiesKey_;
  std::vector<std::size_t> permutation_;  // π1: party j's shares go to position permutation_[j-1]
  mpz_class heldShareA_;                  // a' of our position
  crypto::Ciphertext heldShareB_;         // ζ(b') of our position
  std::vector<mpz_class> blinded_;        // ã_1..ã_K (index slot − 1)
  std::vector<crypto::Ciphertext> psi_;   // ψ_j
  std::vector<mpz_class> blindS_;         // P1's s
  mech::MechanismReport calibration_;
  double noiseNorm_ = 0;
  Eigen::VectorXd noiseDrawn_;  // η_j, kept for the simulation's check only
  std::optional<AdditiveResharing> resharing_;
  std::optional<std::string> abortReason_;
};

}  // namespace dpstudio::multiparty::paillier
