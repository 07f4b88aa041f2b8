#pragma once
// The pairs' part of the interior point's Newton system (lmgc_interior.h): in the class
// matrices' eigenbases V_c, Σ_p κ_p A_pA_pᵀ with A_p = a_ic − a_iy for the pair p = (i, c ≠ y_i)
// and a_ic = coords(V_cᵀx̃_ix̃_iᵀV_c) (lmgc_sym_coordinates.h). Two ways to the same sum
// (m = D(D + 1)/2, C classes, n rows):
//
// - By class bases: the rows' coordinates in each basis (n·D·m a class, every step), then
//   each class block (a, b) summed over its rows: C symmetric products over all n rows and,
//   off the diagonal, full products over the two classes' rows, ~n·m²(3C − 2)/2 flops.
// - By Gram matrices: a_ic = L_c·q_i (lmgc_sym_coordinates.h's basisChange), q_i = coords(x̃_ix̃_iᵀ)
//   the same for every class and every step. A pair (i, c) adds κ_ic q_iq_iᵀ to the blocks
//   (c, c) and (y_i, y_i) in their bases and subtracts it from (y_i, c), so with one
//   symmetric sum a pair of classes, G_ab = Σ_{i∈a} κ_ib q_iq_iᵀ + Σ_{i∈b} κ_ia q_iq_iᵀ:
//     H_aa += L_a(Σ_{b≠a} G_ab)L_aᵀ,  H_ab = −L_aG_abL_bᵀ,
//   (C − 1)·n·m²/2 flops for the sums and C(C + 1)·m³ for the changes of basis.
//
// The cheaper by that count is taken: shuttle (32 625 rows, m = 55, 7 classes) by Gram
// matrices, a third of the flops; raw breast cancer (427 rows, m = 496, 2 classes) by class
// bases, where the changes of basis would cost three times the rows' sums. Either way the
// work is split into the same tasks on any number of threads, so the bits do not depend on it.

#include <vector>

#include <Eigen/Core>

#include "core/models/lmgc_sym_coordinates.h"

namespace dpstudio::lmgc_detail {

class PairCurvature {
 public:
  // augmented: the rows x̃ in class order, class c's rows [classStart[c], classStart[c + 1]);
  // outer: their coords(x̃x̃ᵀ) (outerProductCoordinates). Both must outlive this.
  PairCurvature(const SymmetricPairs& pairs, const Eigen::MatrixXd& augmented, const Eigen::MatrixXd& outer,
                std::vector<Eigen::Index> classStart);

  bool byGramMatrices() const { return byGram_; }

  // Adds the sum's upper triangle to H (C·m square, class blocks of m × m) for the pairs'
  // curvatures kappa (n × C, ≥ 0, zero on each row's own class), the bases V_c and their
  // basis changes L_c.
  void addTo(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& V,
             const std::vector<Eigen::MatrixXd>& L);

 private:
  void byGram(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& L);
  void byClassBases(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& V);
  // Class c's rows.
  Eigen::Index start(Eigen::Index c) const { return classStart_[static_cast<std::size_t>(c)]; }
  Eigen::Index end(Eigen::Index c) const { return classStart_[static_cast<std::size_t>(c + 1)]; }

  const SymmetricPairs& pairs_;
  const Eigen::MatrixXd& augmented_;
  const Eigen::MatrixXd& outer_;
  std::vector<Eigen::Index> classStart_;
  Eigen::Index C_;
  bool byGram_;
  // Kept across steps, the same sizes every step (fresh pages each step cost more than the
  // products): G_ab for the pairs of classes a < b, or the rows' coordinates a class.
  std::vector<Eigen::MatrixXd> gram_, coordinates_;
};

}  // namespace dpstudio::lmgc_detail
