#pragma once
// LMGC's training problem (lmgc_interior.h's form, whitened coordinates) over low-rank
// factors: x_c = L_c L_cᵀ with L_c ∈ R^{(d+1)×r_c} (Burer & Monteiro 2003), minimized by
// L-BFGS. Internal to lmgc_solver.cpp, which uses it to accelerate, never to decide.
//
// Why. At the minimizer the x_c have low rank (digits: 8–17 of 65), and projected gradient
// over the full cone pays for all of it: each evaluation forms the scores X̃x_c of every class
// (n·C·(d+1)² flops) and each step an eigendecomposition per class, and first-order steps
// need ~10³ iterations on such ill-conditioned problems. Over factors of the minimizer's
// rank the scores are ‖L_cᵀx̃‖² (n·(d+1)·Σr_c flops), the cone constraint is gone, and L-BFGS
// sees the curvature. The problem in L is not convex, but its minimizers with rank-deficient
// or exactly-ranked L are the convex problem's (Burer & Monteiro 2005), and whatever it
// returns is feasible (x_c = L_cL_cᵀ ⪰ 0).
//
// Contract: the caller keeps the stopping rule. This only moves x (feasible in, feasible
// out) to a point with a lower J: lmgc_solver.cpp measures the result with the full
// problem's projected-gradient step and hands it back to projected gradient, so a wrong rank
// or an early stop costs time, never correctness.

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/models/lmgc_interior.h"
#include "core/models/lmgc_sparse_rows.h"
#include "core/optim/lbfgs.h"

namespace dpstudio {

// Each class's rank for a start x: the number of eigenvalues of x_c above `relative` times
// the largest of all classes, plus `extra` (at most d + 1, at least 1).
std::vector<Index> lmgcFactorRanks(const LmgcModel& model, const Eigen::VectorXd& x, double relative, Index extra);

// Minimizes J over the factors of the given ranks, from x's best approximation of those
// ranks (its top eigenpairs); x receives L_cL_cᵀ (left as it was if L-BFGS produced
// non-finite factors). The summary is L-BFGS's over the factors; the caller compares J.
OptimizeSummary minimizeLmgcFactored(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                     const std::vector<Index>& ranks, const LbfgsOptions& options,
                                     const IterationCallback& callback = {});

// J and its gradient over the factors L = [L_0 … L_{C−1}] (D × R, R = Σ r_c, column-major)
// with x_c = L_cL_cᵀ: what minimizeLmgcFactored minimizes. The regularizer
// R(x) = (q/2)‖TᵀxT‖² + ⟨c, TᵀxT⟩ becomes, with P = TTᵀ and E_c = T c_c Tᵀ,
// (q/2)‖L_cᵀPL_c‖² + tr(L_cᵀE_cL_c) per class: r_c × r_c work instead of D × D.
//
// Safe screening (lmgc_screening.h): the scores of every row are kept at a reference L⁰, and
// with ε_c = ‖L_c − L⁰_c‖_F each score moves by at most ‖x̃‖ε_c(2√s⁰_c + ‖x̃‖ε_c); rows that
// provably stay beyond every margin are skipped (their terms are exactly zero). The
// reference is renewed when most rows had to be computed anyway, or every kRefreshEvery
// evaluations.
//
// With the problem's sparse rows (lmgc_sparse_rows.h) the products go through them; with its
// counts (lmgc_merged_rows.h) each row's terms are multiplied by its count.
// Rows are taken in chunks of a fixed size, in parallel (core/util/parallel.h); partials are
// added in chunk order, so results do not depend on the thread count.
class LmgcFactoredObjective {
 public:
  // References must outlive the objective.
  LmgcFactoredObjective(const LmgcInteriorProblem& problem, std::vector<Index> ranks);

  double operator()(const Eigen::VectorXd& factors, Eigen::VectorXd& grad);

  Index width() const { return offsets_.back(); }
  Index offset(Index c) const { return offsets_[static_cast<std::size_t>(c)]; }
  Index rank(Index c) const { return ranks_[static_cast<std::size_t>(c)]; }
  // Rows whose scores the last evaluation computed (the rest were screened out).
  Index computedRows() const { return computed_; }

  static constexpr int kRefreshEvery = 100;

 private:
  using RowMajorMatrix = LmgcSparseRows::RowMajorMatrix;
  struct Chunk {
    double loss = 0;
    Index computed = 0;
    Eigen::MatrixXd S, W;
    RowMajorMatrix Xg;  // the computed rows, when some of the chunk's were screened out
    RowMajorMatrix U, gradient;  // with sparse rows, the gradient in their own coordinates
    Eigen::VectorXi labels;
    Eigen::VectorXd counts;  // with the problem's counts
    std::vector<Index> rows;
  };
  // Rows a chunk; on sparse rows more, as each chunk's gradient (D × R) is then summed at
  // about the cost of its products (a9a: 256-row chunks spent 8 % of the time adding them).
  static constexpr Index kChunkRows = 256, kSparseChunkRows = 1024;
  Index chunkRows_ = kChunkRows;

  bool screenedOut(Index row, const Eigen::VectorXd& drift) const;
  void lossChunk(Index k, bool refresh, const Eigen::VectorXd& drift);

  const LmgcInteriorProblem& problem_;
  std::vector<Index> ranks_, offsets_;
  RowMajorMatrix Xt_;  // the augmented rows, unless they are sparse: a row's entries together
  Eigen::MatrixXd P_;
  RowMajorMatrix pulled_;   // with sparse rows: TᵀL
  Eigen::VectorXd rowNorms_;
  std::vector<Eigen::MatrixXd> E_;
  Eigen::MatrixXd L_, reference_, referenceScores_;
  int sinceRefresh_ = -1;  // < 0: no reference yet
  Index computed_ = 0;
  std::vector<Chunk> chunks_;
};

// The stopping measure to show while a round of L-BFGS over factors runs (its iterations do
// not compute projected gradient's measure; a round takes seconds on tens of thousands of
// rows): the measure before the round times fall^(1 − e^(−k/budget)) after k of the round's
// reports, so that a progress bar read off the measure keeps moving, more slowly once the
// round has used its usual budget. An estimate for people, never a stopping test.
// The falls: a later round and its polish divide the measure by 5–10 on a9a; the first
// round with its Newton end game and 10-step polish by 17 (DNA), 39 (digits at λ = 1e-3,
// range-declared), 72 (a9a) and 88 (MNIST-50) where the Newton method stalls, and by far more
// where it converges (digits raw). Smaller than those, so the shown measure rarely runs ahead
// of the next real one (where it does, the bar holds still until the estimate catches up).
inline constexpr double kLmgcFirstRoundFall = 1.0 / 16;
inline constexpr double kLmgcRoundFall = 0.25;
inline double lmgcMeasureDuringRound(double before, int reports, int budget, double fall) {
  const double share = budget > 0 ? 1 - std::exp(-static_cast<double>(std::max(reports, 0)) / budget) : 1.0;
  return before * std::pow(fall, share);
}

}  // namespace dpstudio
