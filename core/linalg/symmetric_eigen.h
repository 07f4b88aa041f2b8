#pragma once
// The eigendecomposition of a symmetric matrix, compiled in one place. Eigen's
// SelfAdjointEigenSolver costs each file that instantiates it 15–25 s of compile time at -O3
// (GCC 12) — a dozen files of core and the tests did, for every build CI makes — so every
// caller goes through these functions instead. Like Eigen's solver they read only the lower
// triangle: symmetrize first when the input may not be exactly symmetric.
//
// Pure; safe to call from any thread.

#include <Eigen/Core>

namespace dpstudio {

struct SymmetricEigen {
  Eigen::VectorXd values;   // ascending
  Eigen::MatrixXd vectors;  // orthonormal; column j belongs to values[j]
};

// Eigenvalues and eigenvectors (Eigen's tridiagonal QR, as SelfAdjointEigenSolver::compute).
SymmetricEigen symmetricEigen(const Eigen::Ref<const Eigen::MatrixXd>& A);

// Eigenvalues only, ascending (cheaper: no vectors accumulated).
Eigen::VectorXd symmetricEigenvalues(const Eigen::Ref<const Eigen::MatrixXd>& A);

struct SymmetricEigen2x2 {
  Eigen::Vector2d values;   // ascending
  Eigen::Matrix2d vectors;  // orthonormal; column j belongs to values[j]
};

// The 2×2 case (the view's ellipses), by the same iterative method.
SymmetricEigen2x2 symmetricEigen2x2(const Eigen::Matrix2d& A);

}  // namespace dpstudio
