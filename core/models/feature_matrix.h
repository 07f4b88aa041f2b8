#pragma once
// The rows a loss is evaluated on, in the layout that makes its products fastest: the
// dense matrix, plus — when most entries are zero, as in LIBSVM data like a9a (11% dense)
// or MNIST's pixels (19%) — a compressed sparse-row copy. A linear model's loss is two
// products per evaluation (X·W and Xᵀ·R); on sparse rows they cost nnz instead of n·d and
// read far less memory. Xᵀ·R on compressed rows would scatter every non-zero's C values
// into a d × C accumulator (a read and a write of L2 per non-zero on MNIST: 2.3× the cost of
// X·W), so the sparse copy also keeps each row chunk's (RowChunks) entries by column, and
// Xᵀ·R over a chunk gathers instead, C sums per column in registers (+10 bytes per non-zero).

#include <memory>

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace dpstudio {

class FeatureMatrix {
 public:
  using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;
  // W and R of the products below, one class per column: row-major, so that the C values a
  // non-zero x_ij multiplies (row j of W) or a row i contributes (row i of R) are contiguous.
  using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  // Dense only. Keeps a reference: X must outlive this object.
  FeatureMatrix(const Eigen::MatrixXd& X) : dense_(&X) {}  // NOLINT: implicit by design

  // Adds the sparse copy when at most `maxDensity` of the entries are non-zero.
  static FeatureMatrix withSparseIfWorthIt(const Eigen::MatrixXd& X, double maxDensity = 0.25);

  const Eigen::MatrixXd& dense() const { return *dense_; }
  bool hasSparse() const { return sparse_ != nullptr; }
  const Sparse& sparse() const { return *sparse_; }
  // Whether these are the rows of X itself (the same object), e.g. before reusing rows
  // prepared once for many fits (TrainControl::rows).
  bool wraps(const Eigen::MatrixXd& X) const { return dense_ == &X; }
  Eigen::Index rows() const { return dense_->rows(); }
  Eigen::Index cols() const { return dense_->cols(); }

  // Rows [begin, begin+size) times W (cols() × C), into out (resized to size × C).
  void multiplyRows(Eigen::Index begin, Eigen::Index size, const RowMajorMatrix& W, RowMajorMatrix& out) const;
  // (Rows [begin, begin+size))ᵀ times R (size × C), into out (resized to cols() × C).
  void transposeMultiplyRows(Eigen::Index begin, Eigen::Index size, const RowMajorMatrix& R,
                             RowMajorMatrix& out) const;

  // The same for one column (a binary model's weights and its margins' derivatives).
  void multiplyRows(Eigen::Index begin, Eigen::Index size, const Eigen::Ref<const Eigen::VectorXd>& w,
                    Eigen::Ref<Eigen::VectorXd> out) const;
  void transposeMultiplyRows(Eigen::Index begin, Eigen::Index size, const Eigen::Ref<const Eigen::VectorXd>& r,
                             Eigen::Ref<Eigen::VectorXd> out) const;

 private:
  struct ChunkColumns;  // each RowChunks chunk's non-zeros by column (feature_matrix.cpp)

  const Eigen::MatrixXd* dense_;
  std::shared_ptr<const Sparse> sparse_;  // shared by copies: building it reads every entry
  std::shared_ptr<const ChunkColumns> chunkColumns_;  // with sparse_
  const ChunkColumns* chunkColumnsFor(Eigen::Index begin, Eigen::Index size) const;
};

}  // namespace dpstudio
