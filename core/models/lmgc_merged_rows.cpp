#include "core/models/lmgc_merged_rows.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace dpstudio {

using Index = Eigen::Index;

std::optional<LmgcMergedRows> LmgcMergedRows::ifWorthwhile(const Eigen::MatrixXd& X, const Eigen::VectorXi& y) {
  const Index n = X.rows(), d = X.cols();
  if (n < 2) return std::nullopt;
  // Rows contiguous, so that each is hashed and compared as one run of bytes.
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = X;
  const auto bytes = static_cast<std::size_t>(d) * sizeof(double);
  const auto hashOf = [&](Index i) {
    std::uint64_t hash = 1469598103934665603ULL ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(y[i]));
    const double* row = rows.data() + i * d;
    for (Index j = 0; j < d; ++j) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, row + j, sizeof bits);
      hash = (hash ^ bits) * 1099511628211ULL;
      hash ^= hash >> 29;
    }
    return hash;
  };
  const auto same = [&](Index i, Index k) {
    return y[i] == y[k] && std::memcmp(rows.data() + i * d, rows.data() + k * d, bytes) == 0;
  };
  // Each distinct row's first index, under its hash (collisions: a short list to compare).
  std::unordered_multimap<std::uint64_t, Index> seen;
  seen.reserve(static_cast<std::size_t>(n));
  std::vector<Index> first, group(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) {
    const std::uint64_t hash = hashOf(i);
    Index found = -1;
    for (auto [it, end] = seen.equal_range(hash); it != end; ++it)
      if (same(it->second, i)) {
        found = it->second;
        break;
      }
    if (found < 0) {
      group[static_cast<std::size_t>(i)] = static_cast<Index>(first.size());
      first.push_back(i);
      seen.emplace(hash, i);
    } else {
      group[static_cast<std::size_t>(i)] = group[static_cast<std::size_t>(found)];
    }
  }
  const auto distinct = static_cast<Index>(first.size());
  if (static_cast<double>(distinct) > kWorthwhileShare * static_cast<double>(n)) return std::nullopt;
  LmgcMergedRows merged;
  merged.rows.resize(distinct, d);
  merged.y.resize(distinct);
  merged.counts = Eigen::VectorXd::Zero(distinct);
  for (Index k = 0; k < distinct; ++k) {
    const Index i = first[static_cast<std::size_t>(k)];
    merged.rows.row(k) = X.row(i);
    merged.y[k] = y[i];
  }
  for (Index i = 0; i < n; ++i) merged.counts[group[static_cast<std::size_t>(i)]] += 1;
  return merged;
}

}  // namespace dpstudio
