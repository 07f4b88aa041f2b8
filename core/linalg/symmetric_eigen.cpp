#include "core/linalg/symmetric_eigen.h"

#include <Eigen/Eigenvalues>

namespace dpstudio {

SymmetricEigen symmetricEigen(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(A);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

Eigen::VectorXd symmetricEigenvalues(const Eigen::Ref<const Eigen::MatrixXd>& A) {
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(A, Eigen::EigenvaluesOnly).eigenvalues();
}

SymmetricEigen2x2 symmetricEigen2x2(const Eigen::Matrix2d& A) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> solver(A);
  return {solver.eigenvalues(), solver.eigenvectors()};
}

}  // namespace dpstudio
