#pragma once
// I. Multiparty aggregation (docs/algorithms.md §3 I; paper 004, Pathak, Rane & Raj 2010): the
// options, the party sizes and the calibration.
//
// Party j holds n_j rows and trains the exact minimizer ŵ_j of
//     J_j(w) = (1/n_j)Σ ℓ(y wᵀx) + λ‖w‖²        (λ, not λ/2: paper 004 eq. 2),
// i.e. the mean-scale learner of core/learn with λ_learner = 2λ. Its ℓ2-sensitivity is
// 1/(n_j λ) (paper 002 Cor. 1 with Λ = 2λ), so the average ŵ = (1/K)Σ ŵ_j moves by at most
// Δ = 1/(K·n_(1)·λ), n_(1) = min_j n_j.
//  - corrected (default): release ŵ + η, η ~ ℓ2-Laplace(ε/Δ, d): ε-DP.
//  - as published: η_i ~ Laplace(scale 2/(n_(1)ελ)) per coordinate. The paper's proof uses
//    an ℓ1 sensitivity 2/(n_j λ) that the result it cites (an ℓ2 bound) does not give;
//    per-coordinate Laplace needs the ℓ1 sensitivity, up to √d times the ℓ2 one. What can be
//    proven for it is ε·√d·(1 + 1e-4)/(2K)-DP (‖Δŵ‖₁ ≤ √d·Δ, Δ with the slack of the exact
//    minimizer tolerance, exact_minimizer.h): the report gives that number.
// Binary models only (logreg as in the paper, or the Huber SVM: both have |ℓ'| ≤ 1).

#include <cstdint>
#include <string>
#include <vector>

#include "core/learn/learner.h"
#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise.h"

namespace dpstudio::multiparty {

// Who computes the perturbed average (aggregation.h): a trusted curator that sees the local
// models, or paper 004's Paillier protocol (paillier_aggregation.h), in which nobody does.
// Both release the same distribution.
enum class AggregationProtocolKind { TrustedCurator, Paillier };
std::string aggregationProtocolName(AggregationProtocolKind kind);  // "trusted-curator", "paillier"

struct MultipartyOptions {
  ModelKind model = ModelKind::LogisticRegression;  // logreg or huber
  double huber = 0.5;      // h, Huber only
  double lambda = 1.0;     // λ of λ‖w‖² (paper 004 uses λ = 1 on UCI Adult), finite > 0
  double epsilon = 1.0;    // finite > 0; the release is (ε, 0)-DP
  Index parties = 5;       // K ≥ 1 (when fractions are given, K = their count)
  // Empty: an even split (sizes differ by at most one row). Otherwise K fractions, each > 0,
  // summing to 1 (±1e-6), e.g. paper 004's {0.15, 0.2, 0.2, 0.2, 0.25}.
  std::vector<double> fractions;
  mech::Calibration calibration = mech::Calibration::Corrected;
  std::uint64_t partitionSeed = 1;  // the seeded, data-independent assignment of rows to parties
  // Also draw paper 004's "all data, DP" baseline (the same mechanism with one party holding
  // every row). It is a SECOND ε-DP release from the same rows, so the experiment costs 2ε:
  // off unless asked for, and recorded as its own release when drawn.
  bool allDataBaseline = false;
  AggregationProtocolKind protocol = AggregationProtocolKind::TrustedCurator;

  Index partyCount() const { return fractions.empty() ? parties : static_cast<Index>(fractions.size()); }
  // The learner each party runs: mean scale with λ_learner = 2λ.
  LearnerSpec localLearner() const;
  Status validate() const;
  bool operator==(const MultipartyOptions&) const = default;
};

// n_j for n rows: ⌊f_j·n⌋ plus the leftover rows one each to the largest remainders (ties to
// the lower index); even split: f_j = 1/K. Σ n_j = n. Each n_j must be ≥ 1.
Result<std::vector<Index>> partySizes(Index n, const MultipartyOptions& options);

// The gradient norm every party's local model must reach (exact_minimizer.h): fixed in
// advance from the smallest party, so that the distance to the exact local minimizers adds
// 1e-4 of the exact sensitivity 1/(K·n_(1)·λ) to the calibrated Δ.
double localGradientTolerance(const MultipartyOptions& options, Index smallestParty);

// The calibration for the average of K = options.partyCount() local models when the smallest
// party has `smallestParty` rows, in d = `features` dimensions. Keys: parties,
// smallest_party, gradient_tolerance, Delta, beta (corrected) or laplace_scale and epsilon_provable (published),
// expected_noise_norm, theorem_4_2_bound = (K−1)/(n_(1)λ) (as published in paper 004).
// Pure; a protocol that learns n_(1) obliviously calls it too.
Result<mech::MechanismReport> calibrateMultiparty(const MultipartyOptions& options, Index smallestParty,
                                                  Index features);

// What a multiparty run deserves to be told before it starts (issue 32 item 4): noise whose
// expected norm exceeds the longest model any party can hold — each ŵ_j, and so their
// average, has ‖ŵ‖ ≤ √(2ℓ(0)/λ_learner) = √(ℓ(0)/λ) whatever the data (mech::minimizerNormBound
// of localLearner()) — releases mostly noise; E‖η‖ scales as 1/λ, so the warning names the λ
// above which the noise is smaller.
std::vector<std::string> multipartyWarnings(const MultipartyOptions& options, const mech::MechanismReport& calibration);

// The per-coordinate scale used for release-mode rounding: E‖η‖/√d (ℓ2-Laplace) or b.
double perCoordinateNoiseScale(const mech::MechanismReport& calibration);

}  // namespace dpstudio::multiparty
