#pragma once
// LMGC's training problem approached through its Lagrangian dual (the one lmgc_dual.h bounds
// the minimum with), by L-BFGS-B over the pairs' multipliers. Internal to lmgc_solver.cpp,
// which uses it for a first phase before the primal methods finish.
//
// The dual. In original coordinates (Φ_c = Tᵀx_cT, rows r_i = T⁻¹x̃_i, row weights ρ_i = w or
// w·count_i), for multipliers α_p ∈ [0, 1], one per pair p = (i, c ≠ y_i):
//   g(α) = Σ_p ρ_i((1 + h)α_p − hα_p²) − (q/2)Σ_c ‖Φ_c(α)‖²_F,   Φ_c(α) = [S_c(α) − E_c]₊/q,
//   S_c(α) = Σ_i W_ic r_ir_iᵀ,  W_ic = ρ_iα_ic (c ≠ y_i),  W_iy_i = −Σ_{c≠y_i} ρ_iα_ic,
// E_c the linear term. ∂g/∂α_p = ρ_i(1 + h − 2hα_p − m_p(Φ(α))). Φ(α) is feasible, and
// J(Φ(α)) − g(α) ≥ 0 bounds how far both are from the minimum.
//
// Why. g is strongly concave (2h·ρ along every multiplier) with curvature at most about
// ρ‖r‖⁴/q: its conditioning does not see the directions only the small quadratic term sees
// in the primal, which keep the primal's first-order methods slow (docs/performance.md,
// "Session 39": DNA, a gap of 10⁻⁷ in ~180 evaluations). An evaluation is one
// D × D product over the rows with a non-zero weight, an eigendecomposition and the scores
// through the positive part, a class. Needs q > 0.

#include "core/models/lmgc_interior.h"
#include "core/optim/optimizer.h"

namespace dpstudio {

struct LmgcDualDescentOptions {
  double relativeGap = 1e-6;  // stop when (J(Φ(α)) − g(α)) ≤ relativeGap·|J|
  int maxEvaluations = 1000;
  // L-BFGS-B's correction pairs (at most 64 MB of them). DNA to a gap of 10⁻⁶: 20 pairs 299
  // evaluations, 40 191, 60 126; 10 462.
  int memory = 60;
  // Sees every evaluation (iteration: the evaluation's number; objective: J(Φ(α)); gradientNorm:
  // the gap); false cancels.
  IterationCallback callback;
};

struct LmgcDualDescentResult {
  int evaluations = 0;
  double primal = 0;  // J at the returned x
  double dual = 0;    // g at the multipliers that gave it
  bool cancelled = false;
  bool converged = false;  // the gap met relativeGap
};

// x out: Φ(α) in the problem's coordinates for the best multipliers found (smallest J); x in
// is not read. Requires problem.quadratic > 0 and one matrix a class.
LmgcDualDescentResult descendLmgcDual(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                      const LmgcDualDescentOptions& options);

}  // namespace dpstudio
