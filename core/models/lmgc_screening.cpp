#include "core/models/lmgc_screening.h"

#include "core/models/lmgc_pairs.h"

namespace dpstudio {

ScreenedLmgcLoss::ScreenedLmgcLoss(const LmgcModel& model, const Eigen::MatrixXd& rows, const Eigen::VectorXi& y,
                                   const LmgcSparseRows* sparse, const Eigen::VectorXd* counts)
    : model_(model),
      rows_(rows),
      y_(y),
      sparse_(model.components() == 1 ? sparse : nullptr),
      counts_(counts),
      squaredNorms_(LmgcModel::augmentedRows(rows).rowwise().squaredNorm()) {}

// The loss and its gradient over the rows `kept` (every row when empty) through the sparse
// rows, keeping their scores as the reference when all rows are computed.
double ScreenedLmgcLoss::lossOn(const Eigen::VectorXd& theta, const std::vector<Index>& kept, Eigen::VectorXd& grad) {
  const Eigen::MatrixXd S = sparse_->scores(theta, model_.classes(), kept);
  if (kept.empty()) referenceScores_ = S;
  const Eigen::VectorXd* counts = gatherLabels(kept, S.rows());
  Eigen::MatrixXd W;
  const double loss =
      lmgc_detail::pairLoss(S, subsetLabels_, model_.huberWidth(), &W, nullptr, counts ? counts->data() : nullptr);
  grad = sparse_->weightedGram(W, kept);
  return loss;
}

double ScreenedLmgcLoss::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) {
  const Index n = rows_.rows(), C = model_.classes(), D = model_.augmentedDim();
  if (sinceRefresh_ < 0 || sinceRefresh_ >= kRefreshEvery || (sinceRefresh_ > 0 && 2 * computed_ > n)) {
    reference_ = theta;
    sinceRefresh_ = 0;
    computed_ = n;
    if (sparse_) return lossOn(theta, {}, grad);
    const double loss = model_.lossSumAndScores(theta, rows_, y_, referenceScores_, &grad, counts_);
    referenceScores_ = -referenceScores_;
    return loss;
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
  if (sparse_) {
    if (kept.empty()) {  // every row is beyond every margin: the loss and its gradient are 0
      grad.setZero(theta.size());
      return 0;
    }
    return lossOn(theta, kept, grad);
  }
  subset_.resize(computed_, rows_.cols());
  for (Index j = 0; j < computed_; ++j) subset_.row(j) = rows_.row(kept[static_cast<std::size_t>(j)]);
  const Eigen::VectorXd* counts = gatherLabels(kept, computed_);
  return model_.countedLossSum(theta, subset_, subsetLabels_, &grad, counts);
}

const Eigen::VectorXd* ScreenedLmgcLoss::gatherLabels(const std::vector<Index>& kept, Index count) {
  subsetLabels_.resize(count);
  subsetCounts_.resize(counts_ ? count : 0);
  for (Index j = 0; j < count; ++j) {
    const Index i = kept.empty() ? j : kept[static_cast<std::size_t>(j)];
    subsetLabels_[j] = y_[i];
    if (counts_) subsetCounts_[j] = (*counts_)[i];
  }
  return counts_ ? &subsetCounts_ : nullptr;
}

}  // namespace dpstudio
