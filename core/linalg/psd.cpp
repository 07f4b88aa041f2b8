#include "core/linalg/psd.h"

#include <cmath>
#include <numbers>

#include "core/linalg/symmetric_eigen.h"

namespace dpstudio {

bool projectPsdInPlace(Eigen::Ref<Eigen::MatrixXd> A) {
  eigen_assert(A.rows() == A.cols());
  // Symmetrize first: the eigen-solver reads only one triangle, so an asymmetric input
  // would otherwise be projected as if its other triangle did not exist.
  const Eigen::MatrixXd sym = 0.5 * (A + A.transpose());
  const SymmetricEigen eig = symmetricEigen(sym);
  const Eigen::VectorXd& lambda = eig.values;  // ascending
  if (lambda.size() == 0 || lambda[0] >= 0) {
    A = sym;
    return true;
  }
  // Rebuild from the non-negative part only: V₊ diag(λ₊) V₊ᵀ, one rank-p product.
  Eigen::Index firstPositive = 0;
  while (firstPositive < lambda.size() && lambda[firstPositive] <= 0) ++firstPositive;
  const Eigen::Index p = lambda.size() - firstPositive;
  if (p == 0) {
    A.setZero();
    return false;
  }
  const auto V = eig.vectors.rightCols(p);
  const Eigen::MatrixXd scaled = V * lambda.tail(p).cwiseSqrt().asDiagonal();
  A.noalias() = scaled * scaled.transpose();
  // The product is symmetric in exact arithmetic; make it so in floating point too.
  A = 0.5 * (A + A.transpose()).eval();
  return false;
}

Eigen::MatrixXd projectPsd(const Eigen::MatrixXd& A) {
  Eigen::MatrixXd result = A;
  projectPsdInPlace(result);
  return result;
}

double minSymmetricEigenvalue(const Eigen::MatrixXd& A) {
  if (A.size() == 0) return 0.0;
  const Eigen::MatrixXd sym = 0.5 * (A + A.transpose());
  return symmetricEigenvalues(sym)[0];
}

Eigen::Index symmetricBasisDimension(Eigen::Index k) { return k * (k + 1) / 2; }

Eigen::MatrixXd symmetricFromCoefficients(const Eigen::VectorXd& coefficients, Eigen::Index k) {
  eigen_assert(coefficients.size() == symmetricBasisDimension(k));
  const double invSqrt2 = 1.0 / std::numbers::sqrt2;
  Eigen::MatrixXd S(k, k);
  Eigen::Index m = 0;
  for (Eigen::Index j = 0; j < k; ++j) {
    S(j, j) = coefficients[m++];
    for (Eigen::Index i = j + 1; i < k; ++i) {
      S(i, j) = S(j, i) = coefficients[m++] * invSqrt2;
    }
  }
  return S;
}

Eigen::VectorXd coefficientsFromSymmetric(const Eigen::MatrixXd& A) {
  eigen_assert(A.rows() == A.cols());
  const Eigen::Index k = A.rows();
  const double invSqrt2 = 1.0 / std::numbers::sqrt2;
  Eigen::VectorXd a(symmetricBasisDimension(k));
  Eigen::Index m = 0;
  for (Eigen::Index j = 0; j < k; ++j) {
    a[m++] = A(j, j);
    for (Eigen::Index i = j + 1; i < k; ++i) a[m++] = (A(i, j) + A(j, i)) * invSqrt2;
  }
  return a;
}

}  // namespace dpstudio
