#pragma once
// Internal to lmgc_solver.cpp: the descent that does most of the work for an LMGC mixture
// (lmgc.h, "Mixtures"), before projected gradient has the last word.
//
// Why. A mixture's problem has no interior-point start and no pair-loss screening (those
// know one matrix a class), and accelerated projected gradient alone is slow on it (digits,
// M = 3: ~1100 iterations, each with 30 eigendecompositions). Over square factors
// Φ_b = L_bL_bᵀ (L_b ∈ R^{D×D}: every PSD matrix is reachable, so no rank is guessed) the
// cone constraint disappears and L-BFGS sees the curvature; full-rank factors have no
// spurious local minima (Burer & Monteiro 2005). Its result is measured and finished by the
// caller's projected gradient, so an early stop costs time, never correctness.

#include <Eigen/Core>

#include "core/optim/optimizer.h"

namespace dpstudio {

// Minimizes `objective` (J and ∇J over `blocks` symmetric D×D matrices, stacked as LMGC's θ)
// over the factors of x's blocks, from their square roots; at most `maxIterations` L-BFGS
// iterations. x receives L_bL_bᵀ when that lowers J (feasible in, feasible out). The
// callback sees L-BFGS's iterations; false cancels (termination Cancelled).
OptimizeSummary descendOverSquareFactors(const SmoothFunction& objective, Eigen::Index blocks, Eigen::Index D,
                                         Eigen::VectorXd& x, int maxIterations, const IterationCallback& callback);

}  // namespace dpstudio
