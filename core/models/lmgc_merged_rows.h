#pragma once
// Identical training rows merged into one with a count. Internal to core/models
// (lmgc_solver.cpp and what it drives).
//
// LMGC's loss is a sum over the rows, so k rows with the same features and label contribute
// k times one row's term, to the loss, its gradient and its curvature alike: the objective
// over the distinct rows weighted by their counts is the same function, and its minimizer the
// same point. Data of one-hot and binned features repeat rows often (a9a: 32 561 rows,
// 26 008 distinct), and every per-row cost of the solver falls with them.
//
// Rows are equal when their features are equal bit for bit (−0 and +0 stay apart, which
// costs a merge, never a wrong one) and their labels are equal.

#include <optional>

#include <Eigen/Core>

namespace dpstudio {

struct LmgcMergedRows {
  Eigen::MatrixXd rows;    // the distinct rows, in the order of their first appearance
  Eigen::VectorXi y;
  Eigen::VectorXd counts;  // how many of the given rows each stands for (≥ 1; they sum to n)

  // Below this share of distinct rows merging pays for the second copy of the rows it keeps.
  static constexpr double kWorthwhileShare = 0.95;

  // The merged rows when at most kWorthwhileShare of the rows are distinct; nullopt otherwise.
  static std::optional<LmgcMergedRows> ifWorthwhile(const Eigen::MatrixXd& X, const Eigen::VectorXi& y);
};

}  // namespace dpstudio
