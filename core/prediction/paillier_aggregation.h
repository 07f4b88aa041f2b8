#pragma once
// Paper 004's privacy-preserving protocol (§3.2; docs/algorithms.md §3 I "Protocol") as an
// AggregationProtocol: the K parties and an untrusted curator, with Paillier encryption
// (core/crypto), find the smallest party by additive sharing, blind-and-permute and DGK
// comparisons, select that party's noise obliviously, and end with additive shares of K·ŵ_s,
// which are published and summed. Runs in one process (paillier/paillier_session.h); every
// message is serialized and recorded in a transcript.
//
// The released law is the trusted curator's: party j calibrates its own η_j with
// calibrateMultiparty(options, n_j, d) and draws it with mech::drawReportedNoise from its own
// noise source, and the protocol adds the smallest party's, so the release is
// ŵ + η_(1) with η_(1) calibrated for n_(1), exactly as TrustedCurator, up to the fixed-point
// resolution (2^-40 per encoded value). Both calibrations (corrected ℓ2-Laplace, as
// published per-coordinate Laplace) run through it unchanged.
//
// The report: no participant learns n_(1), the selected index or ‖η‖. The simulation running
// all of them does: the report is the selected party's own calibration and the norm of its
// own draw, and the release is refused (Internal error) if the selected party is not one of
// the smallest, or if the release minus ŵ is not that party's draw (to 1e-9 relative) — a
// protocol bug must not become a wrongly calibrated release.
//
// Where the paper's text leaves a choice or would leak, what this implementation does
// (paillier/protocol_party.h, protocol_curator.h follow it step by step):
//  - "The parties mutually agree on π1" and "generate a key pair (pk, sk)": P1 draws both
//    and sends them to the other parties (the transcript marks sk as parties-only).
//  - Stage 1.2 "sends its share b_j to Charlie with the index changed": a message from P_j
//    at position π1(j) would show Charlie π1. Instead P_j sends ζ(b_j) (under Charlie's key,
//    which is therefore created at setup rather than in stage 2) with a_j to P_π1(j), who
//    forwards it re-randomized: Charlie receives position i's share from P_i.
//  - Stage 1.6 "for each (i, j) pair": the minimum needs only K − 1 comparisons (a linear
//    scan that Charlie drives), which also reveals fewer order bits to him. The comparison
//    of slots m and k is DGK (core/crypto/dgk_comparison.h) between P_k, holding
//    ã_m − ã_k (the parties exchange their ã, which Charlie's r hides statistically), and
//    Charlie, holding b̃_k − b̃_m; Charlie learns [n_m ≤ n_k]. Ties keep the earlier slot.
//  - Stage 2.4: P2..PK send ψ_j to P1, who multiplies them (re-randomized, under ζ).
//  - Stage 3.1: s is uniform mod n', so η + s mod n' is exactly uniform for Charlie.
//  - Stage 3.3 (the "simple secure function evaluation"): additive resharing mod n' among
//    the K + 1 participants (paillier/additive_resharing.h); the K + 1 published shares sum
//    to K·ŵ_s.
//  - Sizes: a_j has 96 bits, r_i 136 bits (statistical hiding 2^-40), the comparisons 140.
//
// Each party's noise source: by default, in experiment mode, party j's stream is
// ExperimentNoise(seed, j) with `seed` one draw from the run's source (so a run replays from
// its seed); in release mode each party gets its own OS-CSPRNG source.

#include <functional>
#include <memory>

#include "core/crypto/paillier.h"
#include "core/prediction/aggregation.h"
#include "core/prediction/paillier/loopback_network.h"

namespace dpstudio::multiparty {

using PartyNoiseFactory = std::function<Result<std::unique_ptr<privacy::NoiseSource>>(privacy::NoiseSource& run, int party)>;

struct PaillierProtocolSettings {
  unsigned keyBits = crypto::kMinimumKeyBits;  // both keys (the parties' ξ and Charlie's ζ)
  crypto::KeyStrength strength = crypto::KeyStrength::Production;  // TestOnlyShort: tests only
  PartyNoiseFactory partyNoise;        // empty: the default described above
  paillier::Tamper tamper;             // tests only: alter messages in flight
  // Called with the transcript's JSON when the protocol aborted (a release carries it in
  // AggregateRelease::transcriptJson instead): what the CLI's --transcript writes then.
  std::function<void(const std::string& transcriptJson)> abortedTranscript;
};

class PaillierProtocol final : public AggregationProtocol {
 public:
  explicit PaillierProtocol(PaillierProtocolSettings settings = {});
  std::string name() const override;
  // The release, with the transcript's JSON in transcriptJson. On abort: the error.
  Result<AggregateRelease> release(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                   privacy::NoiseSource& noise, const Progress& progress = {}) const override;

  struct Run {
    std::optional<Error> error;
    AggregateRelease release;
    std::shared_ptr<paillier::ProtocolTranscript> transcript;
    int selectedParty = 0;                // simulation's view
    std::vector<std::string> aborted;     // participants that stopped, on abort
  };
  // As release(), keeping the transcript object (tests, benchmark).
  Run run(const std::vector<LocalModel>& locals, const MultipartyOptions& options, privacy::NoiseSource& noise,
          const Progress& progress = {}) const;

 private:
  PaillierProtocolSettings settings_;
};

}  // namespace dpstudio::multiparty
