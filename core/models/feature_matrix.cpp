#include "core/models/feature_matrix.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/util/huge_pages.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// The two sparse kernels, with the class count C known at compile time for the common
// counts (a model has 1 to 16 columns): a row's (a column's) C sums then live in registers,
// and each non-zero costs C fused multiply-adds and one contiguous read of C values, nothing
// else. kC = 0 is the general, run-time C.
struct SparseRows {
  const int* outer;
  const int* inner;
  const double* values;
};

// Independent running sums per row (column), combined at the end: one chain of fused
// multiply-adds waits ~4 cycles per non-zero for the previous one; kChains chains keep the
// FMA units busy. The order of the sums is fixed by the entries alone: the same bits for any
// thread count.
template <int kC>
constexpr int kChains = kC <= 4 ? 4 : 2;

template <int kC>
struct Sums {
  std::array<std::array<double, kC>, kChains<kC>> chain{};

  void add(int which, double v, const double* x) {
    for (int c = 0; c < kC; ++c) chain[which][c] += v * x[c];
  }
  void storeTo(double* out) const {
    for (int c = 0; c < kC; ++c) {
      double total = chain[0][c];
      for (int h = 1; h < kChains<kC>; ++h) total += chain[h][c];
      out[c] = total;
    }
  }
};

// The entries [from, to) of one row (column) against the C-value rows of `dense` they index.
template <int kC, class Index16or32>
void accumulate(Sums<kC>& sums, const Index16or32* index, const double* values, int from, int to,
                const double* dense) {
  constexpr int H = kChains<kC>;
  int k = from;
  for (; k + H <= to; k += H)
    for (int h = 0; h < H; ++h) sums.add(h, values[k + h], dense + static_cast<Index>(index[k + h]) * kC);
  for (int h = 0; k < to; ++k, ++h) sums.add(h, values[k], dense + static_cast<Index>(index[k]) * kC);
}

template <int kC>
void sparseTimes(const SparseRows& X, Index begin, Index size, const double* w, double* out, Index C) {
  if constexpr (kC > 0) {
    for (Index i = 0; i < size; ++i) {
      Sums<kC> sums;
      accumulate(sums, X.inner, X.values, X.outer[begin + i], X.outer[begin + i + 1], w);
      sums.storeTo(out + i * kC);
    }
  } else {
    for (Index i = 0; i < size; ++i) {
      double* row = out + i * C;
      for (Index c = 0; c < C; ++c) row[c] = 0;
      for (int k = X.outer[begin + i]; k < X.outer[begin + i + 1]; ++k) {
        const double v = X.values[k];
        const double* wj = w + static_cast<Index>(X.inner[k]) * C;
        for (Index c = 0; c < C; ++c) row[c] += v * wj[c];
      }
    }
  }
}

// out (cols × C, zeroed by the caller) += Σ_i x_iᵀ r_i over the rows: each non-zero x_ij
// adds x_ij·r_i to row j. Only for ranges that are not whole chunks (the chunks gather).
void sparseTransposeTimes(const SparseRows& X, Index begin, Index size, const double* r, double* out, Index C) {
  for (Index i = 0; i < size; ++i) {
    const double* ri = r + i * C;
    for (int k = X.outer[begin + i]; k < X.outer[begin + i + 1]; ++k) {
      const double v = X.values[k];
      double* oj = out + static_cast<Index>(X.inner[k]) * C;
      for (Index c = 0; c < C; ++c) oj[c] += v * ri[c];
    }
  }
}

using Kernel = void (*)(const SparseRows&, Index, Index, const double*, double*, Index);

// One row chunk's non-zeros ordered by column, rows ascending within a column: column j's
// entries are [start[j], start[j+1]) of rows (chunk-local) and values.
struct ChunkEntries {
  const int* start;  // d + 1 offsets into rows and values
  const std::uint16_t* rows;
  const double* values;
};

// out (d × C) = Σ_i x_iᵀ r_i over one chunk, column by column: the C sums in registers.
template <int kC>
void chunkTransposeTimes(const ChunkEntries& X, Index d, const double* r, double* out, Index C) {
  if constexpr (kC > 0) {
    for (Index j = 0; j < d; ++j) {
      Sums<kC> sums;
      accumulate(sums, X.rows, X.values, X.start[j], X.start[j + 1], r);
      sums.storeTo(out + j * kC);
    }
  } else {
    for (Index j = 0; j < d; ++j) {
      double* oj = out + j * C;
      for (Index c = 0; c < C; ++c) oj[c] = 0;
      for (int k = X.start[j]; k < X.start[j + 1]; ++k) {
        const double v = X.values[k];
        const double* ri = r + static_cast<Index>(X.rows[k]) * C;
        for (Index c = 0; c < C; ++c) oj[c] += v * ri[c];
      }
    }
  }
}

using ChunkKernel = void (*)(const ChunkEntries&, Index, const double*, double*, Index);

