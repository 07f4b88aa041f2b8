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
//   (c, c) and (y_i, y_i) in their bases and subtracts it from (y_i, c), so with one sum a
//   pair of classes, G_ab = Σ_{i∈a} κ_ib q_iq_iᵀ + Σ_{i∈b} κ_ia q_iq_iᵀ:
//     H_aa += L_a(Σ_{b≠a} G_ab)L_aᵀ,  H_ab = −L_aG_abL_bᵀ.
//   G_ab's entries are sums of the rows' quartic monomials x̃_kx̃_lx̃_k'x̃_l', of which there are
//   C(D + 3, 4) ≈ m²/6: each class's rows are summed once with every class's κ as weights,
//   n·C·C(D + 3, 4) flops, plus C(C + 1)·m³ for the changes of basis.
//
// The cheaper by that count is taken: shuttle (32 625 rows, D = 10, 7 classes) by Gram
// matrices, a sixth of the flops (6.2–6.8 → 5.2–6.3 s against symmetric products of the
// q_i, 14.2–14.4 s by class bases); raw breast cancer (427 rows, D = 31, 2 classes) by class
// bases, where the changes of basis would cost several times the rows' sums. Either way the
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
  void prepareQuartics();
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
  // The Gram way sums quartic monomials x̃_kx̃_lx̃_k'x̃_l' (k ≤ l ≤ k' ≤ l': C(D + 3, 4) of them,
  // against m(m + 1)/2 entries of a q_iq_iᵀ) weighted by each class's κ, over chunks of a
  // class's rows: quartic t is q_α·q_β for quarticFactors_[t] = (α, β), and G_ab's entry
  // (γ, δ) is quarticScale_(γ, δ) times quartic quarticOf_(γ, δ)'s sum.
  struct RowTask {
    Eigen::Index own, first, count;
  };
  std::vector<std::pair<Eigen::Index, Eigen::Index>> quarticFactors_;
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> quarticOf_;
  Eigen::MatrixXd quarticScale_;
  std::vector<RowTask> tasks_;
  std::vector<Eigen::MatrixXd> partials_;
};

}  // namespace dpstudio::lmgc_detail
