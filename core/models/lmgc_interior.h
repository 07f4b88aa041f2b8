#pragma once
// A primal-dual interior-point method (Mehrotra's predictor–corrector, HKM direction) for
// LMGC's training problem (lmgc.h, lmgc_solver.h), in whatever coordinates the rows are given
// (lmgc_solver.cpp passes the whitened ones):
//
//   minimize J(x) = w·Σ_p H_h(m_p(x)) + R(x),  R(x) = (q/2)‖TᵀxT‖²_F + ⟨c, TᵀxT⟩,  x_c ⪰ 0,
//
// p = (i, c ≠ y_i) the pairs, m_p = s_c(x_i) − s_{y_i}(x_i) their margins (linear in x),
// T the map back to the original class matrices Φ_c = Tᵀx_cT.
//
// Why not projected gradient alone. On raw features (wine, breast cancer: no public norm
// bound) most examples sit beyond the margin or on the hinge's linear part at the minimizer;
// along the directions only they see, J is piecewise linear plus the regularizer's curvature,
// ~10⁻¹² of the loss's in whitened coordinates. That is an LP-like problem: the minimizer is
// fixed by which examples sit where. Projected gradient barely moves along those directions
// (wine: J 0.033 after 3000 iterations, the minimizer's is 2.2651e-4); Newton on the current
// quadratic piece stops at the next breakpoint every step; a primal log-barrier method (this
// file's previous version) took 1693 damped Newton steps on wine and did not converge on
// iris or breast cancer in 3000. A primal-dual method does not guess the pieces and does not
// wait for the central path: it needs tens of steps whatever the conditioning.
//
// The conic form. H_h(z) = min {u²/(4h) + v : v ≥ 0, s = u + v − (1 + h − z) ≥ 0}, so with
// multipliers y_p (for s_p ≥ 0), η_p (v_p ≥ 0) and Z_c ⪰ 0 (x_c ⪰ 0) the KKT conditions are
//   w·u/(2h) = y,  w = y + η,  ∇R(x) − Σ_p y_p ∇m_p = Z,  y·s = η·v = μ → 0,  x_cZ_c = μI.
// Each step eliminates the pairs' (Δu, Δv, Δy, Δη) in closed form, which leaves a dense
// system in Δx alone: ∇²R + Σ_p κ_p ∇m_p∇m_pᵀ + sym(x⁻¹·Z), κ_p = 1/(2h/w + v/η + s/y),
// set up in each x_c's eigenbasis and solved by Cholesky; the predictor (σ = 0) gives
// σ = (μ_aff/μ)³ for the corrector, and 98% of the largest feasible step is taken.
//
// Stopping: the caller's measure (the projected-gradient step of J, lmgc_solver.h) after
// every step, at the iterate and at its purified copy (eigenvalues below 10⁻⁹·λ_max, the
// interior's stand-ins for exact zeros, set to zero); the first that holds is returned, once
// the complementarity gap is below 10⁻¹⁰·|J| too (the measure, relative to ‖x‖, can hold
// while J is 10⁻⁵ above its minimum: raw wine).
//
// Cost per step: C·m unknowns, m = (d+1)(d+2)/2; forming the system's pairs' part by class
// bases (~n·m²(3C − 2)/2 flops) or by Gram matrices of the rows' quartic monomials
// (~n·(C + 1)·C(d + 4, 4) + C(C + 1)·m³), whichever is cheaper (lmgc_pair_curvature.h), its
// Cholesky factor (Cm)³/3 (core/linalg/blocked_cholesky.h), all spread over the worker threads
// with the same bits on any count (raw breast cancer, Cm = 992: 25 → 15 ms a step on two
// cores; shuttle, 43 498 rows and Cm = 385: ~33 ms, of which the system ~14 and the two solves
// ~12; the pairs' margins follow the steps, t·Δm, instead of two evaluations of the scores);
// systems larger than maxDimension are refused (Outcome::TooLarge) before any work.
//
// Contract: x in is feasible (x_c ⪰ 0); it is moved inside the cone before the first step.
// Out: on Converged the point meeting the tolerance; otherwise the last interior iterate
// (feasible), for the caller to continue from.

#include <functional>

#include "core/models/lmgc.h"
#include "core/models/lmgc_sparse_rows.h"
#include "core/optim/optimizer.h"

namespace dpstudio {

// References must outlive the problem.
struct LmgcInteriorProblem {
  const LmgcModel& model;
  const Eigen::MatrixXd& rows;  // the rows the loss sees (n × d)
  const Eigen::VectorXi& y;
  double weight = 1;            // w > 0
  double quadratic = 0;         // q ≥ 0
  const Eigen::VectorXd& linear;  // c (original coordinates); empty = 0
  Eigen::MatrixXd T;            // (d+1) × (d+1), invertible: the original Φ_c = Tᵀ x_c T
  // The rows before T, when sparse enough to evaluate through (lmgc_sparse_rows.h); the
  // factored objective uses them.
  const LmgcSparseRows* sparse = nullptr;
  // How many identical rows each row stands for (lmgc_merged_rows.h); null: one each. Every
  // method here honours it: the loss's terms are multiplied by the count, and in the interior
  // point a row's pairs carry the weight w·count (its duals are count times one row's).
  const Eigen::VectorXd* counts = nullptr;

  // R in these coordinates: Σ_c (q/2)⟨P x_c P, x_c⟩ + ⟨E_c, x_c⟩, with P = TTᵀ and
  // E_c = T c_c Tᵀ (symmetrized; zero without a linear term).
  Eigen::MatrixXd metric() const { return T * T.transpose(); }
  Eigen::MatrixXd linearTerm(Eigen::Index c) const;
};

// Unknowns of the Newton system for C class matrices of size D: C·D(D + 1)/2.
inline Eigen::Index lmgcInteriorDimension(Eigen::Index C, Eigen::Index D) { return C * (D * (D + 1) / 2); }

// LMGC's stopping measure costs an eigendecomposition a class (the interior point's also a full
// evaluation of J), about a third of a step: the interior point takes it every this many steps
// while its gap is large, and lmgc_solver.cpp's projected gradient every this many steps
// (ProjectedGradientOptions::measureEvery), at most 3 steps late.
inline constexpr int kLmgcMeasureEvery = 4;

struct LmgcInteriorOptions {
  int maxIterations = 100;           // predictor–corrector steps
  Eigen::Index maxDimension = 2500;  // largest Newton system formed
  // The stopping measure at x (∇J(x) given) and, through `tolerance`, its tolerance.
  std::function<double(const Eigen::VectorXd& x, const Eigen::VectorXd& grad, double& tolerance)> measure;
  // Sees every step (iteration numbers from 1); false cancels.
  IterationCallback callback;
};

struct LmgcInteriorResult {
  enum class Outcome { Converged, TooLarge, Stalled, MaxIterations, Cancelled };
  Outcome outcome = Outcome::Stalled;
  int iterations = 0;   // steps taken
  int evaluations = 0;  // evaluations of J and ∇J
  double objective = 0;
  double measure = 0;
};

// objective: J and ∇J at x (the same J the problem describes).
LmgcInteriorResult minimizeLmgcInterior(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                                        Eigen::VectorXd& x, const LmgcInteriorOptions& options);

}  // namespace dpstudio
