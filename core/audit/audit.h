#pragma once
// J. Empirical privacy audit (docs/algorithms.md §3 J).
//
// For a mechanism and its settings, and a pair of adjacent datasets D, D' (D' replaces one
// example of D by a canary chosen to move the output most; audit_problem.h), run the
// mechanism N times on each, reduce every output to one scalar s, and bound ε from below by
// the error rates of threshold tests on s (rates.h): half of the runs select the threshold,
// the other half certify it with Clopper–Pearson bounds, so "ε_lower > claimed ε" is a
// violation proven at 95% confidence (given that the runs are independent draws of the
// mechanism — experiment-mode streams, which are pseudo-random).
//
// Statistics, per mechanism:
//  - output perturbation (A) and multiparty aggregation (I): the likelihood ratio of the
//    noise law (statistic.h); loss perturbation (C) on an unconstrained model: the exact
//    likelihood ratio of the perturbed minimizer (perturbed_likelihood.h), where affordable;
//  - the other training mechanisms (B, D, E): the released parameters projected on the unit
//    direction from the noise-free output on D to that on D';
//  - prediction sensitivity (F): the likelihood ratio of the released scores of each of the
//    B answers to the query, summed;
//  - subsample-and-aggregate (G): how many of the B answers to the query are the label the
//    canary pushes the votes towards.
// The noise-free part of a mechanism is computed once per dataset and reused (F's θ*, G's
// teachers, I's local models); the training mechanisms are rerun each time through
// mech::trainPrivately, warm-started at the noise-free solution (output perturbation then
// converges at once). What is fixed across runs is data-independent randomness the proofs
// condition on (G's partition, I's party assignment); everything the proofs randomize over
// is redrawn every run.
//
// Runs are parallel over trials (workerThreads()), each single-threaded, run i on D drawing
// from ExperimentNoise(seed, 2i) and on D' from ExperimentNoise(seed, 2i+1): the result is
// the same for any thread count. Cancellable; progress 0 → 1 over the runs.

#include <cstdint>
#include <string>
#include <vector>

#include "core/audit/rates.h"
#include "core/mechanisms/mechanism.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"
#include "core/util/progress.h"

namespace dpstudio::audit {

enum class AuditTarget { Training, Prediction, Multiparty };

struct AuditOptions {
  AuditTarget target = AuditTarget::Training;
  mech::MechanismOptions training;        // Training: any kind but None
  predict::PredictionOptions prediction;  // Prediction: sensitivity (F) or subsample (G)
  multiparty::MultipartyOptions multiparty;
  long long trials = 20000;               // N runs on D and N on D', N ≥ 100
  std::uint64_t seed = 1;                 // master seed of the runs' noise streams
  double selectionFraction = 0.5;         // share of the runs that selects the threshold
  std::size_t maxThresholds = 400;        // thresholds tried (pooled-rank spacing)

  Status validate() const;
  std::string mechanismName() const;       // "output", "prediction", "subsample", "multiparty", …
};

// The adjacent pair and, for prediction mechanisms, the query to ask.
struct AuditProblem {
  Dataset D;
  Dataset Dprime;               // D with row `replaced` set to (canary, canaryLabel)
  Index replaced = 0;
  Eigen::VectorXd canary;
  int canaryLabel = 0;
  Eigen::VectorXd query;        // F and G: the point whose answers are audited (the canary)
  std::string description;      // for people: how D, D' and the canary were made
};

struct AuditResult {
  std::string mechanism;
  std::optional<mech::Calibration> calibration;  // unset: not a privacy mechanism
  double epsilon = 0;           // claimed
  double delta = 0;             // claimed (0 for pure-ε mechanisms)
  double epsilonLower = 0;      // certified lower bound (95%), ≥ 0
  bool violation = false;       // epsilonLower > epsilon
  // The largest ε_lower these trials could have certified (rates.h, detectableEpsilon, on
  // the held-out runs): no violation of a claimed ε at or above it can be detected.
  double detectableEpsilon = 0;
  long long trials = 0;         // N per dataset
  std::string statistic;        // what s is
  std::string problem;          // AuditProblem::description
  Certificate certificate;      // the chosen test and its held-out rates
  Curve curve;                  // FPR/FNR over thresholds on all runs, for plots
  double seconds = 0;
  std::string warning;          // the mechanism's own "as published" warning, if any
};

// Runs the audit. Options are validated before any work; a canary that does not move the
// noise-free output (or the votes) is an error saying so — the audit would see nothing.
Result<AuditResult> runAudit(const AuditOptions& options, const AuditProblem& problem,
                             const Progress& progress = {});

}  // namespace dpstudio::audit
