#pragma once
// The rows a loss is evaluated on, in the layout that makes its products fastest: the
// dense matrix, plus — when most entries are zero, as in LIBSVM data like a9a (11% dense)
// — a compressed sparse-row copy. A linear model's loss is two products per evaluation
// (X·W and Xᵀ·R); on sparse rows they cost nnz instead of n·d and read far less memory.

#include <memory>

#include <Eigen/Core>
#include <Eigen/SparseCore>

namespace dpstudio {

class FeatureMatrix {
 public:
  using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor>;

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

  // Rows [begin, begin+size) times W, into out (size × W.cols()).
  void multiplyRows(Eigen::Index begin, Eigen::Index size, const Eigen::Ref<const Eigen::MatrixXd>& W,
                    Eigen::Ref<Eigen::MatrixXd> out) const;
  // (Rows [begin, begin+size))ᵀ times R, into out (cols() × R.cols()).
  void transposeMultiplyRows(Eigen::Index begin, Eigen::Index size,
                             const Eigen::Ref<const Eigen::MatrixXd>& R,
                             Eigen::Ref<Eigen::MatrixXd> out) const;

 private:
  const Eigen::MatrixXd* dense_;
  std::shared_ptr<const Sparse> sparse_;  // shared by copies: building it reads every entry
};

}  // namespace dpstudio
