#pragma once
// LMGC's training problem (lmgc_interior.h's form) on a face of the PSD cone: every x_c
// restricted to U_c S_c U_cᵀ with U_c fixed (D × k_c, orthonormal: the eigenvectors of x_c's
// larger eigenvalues) and S_c ⪰ 0 free, minimized by Newton's method on the loss's current
// Huber pieces. Internal to lmgc_solver.cpp, which uses it to accelerate, never to decide.
//
// Why. Over factors (lmgc_factored.h) the problem is ill-conditioned twice: J's own curvature
// on the minimizer's face spans five decades (pairs on the Huber's quadratic part beside the
// regularizer's q·P ⊗ P), and the factorization multiplies it by the spread of L's squared
// singular values. Measured on digits (the Hessian over factors at the minimizer, 9 035
// unknowns): past the 940 directions that only rotate the factors, the face's eigenvalues
// span 10⁻⁶…1 of the largest, so L-BFGS converges linearly and slowly. In S coordinates the
// face problem is small (Σ k_c(k_c + 1)/2 unknowns: digits 800–1 100, where the full problem
// has 21 450) and its Hessian is formed and factored outright; the loss is piecewise
// quadratic, so Newton's method is exact once the pieces settle: digits' face in 2 steps,
// 50 ms. What the face cannot do — turn the ranges U_c — is left to the caller (the rest of
// the measure there: after the face is solved, the range–null block of the projected-gradient
// step, which L-BFGS over factors and projected gradient reduce).
//
// Projected Newton: each step follows the arc S + tΔ projected onto the PSD cone (Armijo on
// that arc); when an eigenvalue is clamped to 0 the face is rebuilt without it.
//
// Contract: x is feasible in and out; on return x_c = U_cS_cU_cᵀ for the best S found. The
// face drops x_c's eigenvalues below the threshold, so J may be higher than at the x given:
// the caller compares.

#include <vector>

#include "core/models/lmgc_interior.h"

namespace dpstudio {

struct LmgcFaceResult {
  int steps = 0;        // Newton steps taken
  double objective = 0;  // J at x on return (0 and x unchanged when the face was too large)
};

// Newton steps on the face spanned by each x_c's eigenvectors whose eigenvalues exceed
// `relative` times the largest of all classes, from x, until the face gradient is below
// `tolerance` (in the face's orthonormal coordinates), no step lowers J, or maxSteps.
LmgcFaceResult minimizeLmgcOnFace(const LmgcInteriorProblem& problem, Eigen::VectorXd& x, double relative,
                                  double tolerance, int maxSteps);

}  // namespace dpstudio
