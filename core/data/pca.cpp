#include "core/data/pca.h"

#include <algorithm>

#include "core/linalg/symmetric_eigen.h"

namespace dpstudio {

Eigen::MatrixXd principalAxes(const Eigen::MatrixXd& centred, Eigen::Index k) {
  const Eigen::MatrixXd scatter = centred.transpose() * centred;
  const SymmetricEigen solver = symmetricEigen(scatter);
  const Eigen::Index d = scatter.rows();
  k = std::min(k, d);
  Eigen::MatrixXd axes(d, k);
  for (Eigen::Index j = 0; j < k; ++j) {
    Eigen::VectorXd axis = solver.vectors.col(d - 1 - j);
    Eigen::Index largest = 0;
    axis.cwiseAbs().maxCoeff(&largest);
    if (axis[largest] < 0) axis = -axis;
    axes.col(j) = axis;
  }
  return axes;
}

}  // namespace dpstudio
