#include "core/models/lmgc_pairs.h"

#include "core/models/huber.h"

namespace dpstudio::lmgc_detail {

using Index = Eigen::Index;

double pairLoss(const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::VectorXi>& y, double h,
                Eigen::MatrixXd* W, Eigen::MatrixXd* curvature, const double* counts) {
  const Index b = S.rows(), C = S.cols();
  double loss = 0;
  if (W) W->setZero(b, C);
  if (curvature) curvature->setZero(b, C);
  for (Index i = 0; i < b; ++i) {
    const Index yi = y[i];
    const double own = S(i, yi), count = counts ? counts[i] : 1.0;  // × 1 is exact: the same bits without counts
    for (Index c = 0; c < C; ++c) {
      if (c == yi) continue;
      const double margin = S(i, c) - own;
      loss += count * huber::loss(margin, h);
      if (W) {
        const double slope = count * huber::derivative(margin, h);
        (*W)(i, c) = slope;
        (*W)(i, yi) -= slope;
      }
      if (curvature) (*curvature)(i, c) = count * huber::secondDerivative(margin, h);
    }
  }
  return loss;
}

double pairLossSlopeAlongRay(const Eigen::MatrixXd& S, const Eigen::VectorXi& y, double h, double kappa,
                             const double* counts) {
  double slope = 0;
  for (Index c = 0; c < S.cols(); ++c)
    for (Index i = 0; i < S.rows(); ++i) {
      if (c == y[i]) continue;
      const double margin = S(i, c) - S(i, y[i]);
      slope += (counts ? counts[i] : 1.0) * margin * huber::derivative(kappa * margin, h);
    }
  return slope;
}

}  // namespace dpstudio::lmgc_detail
