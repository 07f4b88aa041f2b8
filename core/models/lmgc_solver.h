#pragma once
// LMGC's training problem solved in whitened coordinates.
//
// The problem (lmgc.h, ALGORITHMS §2):  minimize J(Φ) = w·Σ_i ℓ_i(Φ) + (q/2)‖Φ‖²_F + ⟨c, Φ⟩
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
// reported gradient norm is then this whitened measure. originalMeasure = true stops on the
// original coordinates' ‖P(Φ − ∇J(Φ)) − Φ‖ instead (what exact_minimizer.h's bound needs).
//
// The map is fitted on the training rows: it changes the path, not the minimizer, but a
// private mechanism must not start from or steer by the data (ALGORITHMS §3 A), so only
// trainModel (non-private training) uses it.

#include "core/models/lmgc.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"

namespace dpstudio {

enum class LmgcMethod {
  ProjectedGradient,              // the default, and what training uses
  // Experimental (lmgc_interior.h): a barrier method first, projected gradient for what is
  // left. Reaches wine's minimizer (J 2.27e-4; projected gradient stops at 0.033), but is
  // slow or unconverged elsewhere: not for training yet.
  InteriorThenProjectedGradient,
};

// Minimizes the objective `terms` describes (any scale, quadratic and linear term) over the
// PSD cone, from theta (the warm start, original coordinates) in whitened coordinates;
// theta receives the best feasible point (original coordinates). Options and callback as
// minimizeProjectedGradient (its stationarity hook is set here). `method` chooses the solver
// (same objective, same stopping rule).
OptimizeSummary minimizeLmgcWhitened(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                     const ObjectiveTerms& terms, Eigen::VectorXd& theta,
                                     ProjectedGradientOptions options, const IterationCallback& callback = {},
                                     bool originalMeasure = false,
                                     LmgcMethod method = LmgcMethod::ProjectedGradient);

}  // namespace dpstudio
