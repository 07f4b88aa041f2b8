#pragma once
// LMGC's training problem (lmgc_interior.h's form) by a semismooth Newton method on the
// projected-gradient fixed point. Internal to lmgc_solver.cpp, which uses it to accelerate,
// never to decide.
//
// Why. Near the minimizer what is left for first-order methods is turning the ranges of the
// x_c (the range–null block of the projected-gradient step): over factors L-BFGS sees those
// directions through the spread of L's singular values, and projected gradient through the
// cone's curvature, both linearly and slowly (digits: 400 L-BFGS iterations, then 33
// projected-gradient steps for a measure 0.019 → 1.3·10⁻⁵). Newton's method on the
// fixed point sees that curvature exactly.
//
// The equation. With a step α > 0 and z = x − α∇J(x), x* minimizes J over the cone iff
// F(z) = α∇J(P(z)) + z − P(z) = 0 at z* = x* − α∇J(x*) (P: projection onto the cone, class
// by class). F is semismooth: P's generalized Jacobian at z = QΛQᵀ acts in Q's basis entry by
// entry, Ω_jl = (λ_j⁺ − λ_l⁺)/(λ_j − λ_l) (1 where both are positive, 0 where neither is).
// The Newton system (αHΩ + I − Ω)dz = −F (H = ∇²J at P(z) on the loss's current Huber
// pieces) reduces, with u = Ω∘dz on the entries where Ω > 0, to the symmetric positive
// definite (αH + diag(1/Ω − 1))u = −F there (where Ω = 1: range–range, the face's own
// block; where 0 < Ω < 1: range–null, 1/Ω − 1 = |λ_null|/λ_range, the cone's curvature).
// It is solved by conjugate gradients with a diagonal preconditioner and Hessian-vector
// products on the rows that sit on a Huber's quadratic part (O(n_active·D·p) a class, p the
// range's dimension); the rest of dz follows from the equation. Steps are damped until
// ‖F‖ falls; near the minimizer the full step is taken and ‖F‖ falls superlinearly (digits,
// from 100 L-BFGS iterations over factors, ‖F‖/α: 7.8 → 3.1 → 0.064 → 7.4·10⁻⁴ → 1.3·10⁻⁵ in
// four full steps and 163 conjugate-gradient iterations, 0.1 s; the projected-gradient
// measure is then 3·10⁻⁶, below its tolerance 1.35·10⁻⁵; from 75, four steps and 126).
//
// Measured against: L-BFGS over factors and projected gradient took 400 iterations and ~35
// steps (0.6 s) for the same measure from a better start. Hessian-vector products by finite
// differences of ∇J (a full evaluation each) gave the same steps at ~8× the time. The residual
// ‖F‖ as the merit rejects good steps where the Huber pieces change (J falling 3·10⁻⁴ while
// ‖F‖ rose fivefold, digits at λ = 10⁻³); accepting on J instead did not help there either.
//
// Where a step leaves more than 0.8 of ‖F‖ the method stops after it (lmgc_semismooth.cpp,
// kSlowProgress): far from its fast region each step costs hundreds of conjugate-gradient
// iterations (DNA, a9a), and the caller's first-order rounds get there sooner.
//
// Contract: x is feasible in and out (x = P(z) for the best z found); the caller measures the
// result with its own stopping rule and compares.

#include <functional>

#include "core/models/lmgc_interior.h"
#include "core/optim/optimizer.h"

namespace dpstudio {

struct LmgcSemismoothOptions {
  double step = 1e-3;        // α: about 1/L, as projected gradient's step
  double tolerance = 0;      // stop when ‖F‖/α ≤ tolerance, or when `converged` says so
  // The caller's own stopping rule at x = P(z), given ∇J(x) (optional).
  std::function<bool(const Eigen::VectorXd& x, const Eigen::VectorXd& grad)> converged;
  int maxSteps = 8;          // Newton steps
  double forcing = 1e-2;     // conjugate gradients stop at this share of the right-hand side
  int maxInnerIterations = 300;
  // Sees every conjugate-gradient iteration (iteration: the Newton step; objective: J at the
  // step's point; gradientNorm: its ‖F‖/α); false cancels, leaving x at the last accepted point.
  IterationCallback callback;
};

struct LmgcSemismoothResult {
  bool built = false;     // false: the problem is too large for the active rows' features; x unchanged
  int steps = 0;          // Newton steps taken (0: none helped, or the first one's system stalled)
  int innerIterations = 0;  // conjugate-gradient iterations, all steps
  double residual = 0;    // ‖F‖/α at the returned x
  int evaluations = 0;    // of J and ∇J
  bool cancelled = false;
};

// `objective` is J and ∇J in the problem's coordinates (as lmgc_solver.cpp's).
LmgcSemismoothResult minimizeLmgcSemismooth(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                                            Eigen::VectorXd& x, const LmgcSemismoothOptions& options);

}  // namespace dpstudio
