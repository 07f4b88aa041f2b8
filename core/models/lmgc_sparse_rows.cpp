#include "core/models/lmgc_sparse_rows.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/models/lmgc.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Rows a chunk of work: each gradient chunk keeps a D × D accumulator a class.
constexpr Index kChunkRows = 1024;
// Columns of the factors summed in registers at a time (four AVX2 registers).
constexpr Index kLanes = 16;
using Lanes = Eigen::Matrix<double, 1, kLanes>;

// The listed rows, or all n when the list is empty.
struct RowList {
  std::span<const Index> listed;
  Index n;
  Index count() const { return listed.empty() ? n : static_cast<Index>(listed.size()); }
  Index operator[](Index j) const { return listed.empty() ? j : listed[static_cast<std::size_t>(j)]; }
};

}  // namespace

std::optional<LmgcSparseRows> LmgcSparseRows::ifSparse(const Eigen::MatrixXd& X, const Eigen::MatrixXd& T) {
  const Index n = X.rows(), d = X.cols();
  if (n == 0 || T.rows() != d + 1 || T.cols() != d + 1) return std::nullopt;
  const Index nonZeros = (X.array() != 0).count() + n;  // the constant coordinate of every row
  if (static_cast<double>(nonZeros) > kMaxDensity * static_cast<double>(n) * static_cast<double>(d + 1))
    return std::nullopt;
  LmgcSparseRows sparse;
  sparse.T_ = T;
  sparse.rows_ = LmgcModel::augmentedRows(X).sparseView();  // exact zeros only are dropped
  sparse.rows_.makeCompressed();
  return sparse;
}

Eigen::MatrixXd LmgcSparseRows::scores(const Eigen::VectorXd& mapped, Index classes, std::span<const Index> rows) const {
  const Index D = dim(), C = classes;
  // The class matrices in the rows' own coordinates, Tᵀ x_c T.
  Eigen::MatrixXd original(D, C * D);
  parallelFor(C, [&](Index c) {
    const Eigen::Map<const Eigen::MatrixXd> x(mapped.data() + c * D * D, D, D);
    original.middleCols(c * D, D).noalias() = T_.transpose() * (x * T_);
  });
  const RowList list{rows, this->rows()};
  const Index count = list.count();
  Eigen::MatrixXd S(count, C);
  parallelFor((count + kChunkRows - 1) / kChunkRows, [&](Index chunk) {
    const Index end = std::min(count, (chunk + 1) * kChunkRows);
    for (Index j = chunk * kChunkRows; j < end; ++j) {
      const std::span<const int> columns = columnsOf(list[j]);
      const std::span<const double> values = valuesOf(list[j]);
      const std::size_t k = columns.size();
      for (Index c = 0; c < C; ++c) {
        const double* phi = original.data() + c * D * D;
        double s = 0;
        for (std::size_t a = 0; a < k; ++a) {
          const double* column = phi + static_cast<Index>(columns[a]) * D;
          double t = 0;
          for (std::size_t b = 0; b < k; ++b) t += values[b] * column[columns[b]];
          s += values[a] * t;
        }
        S(j, c) = s;
      }
    }
  });
  return S;
}

Eigen::VectorXd LmgcSparseRows::weightedGram(const Eigen::MatrixXd& W, std::span<const Index> rows) const {
  const Index D = dim(), C = W.cols();
  const RowList list{rows, this->rows()};
  const Index count = list.count();
  const Index chunks = std::max<Index>(1, (count + kChunkRows - 1) / kChunkRows);
  // One lower-triangular accumulator per (chunk, class); rows whose weight is 0 (beyond every
  // margin) cost nothing.
  std::vector<Eigen::MatrixXd> partial(static_cast<std::size_t>(chunks * C));
  parallelFor(chunks * C, [&](Index task) {
    const Index chunk = task / C, c = task % C;
    Eigen::MatrixXd& G = partial[static_cast<std::size_t>(task)];
    G.setZero(D, D);
    const Index end = std::min(count, (chunk + 1) * kChunkRows);
    for (Index j = chunk * kChunkRows; j < end; ++j) {
      const double w = W(j, c);
      if (w == 0) continue;
      const std::span<const int> columns = columnsOf(list[j]);
      const std::span<const double> values = valuesOf(list[j]);
      const std::size_t k = columns.size();
      for (std::size_t a = 0; a < k; ++a) {  // columns ascend: (columns[b], columns[a]), b ≥ a, is lower
        double* column = G.data() + static_cast<Index>(columns[a]) * D;
        const double wa = w * values[a];
        for (std::size_t b = a; b < k; ++b) column[columns[b]] += wa * values[b];
      }
    }
  });
  Eigen::VectorXd grad(C * D * D);
  parallelFor(C, [&](Index c) {
    Eigen::MatrixXd sum = partial[static_cast<std::size_t>(c)];
    for (Index chunk = 1; chunk < chunks; ++chunk) sum += partial[static_cast<std::size_t>(chunk * C + c)];
    const Eigen::MatrixXd full = sum.selfadjointView<Eigen::Lower>();
    Eigen::Map<Eigen::MatrixXd>(grad.data() + c * D * D, D, D).noalias() = T_ * (full * T_.transpose());
  });
  return grad;
}

