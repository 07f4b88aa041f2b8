#pragma once
// H. Private parameter tuning (paper 002 Alg. 3, Chaudhuri, Monteleoni & Sarwate 2011;
// docs/algorithms.md §3 H): choose the regularization λ among candidates Λ_1..Λ_m without spending
// more than the budget of one release.
//
// Procedure. The training rows are permuted at random and cut into m + 1 parts of
// ⌊n/(m+1)⌋ rows each (the n mod (m+1) rows left over are not used). Model i is trained by
// the base mechanism (any of A–E, `base`) on part i with λ = Λ_i at the full (ε, δ); it
// makes z_i errors on part m+1; model i is released with probability ∝ exp(−ε z_i/2)
// (sampleExponentialMechanism with β = ε/2 on the utilities −z_i).
//
// Privacy, under substitution of one example. The permutation is drawn from the noise
// source, independently of the data, so the substituted example keeps its place and lies
// in exactly one part. In training part i it changes only model i, which is (ε, δ)-DP; the
// choice and the release are post-processing of it. In part m+1 it moves every z_i by at
// most 1, and the exponential mechanism with β = ε/2 is 2β = ε-DP (docs/algorithms.md §1.3). So the
// whole procedure is (ε, δ)-DP for a base with δ, ε-DP otherwise (with a base whose own ε
// is larger than `base.epsilon` — DP-SGD with a given noise multiplier — the larger ε).
//
// What is released: the chosen model and its own mechanism report, plus public values (m,
// the candidates, the chosen λ, the part size — a function of n). Not the error counts
// z_i, nor any other model: each z_i is a count over the validation part, one more
// statistic of sensitivity 1 per candidate, which the exponential mechanism's ε does not
// pay for (it pays for the one index it outputs).
//
// Randomness. Experiment mode: the permutation, then one 64-bit seed S, then the
// selection's uniform, all from `noise`; candidate i draws its mechanism noise from its own
// stream ExperimentNoise(S, i), so the candidates can train in parallel (workerThreads()
// of them at a time, each single-threaded inside) and the result is bit for bit the same
// for any thread count. Release mode: the one OS source, used sequentially (candidates in
// order, then the selection). The report's noise_source says which.

#include <vector>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

struct TuningOptions {
  MechanismOptions base;       // any kind but None; base.learner.lambda is replaced by each candidate
  std::vector<double> lambdas; // Λ_1..Λ_m: m ≥ 1, each finite and > 0

  // The base options with every candidate λ, then the candidates themselves
  // ("tune-lambdas must be finite and > 0, found -1 (candidate 2)").
  Status validate() const;
};

// Tunes λ on `train` (rows with ‖x‖ ≤ 1, at least m + 1 of them). The returned report is
// the chosen model's, with the derived values candidates (m), chosen_lambda, chosen_index
// (1-based), part_rows and selection_beta, and a statement for the whole procedure.
// Progress goes from 0 to 1 as candidates finish (in experiment mode possibly from worker
// threads, one call at a time); cancellation stops every candidate.
Result<PrivateModel> tunePrivately(const TuningOptions& options, const Dataset& train,
                                   privacy::NoiseSource& noise, const TrainControl& control = {});

}  // namespace dpstudio::mech
