#include "core/models/feature_matrix.h"

namespace dpstudio {
namespace {

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Scratch per thread, reused across evaluations: the products allocate nothing after the
// first call of each size.
RowMajor& scratch(int which) {
  thread_local RowMajor buffers[3];
  return buffers[which];
}

// y += a·x over n contiguous values: a plain loop the compiler vectorizes; Eigen's
// dynamic-size row expressions cost more in setup than the ten products of a softmax row.
inline void axpy(double a, const double* x, double* y, Eigen::Index n) {
  for (Eigen::Index c = 0; c < n; ++c) y[c] += a * x[c];
}

}  // namespace

FeatureMatrix FeatureMatrix::withSparseIfWorthIt(const Eigen::MatrixXd& X, double maxDensity) {
  FeatureMatrix out(X);
  const auto nonZeros = (X.array() != 0.0).count();
  if (X.size() == 0 || static_cast<double>(nonZeros) > maxDensity * static_cast<double>(X.size()))
    return out;
  auto sparse = std::make_shared<Sparse>(X.sparseView());
  sparse->makeCompressed();
  out.sparse_ = std::move(sparse);
  return out;
}

// Sparse rows times W (d × C): Eigen's sparse-dense product reads W.row(j) for every
// non-zero x_ij, and in W's column-major layout that row is C values a column apart — a
// cache line per value. A row-major copy of W (d·C values, small beside the rows) makes each
// non-zero one contiguous read of C values, and the row's result a contiguous sum.
void FeatureMatrix::multiplyRows(Eigen::Index begin, Eigen::Index size,
                                 const Eigen::Ref<const Eigen::MatrixXd>& W,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size) * W;
    return;
  }
  const Eigen::Index C = W.cols();
  RowMajor& w = scratch(0);
  w = W;
  RowMajor& result = scratch(1);
  result.setZero(size, C);
  const int* outer = sparse_->outerIndexPtr();
  const int* inner = sparse_->innerIndexPtr();
  const double* values = sparse_->valuePtr();
  for (Eigen::Index i = 0; i < size; ++i) {
    double* row = result.data() + i * C;
    for (int k = outer[begin + i]; k < outer[begin + i + 1]; ++k) axpy(values[k], w.data() + inner[k] * C, row, C);
  }
  out = result;
}

// (Sparse rows)ᵀ times R (size × C): the same layout argument, scattering each non-zero's
// x_ij·R.row(i) into row j of a row-major d × C accumulator.
void FeatureMatrix::transposeMultiplyRows(Eigen::Index begin, Eigen::Index size,
                                          const Eigen::Ref<const Eigen::MatrixXd>& R,
                                          Eigen::Ref<Eigen::MatrixXd> out) const {
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size).transpose() * R;
    return;
  }
  const Eigen::Index C = R.cols();
  RowMajor& r = scratch(0);
  r = R;
  RowMajor& result = scratch(2);
  result.setZero(cols(), C);
  const int* outer = sparse_->outerIndexPtr();
  const int* inner = sparse_->innerIndexPtr();
  const double* values = sparse_->valuePtr();
  for (Eigen::Index i = 0; i < size; ++i) {
    const double* ri = r.data() + i * C;
    for (int k = outer[begin + i]; k < outer[begin + i + 1]; ++k) axpy(values[k], ri, result.data() + inner[k] * C, C);
  }
  out = result;
}

}  // namespace dpstudio
