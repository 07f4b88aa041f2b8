#pragma once
// The adversary's choice on the user's own data (docs/algorithms.md §3 J (a); issue 13 §2): the
// training row to replace, the canary to put in its place, and for prediction the query.
//
// Candidate canaries (canaryCandidates): unit vectors along ± each column of θ*(D) and ± the
// first 8 coordinate axes, and the test points (as they are, and scaled to the norm bound),
// each with every label. To first order a substitution moves θ* by H⁻¹(∇ℓ(canary) −
// ∇ℓ(row))/n, and it moves the noise that explains an output of a perturbed objective
// (objective and loss perturbation, DP-LMGC) or a clipped gradient step (DP-SGD) by the same
// gradient difference: the pairs (canary, training row) are ranked by ‖∇ℓ(canary) − ∇ℓ(row)‖
// at θ*(D) (gradientPairs).
//
// Output perturbation (A) and prediction sensitivity (F) release or answer from θ*(D)
// itself, θ*(D) + b or θ*(D)ᵀq + b, so their pair is the one that moves θ* (A), or the
// scores at the best query (F), furthest (searchedCanaryFromData): the best
// kCandidatesRetrained pairs among the unit vectors and as many among the test points are
// retrained exactly on D' (warm-started at θ*(D)); for F the query is the test point (or the
// canary) at which the noise-free scores move furthest. Every other mechanism takes the
// first-order best pair (audit_problem.cpp).
// The description names the replaced row, the canary (and the test row it came from), the
// query, and the move; auditProblemFromData adds that the audit is not a release.
//
// An audit on the user's data is an experiment: nothing is released and nothing is charged
// to any ledger, and the pair is read off the private data (callers say so where shown).

#include "core/audit/audit.h"

namespace dpstudio::audit {

// A candidate canary: a point in the unit ball with a label, and where it came from ("test
// row 12", "test row 12 scaled to norm 1", "the unit vector e3", …).
struct CanaryCandidate {
  Eigen::VectorXd x;
  int label = 0;
  std::string origin;
  bool fromTest = false;
};

std::vector<CanaryCandidate> canaryCandidates(const Dataset& D, const Eigen::VectorXd& theta,
                                              const Dataset& testPoints);

// For each candidate, the row of `rows` (indices into D; empty: every row) whose loss
// gradient at θ differs most from the candidate's: one pair per candidate, in their order.
struct GradientPair {
  double change = 0;  // ‖∇ℓ(canary) − ∇ℓ(row)‖ at θ
  std::size_t candidate = 0;
  Index row = 0;
};
std::vector<GradientPair> gradientPairs(const Model& model, const Eigen::VectorXd& theta, const Dataset& D,
                                        const std::vector<Index>& rows,
                                        const std::vector<CanaryCandidate>& candidates);

inline constexpr int kCandidatesRetrained = 8;
inline constexpr Index kTestPointsSearched = 400;  // the first ones; more only add retraining-free ranking cost

// D: the training rows (‖x‖ ≤ 1); testPoints: candidates for the canary and the query (may
// have no rows). options.target must be Training with kind Output, or Prediction with kind
// Sensitivity; the model must be unconstrained (not LMGC).
Result<AuditProblem> searchedCanaryFromData(const AuditOptions& options, const Dataset& D, const Dataset& testPoints);

// Whether searchedCanaryFromData applies to these options (output perturbation and
// prediction sensitivity on a model without constraint).
bool canarySearchApplies(const AuditOptions& options);

}  // namespace dpstudio::audit
