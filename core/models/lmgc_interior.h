#pragma once
// EXPERIMENTAL, not used by training (lmgc_solver.h: LmgcMethod::InteriorThenProjectedGradient
// selects it; bench/bench_lmgc --interior measures it). Status, GUI defaults (tolerance 1e-8,
// 3000 iterations), initialBarrierShare 1e-3:
//   wine           converged in 1693 Newton steps (5.8 s), J 2.2651e-4 — plain projected
//                  gradient from there lowers J by 3e-6 relative in 20 000 iterations, so this
//                  is the minimizer, and projected gradient's J 0.033 (3000 iterations) and
//                  0.0105 (20 000) were 50–150× above it;
//   breast_cancer  not converged after 3000 steps (J 9.2, 190 s);
//   iris, blobs, moons, xor: not converged after 3000 steps (projected gradient: 124–636).
// Why it is slow: the primal barrier's centre for the first μ lies far out along J's flat
// directions (wine: ‖x‖ ~ 10⁵ before μ is first cut, ~1550 damped Newton steps), and after each
// cut the fraction-to-boundary rule keeps steps at 0.04–0.1. A primal-dual method (e.g.
// HKM/NT directions with Mehrotra's predictor–corrector) is the known cure for both; this
// file is its starting point (the smoothed hinge, the Newton system in eigenbases).
//
// A barrier (interior-point) method for LMGC's training problem (lmgc.h, lmgc_solver.h):
//
//   minimize J(x) = w·Σ_p H_h(m_p(x)) + R(x),  R(x) = (q/2)‖TᵀxT‖²_F + ⟨c, TᵀxT⟩,  x_c ⪰ 0,
//
// p = (i, c ≠ y_i) the pairs, m_p = s_c(x_i) − s_{y_i}(x_i) their margins (linear in x),
// x the class matrices in the coordinates the rows are given in (whitened, T the map back).
//
// Why not projected gradient alone. On raw features (wine, breast cancer: no public norm
// bound) most examples sit beyond the margin or on the hinge's linear part at the minimizer;
// along the directions only they see, J is piecewise linear plus the regularizer's q·M⊗M
// (M = TTᵀ), ~10⁻¹² of the loss's curvature in whitened coordinates. That is an LP-like
// problem: the minimizer is fixed by which examples sit where (a combinatorial question).
// Projected gradient, its steps set by the loss's curvature, barely moves along those
// directions (wine: J 0.033 after 3000 iterations, the minimizer's is 2.27e-4); Newton on the
// current quadratic piece with an exact line search (tried) stops at the next breakpoint
// every step (wine: t ~ 10⁻⁵–10⁻³, J 0.016 after 2900 steps). An interior-point method does
// not guess the pieces.
//
// The barrier problem. H_h(z) = min {u²/(4h) + v : v ≥ 0, u + v ≥ 1 + h − z}, so with
// barriers on v, on the slack r = u + v − (1 + h − z) and on every x_c,
//
//   B_μ(x) = Σ_p h_μ(m_p(x)) + R(x) − μ Σ_c log det x_c,
//   h_μ(z) = min_{u,v} w(u²/(4h) + v) − μ log v − μ log r,
//
// h_μ a smooth convex function of the margin (h_μ' ∈ (−w, 0), h_μ'' > 0) that tends to
// w·H_h as μ → 0; its minimizing u solves a monotone scalar equation. B_μ is minimized by
// damped Newton (dense Hessian in the eigenbasis of each x_c, where the log-det barrier is
// diagonal), a fraction-to-boundary rule keeping every x_c positive definite, and μ is cut
// by 10 whenever the Newton decrement says B_μ is minimized to within μ/2.
//
// Stopping: the caller's measure (the projected-gradient step of J, lmgc_solver.h) after
// every Newton step; at the tolerance, eigenvalues below 10⁻⁹·λ_max (the barrier's ~μ/γ
// stand-ins for exact zeros) are set to zero if the measure still holds there.
//
// Cost per Newton step: m = C(d+1)(d+2)/2 unknowns; forming the Hessian costs about
// n·m²·(C+1)/C flops, its Cholesky factor m³/3, and systems larger than
// maxDimension are refused (Outcome::TooLarge) before any work.
//
// Contract: x in is feasible (x_c ⪰ 0); it is moved inside the cone before the first step.
// Out: on Converged the point meeting the tolerance; otherwise the last interior iterate
// (feasible, J usually far below the start's), for the caller to continue from.

#include <functional>

#include "core/models/lmgc.h"
#include "core/optim/optimizer.h"

namespace dpstudio {

// References must outlive the problem.
struct LmgcBarrierProblem {
  const LmgcModel& model;
  const Eigen::MatrixXd& rows;  // the rows the loss sees (n × d)
  const Eigen::VectorXi& y;
  double weight = 1;            // w > 0
  double quadratic = 0;         // q ≥ 0
  const Eigen::VectorXd& linear;  // c (original coordinates); empty = 0
  Eigen::MatrixXd T;            // (d+1) × (d+1), invertible: the original Φ_c = Tᵀ x_c T
};

struct LmgcInteriorOptions {
  int maxIterations = 100;           // Newton steps
  double initialBarrierShare = 1e-3;  // μ₀ = share·J(x₀)/ν (ν the number of logarithms)
  Eigen::Index maxDimension = 2500;  // largest Newton system formed
  // The stopping measure at x (∇J(x) given) and, through `tolerance`, its tolerance.
  std::function<double(const Eigen::VectorXd& x, const Eigen::VectorXd& grad, double& tolerance)> measure;
  // Sees every Newton step (iteration numbers from 1); false cancels.
  IterationCallback callback;
};

struct LmgcInteriorResult {
  enum class Outcome { Converged, TooLarge, Stalled, MaxIterations, Cancelled };
  Outcome outcome = Outcome::Stalled;
  int iterations = 0;   // Newton steps taken
  int evaluations = 0;  // evaluations of J and ∇J (the barrier's own are not counted)
  double objective = 0;
  double measure = 0;
};

// objective: J and ∇J at x (the same J the problem describes).
LmgcInteriorResult minimizeLmgcInterior(const LmgcBarrierProblem& problem, const SmoothFunction& objective,
                                        Eigen::VectorXd& x, const LmgcInteriorOptions& options);

}  // namespace dpstudio
