#pragma once
// LMGC's rows kept sparse under the solver's change of coordinates. Internal to core/models
// (lmgc_solver.cpp builds it and evaluates a mixture's loss through it; lmgc_screening.cpp,
// lmgc_factored.cpp and lmgc_mixture_solver.cpp evaluate through it).
//
// Why. lmgc_solver.cpp solves in whitened coordinates, x̃_w = T x̃ (x̃ = (x, 1)/√2), and
// whitened rows are dense whatever the data; on binary or one-hot features the original rows
// are not (a9a: 14 of 123 non-zero, DNA: 60 of 180). Every product the solver takes with the
// whitened rows factors through T:
//   scores       x̃_wᵀ x_c x̃_w = x̃ᵀ (Tᵀx_cT) x̃            nnz² a row instead of D²
//   factors      X̃_w L = X̃ (TᵀL),  X̃_wᵀ V = T (X̃ᵀV)        nnz·r a row instead of D·r
//   gradients    Σ W x̃_w x̃_wᵀ = T (Σ W x̃ x̃ᵀ) Tᵀ            nnz²/2 a row instead of D²/2
// at the price of one D³ (or D²r) product with T an evaluation, not a row.
//
// Results equal the dense products up to rounding; they depend on the rows and their order,
// never on the thread count (fixed chunks, added in chunk order).

#include <optional>
#include <span>

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace dpstudio {

class LmgcSparseRows {
 public:
  using Index = Eigen::Index;
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // Worth it up to this share of non-zeros in the augmented rows. Measured: a9a (0.12) gains
  // 4× on a projected-gradient step (88 → 20 ms) and 2× on a factored evaluation (16 →
  // 8.5 ms); DNA (0.34) loses (29 → 38 ms a step): dense products run at BLAS speed, the
  // sparse ones gather.
  static constexpr double kMaxDensity = 0.2;

  // X's augmented rows when their share of non-zeros is at most kMaxDensity; T maps them to
  // the solver's coordinates ((d+1) × (d+1)).
  static std::optional<LmgcSparseRows> ifSparse(const Eigen::MatrixXd& X, const Eigen::MatrixXd& T);

  Index rows() const { return rows_.rows(); }
  Index dim() const { return T_.rows(); }

  // The scores x̃_wᵀ x_c x̃_w of the listed rows (all rows when empty) for the class matrices
  // `mapped` (C blocks of D × D, the solver's coordinates): rows × C.
  Eigen::MatrixXd scores(const Eigen::VectorXd& mapped, Index classes, std::span<const Index> rows = {}) const;
  // Σ_i W(i, c) x̃_w x̃_wᵀ over the listed rows (W's row i for the i-th listed row), C blocks
  // of D × D.
  Eigen::VectorXd weightedGram(const Eigen::MatrixXd& W, std::span<const Index> rows = {}) const;

  // For factors: M (D × r) in the solver's coordinates → TᵀM, row-major, for multiply.
  RowMajorMatrix pullFactors(const Eigen::MatrixXd& M) const;
  // out (count × r) = the listed rows times `pulled` (from pullFactors): X̃_w M on them.
  void multiply(std::span<const Index> rows, const RowMajorMatrix& pulled, RowMajorMatrix& out) const;
  // out (D × r, original coordinates) = (the listed rows)ᵀ V, V count × r.
  void transposeProduct(std::span<const Index> rows, const RowMajorMatrix& V, RowMajorMatrix& out) const;
  // A (sum of) transposeProduct in the solver's coordinates: T·product.
  Eigen::MatrixXd pushFactors(const RowMajorMatrix& product) const { return T_ * product; }

 private:
  LmgcSparseRows() = default;

  // Row i's non-zeros in ascending column order, and their values (of x̃).
  std::span<const int> columnsOf(Index i) const {
    const auto* start = rows_.outerIndexPtr();
    return {rows_.innerIndexPtr() + start[i], static_cast<std::size_t>(start[i + 1] - start[i])};
  }
  std::span<const double> valuesOf(Index i) const {
    const auto* start = rows_.outerIndexPtr();
    return {rows_.valuePtr() + start[i], static_cast<std::size_t>(start[i + 1] - start[i])};
  }

  Eigen::SparseMatrix<double, Eigen::RowMajor> rows_;  // the augmented rows x̃, compressed
  Eigen::MatrixXd T_;
};

}  // namespace dpstudio
