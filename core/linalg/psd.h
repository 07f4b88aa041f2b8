#pragma once
// The positive-semidefinite cone and the space of symmetric matrices, for LMGC (each class
// matrix Φ_c ⪰ 0) and its private variant (noise drawn in the symmetric space).
//
// Symmetric basis. The k×k symmetric matrices form a space of dimension k(k+1)/2 with the
// Frobenius inner product ⟨A, B⟩ = tr(AᵀB). Its orthonormal basis here is, column by column
// (j = 0..k−1), first the diagonal e_jj, then the off-diagonals (e_ij + e_ji)/√2 for
// i = j+1..k−1. A coefficient vector a maps to S = Σ_m a_m B_m; the inverse map reads
// a_m = ⟨S, B_m⟩. Both maps preserve inner products (‖S‖_F = ‖a‖₂), so an isotropic draw
// in coefficient space is an isotropic draw among symmetric matrices.
//
// All functions are pure; safe to call from any thread.

#include <Eigen/Core>

namespace dpstudio {

// Euclidean (Frobenius) projection onto the PSD cone: symmetrize (A + Aᵀ)/2, then clamp
// the negative eigenvalues to zero. The result is exactly symmetric; its eigenvalues are
// ≥ 0 up to rounding (≈ −1e−16·‖A‖).
Eigen::MatrixXd projectPsd(const Eigen::MatrixXd& A);

// The same, in place on a square block (e.g. a Map over part of a parameter vector).
// Returns true if A was already PSD after symmetrization (then only the symmetrization
// was applied and no reconstruction rounding was introduced).
bool projectPsdInPlace(Eigen::Ref<Eigen::MatrixXd> A);

// Smallest eigenvalue of the symmetric part (A + Aᵀ)/2. For tests and diagnostics.
double minSymmetricEigenvalue(const Eigen::MatrixXd& A);

// k(k+1)/2.
Eigen::Index symmetricBasisDimension(Eigen::Index k);

// Coefficients (length k(k+1)/2, basis order above) → the k×k symmetric matrix.
Eigen::MatrixXd symmetricFromCoefficients(const Eigen::VectorXd& coefficients, Eigen::Index k);

// k×k matrix → its coefficients ⟨A, B_m⟩. For a non-symmetric A this is the coefficient
// vector of its symmetric part (the orthogonal projection onto the symmetric space).
Eigen::VectorXd coefficientsFromSymmetric(const Eigen::MatrixXd& A);

}  // namespace dpstudio