// The kernel instance for C (1 … 16), or the run-time one (Pick<0>).
template <class K, template <int> class Pick, int... kCs>
K kernelFor(Index C, std::integer_sequence<int, kCs...>) {
  K chosen = Pick<0>::kernel;
  ((C == kCs + 1 ? (chosen = Pick<kCs + 1>::kernel, true) : false) || ...);
  return chosen;
}

template <int kC>
struct PickTimes {
  static constexpr Kernel kernel = &sparseTimes<kC>;
};
template <int kC>
struct PickChunkTransposeTimes {
  static constexpr ChunkKernel kernel = &chunkTransposeTimes<kC>;
};

constexpr auto kFixedCounts = std::make_integer_sequence<int, 16>{};  // C = 1 … 16

SparseRows rowsOf(const FeatureMatrix::Sparse& X) { return {X.outerIndexPtr(), X.innerIndexPtr(), X.valuePtr()}; }

// The compressed rows of a column-major matrix, built directly in two sweeps over blocks of
// rows (count, then fill): Eigen's sparseView() into a row-major matrix took 0.7 s on MNIST
// for 47 M entries. Each block writes only its own rows' ranges: the same arrays for any
// thread count. Returns null when the non-zeros exceed maxDensity of the entries or do not
// fit Eigen's int indices.
std::shared_ptr<FeatureMatrix::Sparse> compressedRows(const Eigen::MatrixXd& X, double maxDensity) {
  const Index n = X.rows(), d = X.cols();
  constexpr Index kBlock = 4096;
  const Index blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> perRow(static_cast<std::size_t>(n), 0);
  parallelFor(blocks, [&](Index b) {
    const Index begin = b * kBlock, size = std::min(kBlock, n - begin);
    Eigen::Map<Eigen::VectorXi> counts(perRow.data() + begin, size);
    for (Index j = 0; j < d; ++j) counts.array() += (X.col(j).segment(begin, size).array() != 0.0).cast<int>();
  });
  Index nonZeros = 0;
  for (int count : perRow) nonZeros += count;
  if (static_cast<double>(nonZeros) > maxDensity * static_cast<double>(X.size()) ||
      nonZeros > std::numeric_limits<int>::max())
    return nullptr;
  auto sparse = std::make_shared<FeatureMatrix::Sparse>(n, d);  // compressed, no entries yet
  sparse->resizeNonZeros(nonZeros);
  adviseHugePages(sparse->valuePtr(), static_cast<std::size_t>(nonZeros) * sizeof(double));
  adviseHugePages(sparse->innerIndexPtr(), static_cast<std::size_t>(nonZeros) * sizeof(int));
  int* outer = sparse->outerIndexPtr();
  outer[0] = 0;
  for (Index i = 0; i < n; ++i) outer[i + 1] = outer[i] + perRow[static_cast<std::size_t>(i)];
  int* inner = sparse->innerIndexPtr();
  double* values = sparse->valuePtr();
  parallelFor(blocks, [&](Index b) {
    const Index begin = b * kBlock, size = std::min(kBlock, n - begin);
    std::vector<int> next(outer + begin, outer + begin + size);  // where each row's next entry goes
    for (Index j = 0; j < d; ++j) {
      const double* column = X.col(j).data() + begin;
      for (Index i = 0; i < size; ++i) {
        if (column[i] == 0.0) continue;
        const int k = next[static_cast<std::size_t>(i)]++;
        inner[k] = static_cast<int>(j);
        values[k] = column[i];
      }
    }
  });
  return sparse;
}

}  // namespace

struct FeatureMatrix::ChunkColumns {
  Index columns = 0;
  std::vector<int> start;            // per chunk, columns + 1 offsets (chunk c's at c·(columns + 1))
  std::vector<std::uint16_t> rows;   // row within its chunk (RowChunks::kRows ≤ 65 536)
  std::vector<double> values;

  ChunkEntries chunk(Index c) const {
    return {start.data() + c * (columns + 1), rows.data(), values.data()};
  }

