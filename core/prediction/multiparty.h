#pragma once
// I. Multiparty aggregation, end to end (docs/algorithms.md §3 I; paper 004 §3, §4.2, Figure 2):
// split the training rows among K simulated parties, train each party's exact local
// minimizer (in parallel, cancellable), release the perturbed average through an
// AggregationProtocol (aggregation.h), and compute what paper 004's Figure 2 compares it
// with: the all-data minimizer w* ("all data, non-private") and its output perturbation
// ("all data, DP"), plus ‖ŵ − w*‖ beside Theorem 4.2's bound (K−1)/(n_(1)λ).
//
// Same λ convention everywhere: J(w) = (1/n)Σℓ + λ‖w‖² for the parties and for w*. The
// all-data DP baseline is the same mechanism with one party (K = 1, n_(1) = n): corrected
// w* + ℓ2-Laplace(ε·nλ, d) (Δ = 1/(nλ)), as published w* + Laplace(2/(nελ)) per coordinate.
// It is a separate release with its own ε (it needs the data pooled — the point of the paper
// is that the parties cannot do that), so it is drawn only when options.allDataBaseline asks
// for it, and whoever records releases must record it as a second entry.
//
// Noise order (experiment mode replays it): η of the aggregate, then the baseline's noise.
// Requirements: binary labels, rows with ‖x‖ ≤ 1.

#include <optional>
#include <vector>

#include "core/prediction/aggregation.h"
#include "core/prediction/part_training.h"

namespace dpstudio::multiparty {

// The parties' rows: partySizes() blocks of a permutation seeded by options.partitionSeed.
Result<predict::RowParts> partyRows(Index n, const MultipartyOptions& options);

// Each party's minimizer of J_j to the gradient tolerance localGradientTolerance() (else an
// error: the calibration assumed it), trained in parallel; progress 0 → 1 as parties
// finish; cancellation → ErrorKind::Cancelled. Refuses what trainMultiparty refuses: data
// that is not binary, rows beyond the unit ball (rows within its rounding allowance are
// clipped, as every mechanism does).
Result<std::vector<LocalModel>> trainLocalModels(const MultipartyOptions& options, const Dataset& train,
                                                 const predict::RowParts& parties, const TrainControl& control = {});

// The same on the parties' rows of `train` (partyRows): what trainMultiparty aggregates, and
// what a sweep trains once for every repetition of one split (experiment/sweep.h, "Reuse").
Result<std::vector<LocalModel>> trainLocalModels(const MultipartyOptions& options, const Dataset& train,
                                                 const TrainControl& control);

// One party's local model when each party is a process of its own (dpstudio-cli party):
// the minimizer of J_j over the rows `part` of `train`, to the gradient tolerance that
// localGradientTolerance fixes for `smallestParty` rows. With the smallest of the parties'
// sizes it is what trainLocalModels computes for that part; a party that knows only its
// own size passes its own, a tolerance no looser than the calibration assumes.
Result<LocalModel> trainPartyModel(const MultipartyOptions& options, const Dataset& train, const std::vector<Index>& part,
                                   Index smallestParty, const TrainControl& control = {});

// The exact all-data minimizer w* of (1/n)Σℓ + λ‖w‖².
Result<Eigen::VectorXd> trainAllData(const MultipartyOptions& options, const Dataset& train,
                                     const TrainControl& control = {});

struct MultipartyResult {
  TrainedModel released;          // the release ŵ + η as a binary linear model
  mech::MechanismReport report;   // its calibration, noise drawn, bound, measured distance
  std::vector<Index> partySizes;  // n_j in party order
  // Experiment diagnostics, NOT private (computed from the pooled data or the local models):
  Eigen::VectorXd average;          // ŵ
  Eigen::VectorXd allData;          // w*
  double distance = 0;              // ‖ŵ − w*‖
  double bound = 0;                 // (K−1)/(n_(1)λ)
  // The "all data, DP" baseline, only when options.allDataBaseline: a second release of its
  // own (ε, 0) from the same rows, to be recorded as such.
  struct AllDataRelease {
    Eigen::VectorXd theta;
    mech::MechanismReport report;
  };
  std::optional<AllDataRelease> allDataPrivate;
  std::string transcriptJson;  // the protocol's message transcript (Paillier only; else empty)
};

// trainMultiparty's second half, for local models trained beforehand on `train`
// (trainLocalModels; a sweep shares them between repetitions): the release ŵ + η through
// `protocol`, and, only when `allData` (w*) is given, ‖ŵ − w*‖ and the all-data DP baseline
// (options.allDataBaseline); without it MultipartyResult::allData stays empty. Noise as
// trainMultiparty's. `clippedRows`: the rows the caller clipped to the unit ball (noted in the
// report).
Result<MultipartyResult> aggregateLocalModels(const MultipartyOptions& options, const Dataset& train,
                                              const std::vector<LocalModel>& locals, const Eigen::VectorXd* allData,
                                              privacy::NoiseSource& noise, const AggregationProtocol& protocol,
                                              const Progress& progress = {}, Index clippedRows = 0);

// The whole experiment on `train`. `protocol` defaults to the one options.protocol names (the
// Paillier protocol with 2048-bit keys, or the TrustedCurator). Progress: the
// parties take 0 → 0.8, the all-data model 0.8 → 1.
Result<MultipartyResult> trainMultiparty(const MultipartyOptions& options, const Dataset& train,
                                         privacy::NoiseSource& noise, const TrainControl& control = {},
                                         const AggregationProtocol* protocol = nullptr);

}  // namespace dpstudio::multiparty
