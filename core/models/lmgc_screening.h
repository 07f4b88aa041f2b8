#pragma once
// Safe screening of LMGC's loss: skip the rows whose Huber terms are provably zero.
//
// Near a minimizer most rows sit beyond every margin (digits: two thirds of them), where the
// Huber hinge and its derivative are exactly 0 (margin > 1 + h). Keeping every row's scores
// at a reference point and a bound on how far each score can have moved since, a row whose
// every margin stays above 1 + h under the bound contributes exactly nothing: the loss and
// the gradient over the remaining rows are the full sums. Internal to core/models
// (lmgc_solver.cpp, lmgc_factored.cpp); each caller bounds the score changes its own way.

#include <Eigen/Core>

#include "core/models/lmgc.h"
#include "core/models/lmgc_sparse_rows.h"

namespace dpstudio {

// True when every margin s_c − s_y (c ≠ y) of a row with reference scores `reference` stays
// above 1 + h while each score moves by at most change[c]. A relative margin of 1e-9 covers
// the rounding of the reference scores and of the bound.
inline bool provablyBeyondEveryMargin(const Eigen::Ref<const Eigen::RowVectorXd>& reference, Index y,
                                      const Eigen::Ref<const Eigen::VectorXd>& change, double h) {
  for (Index c = 0; c < reference.size(); ++c) {
    if (c == y) continue;
    const double slack = 1e-9 * (reference[y] + reference[c] + 1.0);
    if (reference[c] - reference[y] - change[c] - change[y] <= 1.0 + h + slack) return false;
  }
  return true;
}

// LmgcModel::lossSum over fixed rows, evaluated on the rows that cannot be screened out.
// For the full parameterization: |s_c − s⁰_c| = |x̃ᵀ(Φ_c − Φ⁰_c)x̃| ≤ ‖x̃‖²‖Φ_c − Φ⁰_c‖_F.
// The reference (the point and all rows' scores) is renewed when the last evaluation had to
// compute most rows anyway, or every kRefreshEvery evaluations. Same value and gradient as
// lossSum on all rows, up to the order of summation (fixed for given inputs and calls).
class ScreenedLmgcLoss {
 public:
  // References must outlive the object. With `sparse` (the same rows, lmgc_sparse_rows.h;
  // one Gaussian a class) the scores and the gradient are taken through it; with `counts`
  // (one Gaussian a class) row i stands for counts[i] identical rows (lmgc_merged_rows.h).
  ScreenedLmgcLoss(const LmgcModel& model, const Eigen::MatrixXd& rows, const Eigen::VectorXi& y,
                   const LmgcSparseRows* sparse = nullptr, const Eigen::VectorXd* counts = nullptr);

  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad);

  // Rows the last evaluation computed.
  Index computedRows() const { return computed_; }

  static constexpr int kRefreshEvery = 100;

 private:
  const LmgcModel& model_;
  const Eigen::MatrixXd& rows_;
  const Eigen::VectorXi& y_;
  const LmgcSparseRows* sparse_;
  const Eigen::VectorXd* counts_;
  Eigen::VectorXd squaredNorms_;  // ‖x̃_i‖²
  Eigen::VectorXd reference_;
  Eigen::MatrixXd referenceScores_;
  double lossOn(const Eigen::VectorXd& theta, const std::vector<Index>& kept, Eigen::VectorXd& grad);
  // The labels and counts of the rows `kept` (the first `count` rows when empty) into
  // subsetLabels_ and subsetCounts_; the counts pointer for the loss (null without counts).
  const Eigen::VectorXd* gatherLabels(const std::vector<Index>& kept, Index count);

  int sinceRefresh_ = -1;  // < 0: no reference yet
  Index computed_ = 0;
  Eigen::MatrixXd subset_;
  Eigen::VectorXi subsetLabels_;
  Eigen::VectorXd subsetCounts_;
};

}  // namespace dpstudio