  // From the compressed rows: per chunk, count each column's entries, then place them row by
  // row (so ascending rows within a column). Chunks write disjoint ranges.
  static std::shared_ptr<const ChunkColumns> of(const Sparse& X) {
    static_assert(RowChunks::kRows <= 65536, "chunk-local rows are 16-bit");
    auto out = std::make_shared<ChunkColumns>();
    const Index d = X.cols();
    const RowChunks chunks{X.rows()};
    out->columns = d;
    out->start.assign(static_cast<std::size_t>(chunks.count() * (d + 1)), 0);
    const auto nonZeros = static_cast<std::size_t>(X.nonZeros());
    out->rows.reserve(nonZeros);
    out->values.reserve(nonZeros);
    adviseHugePages(out->rows.data(), nonZeros * sizeof(std::uint16_t));
    adviseHugePages(out->values.data(), nonZeros * sizeof(double));
    out->rows.resize(nonZeros);
    out->values.resize(nonZeros);
    const int* outer = X.outerIndexPtr();
    const int* inner = X.innerIndexPtr();
    const double* values = X.valuePtr();
    parallelFor(chunks.count(), [&](Index c) {
      const Index begin = chunks.begin(c), size = chunks.size(c);
      int* start = out->start.data() + c * (d + 1);
      for (int k = outer[begin]; k < outer[begin + size]; ++k) ++start[inner[k] + 1];
      start[0] = outer[begin];
      for (Index j = 0; j < d; ++j) start[j + 1] += start[j];
      std::vector<int> next(start, start + d);
      for (Index i = 0; i < size; ++i)
        for (int k = outer[begin + i]; k < outer[begin + i + 1]; ++k) {
          const int at = next[static_cast<std::size_t>(inner[k])]++;
          out->rows[static_cast<std::size_t>(at)] = static_cast<std::uint16_t>(i);
          out->values[static_cast<std::size_t>(at)] = values[k];
        }
    });
    return out;
  }
};

FeatureMatrix FeatureMatrix::withSparseIfWorthIt(const Eigen::MatrixXd& X, double maxDensity) {
  FeatureMatrix out(X);
  if (X.size() == 0) return out;
  out.sparse_ = compressedRows(X, maxDensity);
  if (out.sparse_) out.chunkColumns_ = ChunkColumns::of(*out.sparse_);
  return out;
}

const FeatureMatrix::ChunkColumns* FeatureMatrix::chunkColumnsFor(Index begin, Index size) const {
  const RowChunks chunks{rows()};
  if (!chunkColumns_ || begin % RowChunks::kRows != 0 || begin >= rows() || size != chunks.size(begin / RowChunks::kRows))
    return nullptr;
  return chunkColumns_.get();
}

void FeatureMatrix::multiplyRows(Index begin, Index size, const RowMajorMatrix& W, RowMajorMatrix& out) const {
  out.resize(size, W.cols());
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size) * W;
    return;
  }
  kernelFor<Kernel, PickTimes>(W.cols(), kFixedCounts)(rowsOf(*sparse_), begin, size, W.data(), out.data(), W.cols());
}

void FeatureMatrix::transposeMultiplyRows(Index begin, Index size, const RowMajorMatrix& R,
                                          RowMajorMatrix& out) const {
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size).transpose() * R;
    return;
  }
  if (const ChunkColumns* byColumn = chunkColumnsFor(begin, size)) {
    out.resize(cols(), R.cols());
    kernelFor<ChunkKernel, PickChunkTransposeTimes>(R.cols(), kFixedCounts)(
        byColumn->chunk(begin / RowChunks::kRows), cols(), R.data(), out.data(), R.cols());
    return;
  }
  out.setZero(cols(), R.cols());
  sparseTransposeTimes(rowsOf(*sparse_), begin, size, R.data(), out.data(), R.cols());
}

void FeatureMatrix::multiplyRows(Index begin, Index size, const Eigen::Ref<const Eigen::VectorXd>& w,
                                 Eigen::Ref<Eigen::VectorXd> out) const {
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size) * w;
    return;
  }
  // A column is a one-column row-major matrix, but a Ref may be strided: copy only then.
  const Eigen::VectorXd contiguous = w.innerStride() == 1 ? Eigen::VectorXd() : Eigen::VectorXd(w);
  const double* weights = w.innerStride() == 1 ? w.data() : contiguous.data();
  if (out.innerStride() == 1) {
    sparseTimes<1>(rowsOf(*sparse_), begin, size, weights, out.data(), 1);
  } else {
    Eigen::VectorXd result(size);
    sparseTimes<1>(rowsOf(*sparse_), begin, size, weights, result.data(), 1);
    out = result;
  }
}

void FeatureMatrix::transposeMultiplyRows(Index begin, Index size, const Eigen::Ref<const Eigen::VectorXd>& r,
                                          Eigen::Ref<Eigen::VectorXd> out) const {
  if (!sparse_) {
    out.noalias() = dense_->middleRows(begin, size).transpose() * r;
    return;
  }
  const Eigen::VectorXd contiguous = r.innerStride() == 1 ? Eigen::VectorXd() : Eigen::VectorXd(r);
  const double* values = r.innerStride() == 1 ? r.data() : contiguous.data();
  Eigen::VectorXd result;
  double* into = out.data();
  if (out.innerStride() != 1) {
    result.resize(cols());
    into = result.data();
  }
  if (const ChunkColumns* byColumn = chunkColumnsFor(begin, size)) {
    chunkTransposeTimes<1>(byColumn->chunk(begin / RowChunks::kRows), cols(), values, into, 1);
  } else {
    std::fill(into, into + cols(), 0.0);
    sparseTransposeTimes(rowsOf(*sparse_), begin, size, values, into, 1);
  }
  if (out.innerStride() != 1) out = result;
}

}  // namespace dpstudio
