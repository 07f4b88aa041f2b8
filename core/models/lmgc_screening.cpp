#include "core/models/lmgc_screening.h"

namespace dpstudio {

ScreenedLmgcLoss::ScreenedLmgcLoss(const LmgcModel& model, const Eigen::MatrixXd& rows, const Eigen::VectorXi& y)
    : model_(model), rows_(rows), y_(y), squaredNorms_(LmgcModel::augmentedRows(rows).rowwise().squaredNorm()) {}

double ScreenedLmgcLoss::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) {
  const Index n = rows_.rows(), C = model_.classes(), D = model_.augmentedDim();
  if (sinceRefresh_ < 0 || sinceRefresh_ >= kRefreshEvery || (sinceRefresh_ > 0 && 2 * computed_ > n)) {
    reference_ = theta;
    referenceScores_ = -model_.scores(theta, rows_);
    sinceRefresh_ = 0;
    computed_ = n;
    return model_.lossSum(theta, rows_, y_, &grad);
  }
  ++sinceRefresh_;
  Eigen::VectorXd drift(C);
  for (Index c = 0; c < C; ++c) drift[c] = (theta.segment(c * D * D, D * D) - reference_.segment(c * D * D, D * D)).norm();
  std::vector<Index> kept;
  kept.reserve(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i)
    if (!provablyBeyondEveryMargin(referenceScores_.row(i), y_[i], squaredNorms_[i] * drift, model_.huberWidth()))
      kept.push_back(i);
  computed_ = static_cast<Index>(kept.size());
  subset_.resize(computed_, rows_.cols());
  subsetLabels_.resize(computed_);
  for (Index j = 0; j < computed_; ++j) {
    subset_.row(j) = rows_.row(kept[static_cast<std::size_t>(j)]);
    subsetLabels_[j] = y_[kept[static_cast<std::size_t>(j)]];
  }
  return model_.lossSum(theta, subset_, subsetLabels_, &grad);
}

}  // namespace dpstudio
