#pragma once
// How the perturbed average of the parties' local models is produced (docs/algorithms.md §3 I).
//
// The aggregation is an interface so that the protocol that computes it can change without
// touching the rest: a trusted curator that sees every local model in the clear, or paper
// 004's protocol (§3.2; paillier_aggregation.h), in which the parties find the smallest party obliviously, the
// smallest party's noise is selected under Paillier encryption and the curator and the
// parties end with additive shares of K·ŵ_s. A protocol receives the local models (each
// party's own minimizer and row count) and a noise source, and returns the release ŵ + η
// with the calibration it applied; it calibrates through calibrateMultiparty() with the
// n_(1) it determined, so every protocol releases the same distribution.

#include <string>
#include <vector>

#include "core/prediction/multiparty_options.h"
#include "core/util/progress.h"

namespace dpstudio::multiparty {

// What party j holds after local training (private to the party).
struct LocalModel {
  Eigen::VectorXd w;  // the exact minimizer of J_j
  Index rows = 0;     // n_j
};

struct AggregateRelease {
  Eigen::VectorXd released;     // ŵ + η (release mode: rounded to the documented grid)
  mech::MechanismReport report; // the calibration applied, with the noise norm drawn
  std::string transcriptJson;   // the protocol's message transcript as JSON; empty when it has none
};

class AggregationProtocol {
 public:
  virtual ~AggregationProtocol() = default;
  virtual std::string name() const = 0;  // for reports: "trusted curator", …
  // ŵ + η for validated locals (≥ 1 party, equal lengths, rows ≥ 1, finite). Must use
  // calibrateMultiparty() and mech::drawReportedNoise() so the released law is the specified one.
  // Thread-safety: const and stateless, callable from several threads with their own sources.
  // progress: how far the protocol is, and its stop token (a long protocol stops between
  // steps with ErrorKind::Cancelled, releasing nothing).
  virtual Result<AggregateRelease> release(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                           privacy::NoiseSource& noise, const Progress& progress = {}) const = 0;
};

// The baseline protocol: one trusted party averages the local models in the clear and adds
// the noise calibrated for the smallest party's size.
class TrustedCurator final : public AggregationProtocol {
 public:
  std::string name() const override { return "trusted curator (local models seen in the clear)"; }
  Result<AggregateRelease> release(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                   privacy::NoiseSource& noise, const Progress& progress = {}) const override;
};

// Validates the locals, runs the protocol, and in release mode rounds the released vector
// (post-processing; release_granularity.h). The report's noise_source names the source and
// its formulas name the protocol.
Result<AggregateRelease> aggregate(const std::vector<LocalModel>& locals, const MultipartyOptions& options,
                                   const AggregationProtocol& protocol, privacy::NoiseSource& noise,
                                   const Progress& progress = {});

// The noise-free average ŵ = (1/K)Σ ŵ_j (NOT private: for the bound of Theorem 4.2 and tests).
Eigen::VectorXd plainAverage(const std::vector<LocalModel>& locals);

}  // namespace dpstudio::multiparty
