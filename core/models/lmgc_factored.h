#pragma once
// LMGC's training problem (lmgc_interior.h's form, whitened coordinates) over low-rank
// factors: x_c = L_c L_cᵀ with L_c ∈ R^{(d+1)×r_c} (Burer & Monteiro 2003), minimized by
// L-BFGS. Internal to lmgc_solver.cpp, which uses it to accelerate, never to decide.
//
// Why. At the minimizer the x_c have low rank (digits: 8–17 of 65), and projected gradient
// over the full cone pays for all of it: each evaluation forms the scores X̃x_c of every class
// (n·C·(d+1)² flops) and each step an eigendecomposition per class, and first-order steps
// need ~10³ iterations on such ill-conditioned problems. Over factors of the minimizer's
// rank the scores are ‖L_cᵀx̃‖² (n·(d+1)·Σr_c flops), the cone constraint is gone, and L-BFGS
// sees the curvature. The problem in L is not convex, but its minimizers with rank-deficient
// or exactly-ranked L are the convex problem's (Burer & Monteiro 2005), and whatever it
// returns is feasible (x_c = L_cL_cᵀ ⪰ 0).
//
// Contract: the caller keeps the stopping rule. This only moves x (feasible in, feasible
// out) to a point with a lower J: lmgc_solver.cpp measures the result with the full
// problem's projected-gradient step and hands it back to projected gradient, so a wrong rank
// or an early stop costs time, never correctness.

#include <vector>

#include "core/models/lmgc_interior.h"
#include "core/optim/lbfgs.h"

namespace dpstudio {

// Each class's rank for a start x: the number of eigenvalues of x_c above `relative` times
// the largest of all classes, plus `extra` (at most d + 1, at least 1).
std::vector<Index> lmgcFactorRanks(const LmgcModel& model, const Eigen::VectorXd& x, double relative, Index extra);

// Minimizes J over the factors of the given ranks, from x's best approximation of those
// ranks (its top eigenpairs); x receives L_cL_cᵀ (left as it was if L-BFGS produced
// non-finite factors). The summary is L-BFGS's over the factors; the caller compares J.
OptimizeSummary minimizeLmgcFactored(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                     const std::vector<Index>& ranks, const LbfgsOptions& options,
                                     const IterationCallback& callback = {});

// J and its gradient over the factors (D × Σr_c, column-major, class blocks in order) with
// x_c = L_cL_cᵀ: what minimizeLmgcFactored minimizes (exposed for its tests).
double lmgcFactoredObjective(const LmgcInteriorProblem& problem, const std::vector<Index>& ranks,
                             const Eigen::VectorXd& factors, Eigen::VectorXd& grad);

}  // namespace dpstudio
