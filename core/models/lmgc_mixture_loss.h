#pragma once
// Internal to core/models (lmgc.cpp): the loss of LMGC with M components per class as a
// function of the component scores (docs/algorithms.md §2.3, "Mixtures"; Sha & Saul 2006).
//
// Scores S (rows × C·M), column c·M + m the score x̃ᵀΦ_{c,m}x̃ of class c's component m. A
// class's score is the soft minimum over its components, σ_c = −log Σ_m exp(−s_{c,m}) (≤ the
// smallest, by at most log M), and a row of class y whose own component is p is charged
// Σ_{c≠y} H_h(σ_c − s_{y,p}). σ_c is concave in the parameters (a log-sum-exp of linear
// functions, negated), s_{y,p} linear, and H_h convex and non-increasing, so each term is
// convex — which is why the own component p is fixed in advance (lmgc_components.h).

#include <Eigen/Core>

namespace dpstudio::lmgc_detail {

// σ (rows × C) of component scores S (rows × C·M): the soft minimum over each class's columns.
Eigen::MatrixXd classSoftMinimum(const Eigen::Ref<const Eigen::MatrixXd>& S, Eigen::Index components);

// Σ_i Σ_{c≠y_i} H_h(σ_c(i) − S(i, y_i·M + p_i)); with W (rows × C·M), W(i, ·) = ∂ℓ_i/∂S(i, ·):
// H_h'(margin)·π_{c,m} on class c's columns (π the soft minimum's weights, summing to 1), and
// minus the sum of the H_h' on the own component's column.
double mixtureLoss(const Eigen::Ref<const Eigen::MatrixXd>& S, const Eigen::Ref<const Eigen::VectorXi>& y,
                   const Eigen::Ref<const Eigen::VectorXi>& own, Eigen::Index components, double h,
                   Eigen::MatrixXd* W);

}  // namespace dpstudio::lmgc_detail
