#pragma once
// Internal to core/models (lmgc.cpp, lmgc_factored.cpp, lmgc_solver.cpp): LMGC's loss as a
// function of the scores s_c(x_i) — the pairs (i, c ≠ y_i) and their Huber hinges of the
// margins s_c − s_{y_i} (lmgc.h) — in one place, whichever parameterization gave the scores.

#include <Eigen/Core>

namespace dpstudio::lmgc_detail {

// Σ_i Σ_{c≠y_i} H_h(S(i, c) − S(i, y_i)) over the rows of S (labels y, one a row); with W,
// also W(i, c) = ∂ℓ_i/∂s_c; with curvature, each pair's H_h''(margin) at (i, c ≠ y_i), 0 on
// (i, y_i). With counts (one a row, lmgc_merged_rows.h) row i stands for counts[i] identical
// rows: its loss, W and curvature are multiplied by it. O(nC): small beside the products
// that give the scores.
double pairLoss(const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::VectorXi>& y, double h,
                Eigen::MatrixXd* W, Eigen::MatrixXd* curvature = nullptr, const double* counts = nullptr);

// d/dκ Σ_i Σ_{c≠y_i} H_h(κ·(S(i, c) − S(i, y_i))): the loss's slope along the ray κθ, on which
// the scores, and so the margins, are linear in κ. Counts as pairLoss's.
double pairLossSlopeAlongRay(const Eigen::MatrixXd& S, const Eigen::VectorXi& y, double h, double kappa,
                             const double* counts = nullptr);

}  // namespace dpstudio::lmgc_detail
