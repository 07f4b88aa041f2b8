#pragma once
// Paper 004's privacy-preserving protocol (§3.2; ALGORITHMS §3 I "Protocol") as an
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
};

class PaillierProtocol final : public AggregationProtocol {
 public:
  explicit PaillierProtocol(PaillierProtocolSettings settings = {});
  std::string name() const override;
  // The release, with the transcript's JSON in transcriptJson. On abort: the error.
  Result<AggregateRelease> release(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                   privacy::NoiseSource& noise) const override;

  struct Run {
    std::optional<Error> error;
    AggregateRelease release;
    std::shared_ptr<paillier::ProtocolTranscript> transcript;
    int selectedParty = 0;                // simulation's view
    std::vector<std::string> aborted;     // participants that stopped, on abort
  };
  // As release(), keeping the transcript object (tests, benchmark).
  Run run(const std::vector<LocalModel>& locals, const MultipartyOptions& options, privacy::NoiseSource& noise) const;

 private:
  PaillierProtocolSettings settings_;
};

}  // namespace dpstudio::multiparty
