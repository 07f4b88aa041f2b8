#pragma once
// Internal to lmgc_solver.cpp: the minimizer of an LMGC mixture's training problem (lmgc.h,
// "Mixtures"; whitened coordinates, lmgc_solver.h).
//
// Why. A mixture's problem has no interior-point start and no pair-loss screening (those
// know one matrix a class), and accelerated projected gradient alone is slow on it (digits,
// M = 3: ~1100 iterations, each with 30 eigendecompositions). At the minimizer the blocks
// have low rank, as for one Gaussian a class (lmgc_factored.h): over factors Φ_b = L_bL_bᵀ,
// L_b ∈ R^{D×r_b}, the cone constraint is gone, L-BFGS sees the curvature, a score is
// ‖L_bᵀx̃‖² (n·D·r_b flops instead of n·D²) and the L-BFGS memory holds Σ_b D·r_b numbers a
// pair instead of B·D². Minimizers over rank-deficient factors are the convex problem's
// (Burer & Monteiro 2005); the ranks are read off the point (as for one Gaussian, with a spare
// column), and a wrong rank or an early stop costs time, never correctness: projected
// gradient over the full cone measures and finishes every round.
//
// Schedule: a few projected-gradient steps from the warm start (its blocks are full-rank),
// then rounds of L-BFGS over the factors of the ranks read off the point and a few projected-
// gradient steps, until the caller's measure holds; the last round polishes to the end (the
// counts and why: lmgc_mixture_solver.cpp). Digits, M = 3, R = 128, whole process: 14.2–15.5 s
// over square factors, 3.9–4.9 s so (docs/performance.md).
//
// Rows are taken in chunks of a fixed size, in parallel (core/util/parallel.h); partials are
// added in chunk order, so results do not depend on the thread count.

#include <vector>

#include <Eigen/Core>

#include "core/models/lmgc_sparse_rows.h"
#include "core/optim/optimizer.h"
#include "core/optim/projected_gradient.h"

namespace dpstudio {

// References must outlive the problem.
struct LmgcMixtureProblem {
  const Eigen::MatrixXd& rows;  // the rows the loss sees (n × d), whitened
  const Eigen::VectorXi& y;     // labels in [0, classes)
  const Eigen::VectorXi& own;   // each row's own component within its class, in [0, components)
  Eigen::Index classes = 2;
  Eigen::Index components = 2;
  double huberWidth = 0.5;
  double weight = 1;     // w: J = w·Σ_i ℓ_i + R
  double quadratic = 0;  // q
  const Eigen::MatrixXd& metric;  // P = TTᵀ: R = Σ_b (q/2)⟨Px_bP, x_b⟩ + ⟨E_b, x_b⟩
  const Eigen::VectorXd& linear;  // E_b stacked as θ; empty = 0
  // The rows before whitening, when sparse enough to evaluate through (lmgc_sparse_rows.h).
  const LmgcSparseRows* sparse = nullptr;
};

// J over factors L = [L_0 … L_{B−1}] (D × Σr_b, column-major), x_b = L_bL_bᵀ, B = classes ×
// components blocks in θ's order.
class LmgcMixtureFactoredObjective {
 public:
  LmgcMixtureFactoredObjective(const LmgcMixtureProblem& problem, std::vector<Eigen::Index> ranks);
  double operator()(const Eigen::VectorXd& factors, Eigen::VectorXd& grad);
  Eigen::Index width() const { return offsets_.back(); }

 private:
  using RowMajorMatrix = LmgcSparseRows::RowMajorMatrix;
  struct Chunk {
    Eigen::MatrixXd S, W;             // scores, ∂ℓ/∂S
    RowMajorMatrix U, gradient;       // X̃L, the chunk's 2X̃ᵀ(W ⊙ U) (with sparse rows, before T)
    double loss = 0;
  };
  void lossChunk(Eigen::Index k, const Eigen::MatrixXd& L);

  const LmgcMixtureProblem& problem_;
  std::vector<Eigen::Index> ranks_, offsets_;
  Eigen::MatrixXd Xt_;  // augmented rows, unless they are sparse
  std::vector<Eigen::Index> rowIndex_;  // 0 … n − 1: the chunks' rows for the sparse products
  RowMajorMatrix pulled_;               // with sparse rows: TᵀL
  std::vector<Eigen::MatrixXd> E_;
  std::vector<Chunk> chunks_;
};

// Each block's rank at x: its eigenvalues above `relative` times the largest of all blocks,
// plus `spare` (between 1 and D).
std::vector<Eigen::Index> lmgcMixtureRanks(const Eigen::VectorXd& x, Eigen::Index blocks, Eigen::Index D,
                                           double relative, Eigen::Index spare);

// Minimizes J (`objective`, the same J as the problem's, over θ) from x, which must be
// feasible; x receives the result (feasible). Iterations of L-BFGS and of projected gradient
// both count towards options.maxIterations; the callback sees both, false cancels.
OptimizeSummary minimizeLmgcMixture(const LmgcMixtureProblem& problem, const SmoothFunction& objective,
                                    const ProjectionFunction& project, Eigen::VectorXd& x,
                                    const ProjectedGradientOptions& options, const IterationCallback& callback);

}  // namespace dpstudio