LmgcSparseRows::RowMajorMatrix LmgcSparseRows::pullFactors(const Eigen::MatrixXd& M) const {
  return T_.transpose() * M;
}

void LmgcSparseRows::multiply(std::span<const Index> rows, const RowMajorMatrix& pulled, RowMajorMatrix& out) const {
  const Index count = static_cast<Index>(rows.size()), r = pulled.cols(), blocked = r - r % kLanes;
  out.resize(count, r);
  for (Index j = 0; j < count; ++j) {
    const std::span<const int> columns = columnsOf(rows[static_cast<std::size_t>(j)]);
    const std::span<const double> values = valuesOf(rows[static_cast<std::size_t>(j)]);
    for (Index first = 0; first < blocked; first += kLanes) {
      Lanes sum = Lanes::Zero();
      for (std::size_t a = 0; a < columns.size(); ++a)
        sum.noalias() += values[a] * pulled.row(columns[a]).segment<kLanes>(first);
      out.row(j).segment<kLanes>(first) = sum;
    }
    if (blocked == r) continue;
    auto tail = out.row(j).tail(r - blocked);
    tail.setZero();
    for (std::size_t a = 0; a < columns.size(); ++a) tail.noalias() += values[a] * pulled.row(columns[a]).tail(r - blocked);
  }
}

void LmgcSparseRows::transposeProduct(std::span<const Index> rows, const RowMajorMatrix& V, RowMajorMatrix& out) const {
  const Index D = dim(), r = V.cols(), blocked = r - r % kLanes, count = static_cast<Index>(rows.size());
  // The listed rows' entries by column (a counting sort, rows in order within a column), so
  // that each row of `out` is summed in registers and written once.
  std::vector<Index> begin(static_cast<std::size_t>(D) + 1, 0);
  for (const Index i : rows)
    for (const int column : columnsOf(i)) ++begin[static_cast<std::size_t>(column) + 1];
  for (Index c = 0; c < D; ++c) begin[static_cast<std::size_t>(c) + 1] += begin[static_cast<std::size_t>(c)];
  std::vector<Index> next(begin.begin(), begin.end() - 1);
  std::vector<Index> entryRow(static_cast<std::size_t>(begin.back()));
  std::vector<double> entryValue(entryRow.size());
  for (Index j = 0; j < count; ++j) {
    const std::span<const int> columns = columnsOf(rows[static_cast<std::size_t>(j)]);
    const std::span<const double> values = valuesOf(rows[static_cast<std::size_t>(j)]);
    for (std::size_t a = 0; a < columns.size(); ++a) {
      const auto at = static_cast<std::size_t>(next[static_cast<std::size_t>(columns[a])]++);
      entryRow[at] = j;
      entryValue[at] = values[a];
    }
  }
  out.resize(D, r);
  for (Index c = 0; c < D; ++c) {
    const auto from = static_cast<std::size_t>(begin[static_cast<std::size_t>(c)]);
    const auto to = static_cast<std::size_t>(begin[static_cast<std::size_t>(c) + 1]);
    for (Index first = 0; first < blocked; first += kLanes) {
      Lanes sum = Lanes::Zero();
      for (std::size_t e = from; e < to; ++e) sum.noalias() += entryValue[e] * V.row(entryRow[e]).segment<kLanes>(first);
      out.row(c).segment<kLanes>(first) = sum;
    }
    if (blocked == r) continue;
    auto tail = out.row(c).tail(r - blocked);
    tail.setZero();
    for (std::size_t e = from; e < to; ++e) tail.noalias() += entryValue[e] * V.row(entryRow[e]).tail(r - blocked);
  }
}

}  // namespace dpstudio
