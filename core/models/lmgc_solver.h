#pragma once
// LMGC's training problem solved in whitened coordinates.
//
// The problem (lmgc.h, docs/algorithms.md §2.3):  minimize J(Φ) = w·Σ_i ℓ_i(Φ) + (q/2)‖Φ‖²_F + ⟨c, Φ⟩
// over every Φ_c ⪰ 0. Its curvature follows the data's second moments twice over (scores
// are quadratic in x̃), so on raw features (wine: proline in the thousands beside ratios
// below 1) the Hessian spans twelve and more orders of magnitude and projected gradient
// stalls at the iteration limit whatever its tolerance; even on norm-bounded data
// (iris, R = 20) the features' spreads differ enough to cost thousands of iterations.
//
// Congruence preconditioning. With an affine map of the rows x' = A(x − m), the augmented
// rows transform linearly, x̃' = T x̃ with T = [A, −Am; 0, 1], and x̃ᵀΦx̃ = x̃'ᵀΦ'x̃' for
//
//   Φ_c = Tᵀ Φ'_c T.
//
// The substitution is exact and maps the PSD cone onto itself (T is invertible), so the
// problem in Φ' is the same problem, not an approximation: its loss is LMGC's own loss on the
// mapped rows, its regularizer (q/2)‖TᵀΦ'T‖² + ⟨T c Tᵀ, Φ'⟩, and projection onto Φ'_c ⪰ 0
// is still an eigenvalue clamp. Choosing m = the mean and A = Σ^{-1/2} (Σ the covariance of
// the rows, its small eigenvalues floored, see lmgc_solver.cpp) makes the mapped rows
// isotropic, which is what the loss's curvature needs (the shrinkage τ balances it against
// the regularizer's, see lmgc_solver.cpp). Before iterating, the warm start is rescaled to
// the best point of its ray for the regularized objective.
//
// Stopping rule: the projected-gradient step ‖P(Φ' − ∇J(Φ')) − Φ'‖ (projected_gradient.h)
// in the whitened coordinates, so that "converged" does not depend on the features' units
// (in raw units, wine's proline² entries of ∇J are 10¹² times its ratios'). NOTE: the
// reported gradient norm is then this whitened measure. LmgcRun::ExactTraining and Private stop
// on the original coordinates' ‖P(Φ − ∇J(Φ)) − Φ‖ instead (what exact_minimizer.h's bound needs).
//
// The map is fitted on the training rows: it changes the path, not the minimizer. Private
// mechanisms use it too (LmgcRun::Private): their guarantees hold for the exact minimizer,
// and what they stop on is the original coordinates' measure, so how the path was steered
// does not enter the bound (exact_minimizer.h); but a release starts from a
// data-independent point (docs/algorithms.md §3 A), so their start is not rescaled on the data.

#include "core/models/lmgc.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"

namespace dpstudio {

enum class LmgcRun {
  Training,       // whitened stopping measure; the warm start rescaled along its ray on the data
  ExactTraining,  // the original coordinates' measure (exact_minimizer.h); start rescaled
  Private,        // the original coordinates' measure; the start used as given
};

// Minimizes the objective `terms` describes (any scale, quadratic and linear term) over the
// PSD cone, from theta (the warm start, original coordinates) in whitened coordinates;
// theta receives the best feasible point (original coordinates). Options and callback as
// minimizeProjectedGradient (its stationarity hook is set here).
//
// Solver: the primal-dual interior-point method (lmgc_interior.h) while its dense system has
// at most LmgcInteriorOptions::maxDimension unknowns (C(d+1)(d+2)/2: every built-in set but digits), then
// projected gradient from its result for whatever tolerance is left. Larger problems (digits:
// 21 450 unknowns): where the pairs n(C − 1) are at most a quarter of the unknowns, first
// L-BFGS-B on the Lagrangian dual to a relative gap of 10⁻⁷ (lmgc_dual_descent.h; DNA, 1 792
// rows and 49 000 unknowns: 4.0–4.4 s in all, against 8.7–10.2 s without it); then
// 10 projected-gradient steps to read off the ranks, then rounds of L-BFGS
// over low-rank factors x_c = L_cL_cᵀ of those ranks (lmgc_factored.h), each kept only if J
// went down, the first round's followed by the semismooth Newton method (lmgc_semismooth.h),
// and at most 50 projected-gradient steps, the last round's to the tolerance — digits raw
// 0.9 s, at λ = 10⁻³ 2.3 s (bench/lmgc_scale.sh). After a converged dual the first round's
// L-BFGS is skipped and its Newton end game starts from the dual's point. Every
// path ends on the same measure, checked by projected gradient or the interior point. The loss skips rows that provably sit beyond every margin
// (lmgc_screening.h): the same sums, computed on a third of digits' rows near the minimizer.
// Identical rows are merged with their counts (lmgc_merged_rows.h): a9a's 32 561 rows are
// 26 008 distinct ones, 40 → 32.5 s.
OptimizeSummary minimizeLmgcWhitened(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                     const ObjectiveTerms& terms, Eigen::VectorXd& theta,
                                     ProjectedGradientOptions options, const IterationCallback& callback = {},
                                     LmgcRun run = LmgcRun::Training);

}  // namespace dpstudio
