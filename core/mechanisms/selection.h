#pragma once
// K. Private selection among mechanisms and λ, every run on all the rows (docs/algorithms.md
// §3 K; `dpstudio-cli train --mechanism auto`). Liu & Talwar 2019's random stopping with
// Papernot & Steinke 2022's Rényi-DP accounting (core/privacy/repeat_select.h).
//
// Procedure. From public numbers only (the learner, ε, δ, n, d, C) a list of candidates is
// fixed: each private training mechanism that fits the learner, each with a few λ (and,
// when δ > 0, DP-SGD). A number of runs K is drawn from the run law (independent of the
// data); each run picks a candidate uniformly at random, trains it on all the rows with its
// own noise, and scores it by its count of correct training rows plus Laplace(1/ε_score)
// noise (a count of sensitivity 1 under substitution, for a fixed model). The run with the
// highest noisy score is released, with its own mechanism report; nothing else is: not the
// other runs' models, not their scores.
//
// Budget. One run is the composition of a private training and a Laplace count:
//   δ = 0: each candidate is ε_train-DP and the count ε_score-DP (ε_score = ε_run/10), the
//          run ε_run-DP, and the selection (2 + η)·ε_run-DP: ε_run = ε/(2 + η).
//   δ > 0: every candidate spends the same Rényi budget ρ (its curve at most ρ·α), the count
//          ρ/9; the run's curve is the largest of its candidates' (a random choice among
//          mechanisms is no less private than the least private of them: Rényi divergence is
//          quasi-convex) plus the count's; Papernot & Steinke's Theorem 2 gives the
//          selection's curve, converted to (ε, δ) as the RDP accountant does. ρ is the
//          largest for which that ε is at most the target (bisection).
//
// Randomness: K, then for each run the candidate and its training noise and the score's
// noise, all from `noise` in that order (experiment mode replays it; release mode draws
// from the OS source).

#include <string>
#include <vector>

#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/selection_settings.h"

namespace dpstudio::mech {

struct SelectionOptions {
  // The learner (its λ unused: each candidate has its own), the whole selection's ε and δ
  // (δ = 0: pure-ε candidates only), and the solver's settings; kind and family are ignored.
  MechanismOptions shared;
  SelectionSettings settings;

  // Names the offending parameter: ε, δ, a λ candidate, the mean number of runs; refuses
  // "as published" (the selection's proof needs every candidate's own).
  Status validate() const;
};

// What a selection will run, fixed from public numbers before any row is read.
struct SelectionPlan {
  // False: one candidate (the public rule's, or the only one that fits), trained once at the
  // whole budget; no runs drawn, no score.
  bool selects = true;
  std::vector<MechanismOptions> candidates;  // at the run's training budget, noise fixed (DP-SGD: σ)
  double trainEpsilon = 0;  // δ = 0: each candidate's ε
  double rho = 0;           // δ > 0: each candidate's Rényi budget, its curve ≤ ρ·α
  double scoreEpsilon = 0;  // the noisy count's ε: Laplace(1/ε_score)
  double shape = 1;         // η of the run law: 0 logarithmic, 1 geometric
  double gamma = 1;         // its stopping parameter
  double meanRuns = 1;      // E[K]
  double epsilon = 0;       // the whole selection's guarantee: (ε, δ) ≤ the target
  double delta = 0;
  double rdpOrder = 0;      // δ > 0: the order of the RDP → (ε, δ) conversion
};

// Errors: options.validate()'s; a learner no private mechanism fits; an ε below what the
// run law's own cost leaves room for at this δ ("epsilon too small for private selection").
Result<SelectionPlan> planSelection(const SelectionOptions& options, const ProblemShape& shape);

// The Rényi orders of the δ > 0 accounting.
const std::vector<double>& selectionOrders();

// "objective perturbation, λ = 0.001", "DP-SGD, λ = 0.0001, σ = 1.23": a candidate for people.
std::string candidateLabel(const MechanismOptions& candidate);

// The selection's calibration without data (CLI `calibrate`, the GUI's live text): its (ε, δ),
// the run law and the candidates' budgets.
Result<MechanismReport> calibrateSelection(const SelectionOptions& options, const ProblemShape& shape);

// Runs the selection on `train` (rows with ‖x‖ ≤ 1). The report is the released model's own
// mechanism report with the selection's ε and δ, and the derived values candidates,
// chosen_index (1-based), chosen_lambda, runs (K), mean_runs, run_train_epsilon (δ = 0) or
// run_rho (δ > 0) and score_epsilon; its statement says what was chosen among what, and the whole guarantee.
// Progress runs from 0 to 1 over the K runs; cancellation stops at once.
Result<PrivateModel> selectPrivately(const SelectionOptions& options, const Dataset& train,
                                     privacy::NoiseSource& noise, const TrainControl& control = {});

}  // namespace dpstudio::mech
