#include "core/models/lmgc_dual.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/linalg/psd.h"
#include "core/models/huber.h"

namespace dpstudio {

double LmgcDualityGap::relative() const {
  return gap() / std::max(std::abs(primal), std::numeric_limits<double>::min());
}

LmgcDualityGap lmgcDualityGap(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                              const ObjectiveTerms& terms, const Eigen::VectorXd& theta) {
  const Eigen::Index n = X.rows(), C = model.classes(), D = model.augmentedDim();
  const double h = model.huberWidth();
  const double w = terms.scale == LossScale::Sum ? 1.0 : 1.0 / static_cast<double>(std::max<Eigen::Index>(n, 1));
  const Eigen::VectorXd c = terms.linear.size() == theta.size() ? terms.linear : Eigen::VectorXd::Zero(theta.size());
  const Objective objective(model, X, y, terms);
  LmgcDualityGap out;
  out.primal = objective.value(theta);

  // α_p = −H'(m_p) = clamp((1 + h − m_p)/(2h), 0, 1); Σ_p α_pA_p = −∇(Σ_p H(m_p)) is the
  // loss's own gradient, so take it from lossSum.
  const Eigen::MatrixXd s = -model.scores(theta, X);
  double pairs = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index k = 0; k < C; ++k) {
      if (k == y[i]) continue;
      const double alpha = std::clamp((1 + h - (s(i, k) - s(i, y[i]))) / (2 * h), 0.0, 1.0);
      pairs += huber::conjugateTerm(alpha, h);
    }
  Eigen::VectorXd lossGrad;
  model.lossSum(theta, X, y, &lossGrad);
  const Eigen::VectorXd bracket = -w * lossGrad - c;  // wΣα_pA_p − c
  if (!(terms.quadratic > 0)) {
    out.dual = -std::numeric_limits<double>::infinity();
    return out;
  }
  double squared = 0;
  for (Eigen::Index k = 0; k < C; ++k) {
    const Eigen::Map<const Eigen::MatrixXd> b(bracket.data() + k * D * D, D, D);
    squared += projectPsd(0.5 * (b + b.transpose())).squaredNorm();
  }
  out.dual = w * pairs - squared / (2 * terms.quadratic);
  return out;
}

}  // namespace dpstudio
