#include "core/models/lmgc_mixture_loss.h"

#include <cmath>

#include "core/models/huber.h"

namespace dpstudio::lmgc_detail {
namespace {

using Index = Eigen::Index;

// σ = −log Σ_m exp(−s_m), computed from the smallest score so no exponent overflows; with
// weights, π_m = exp(−s_m)/Σ exp(−s_k) = ∂σ/∂s_m.
template <class Row>
double softMinimum(const Row& s, Eigen::VectorXd* weights) {
  const double low = s.minCoeff();
  double sum = 0;
  for (Index m = 0; m < s.size(); ++m) sum += std::exp(low - s[m]);
  if (weights) {
    weights->resize(s.size());
    for (Index m = 0; m < s.size(); ++m) (*weights)[m] = std::exp(low - s[m]) / sum;
  }
  return low - std::log(sum);
}

}  // namespace

Eigen::MatrixXd classSoftMinimum(const Eigen::Ref<const Eigen::MatrixXd>& S, Index components) {
  const Index C = S.cols() / components;
  Eigen::MatrixXd sigma(S.rows(), C);
  for (Index i = 0; i < S.rows(); ++i)
    for (Index c = 0; c < C; ++c) sigma(i, c) = softMinimum(S.row(i).segment(c * components, components), nullptr);
  return sigma;
}

double mixtureLoss(const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::VectorXi>& y,
                   const Eigen::Ref<const Eigen::VectorXi>& own, Index components, double h, Eigen::MatrixXd* W) {
  const Index rows = S.rows(), M = components, C = S.cols() / M;
  if (W) W->setZero(rows, S.cols());
  Eigen::VectorXd weights(M);
  double loss = 0;
  for (Index i = 0; i < rows; ++i) {
    const Index ownColumn = y[i] * M + own[i];
    const double ownScore = S(i, ownColumn);
    for (Index c = 0; c < C; ++c) {
      if (c == y[i]) continue;
      const double margin = softMinimum(S.row(i).segment(c * M, M), W ? &weights : nullptr) - ownScore;
      loss += huber::loss(margin, h);
      if (!W) continue;
      const double slope = huber::derivative(margin, h);
      if (slope == 0) continue;
      W->row(i).segment(c * M, M) += slope * weights.transpose();
      (*W)(i, ownColumn) -= slope;
    }
  }
  return loss;
}

}  // namespace dpstudio::lmgc_detail
