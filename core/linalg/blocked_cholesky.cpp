#include "core/linalg/blocked_cholesky.h"

#include <algorithm>
#include <vector>

#include <Eigen/Cholesky>

#include "core/util/parallel.h"

namespace dpstudio {

using Index = Eigen::Index;

bool BlockedCholesky::compute(Eigen::MatrixXd A) { return computeInPlace(A); }

bool BlockedCholesky::computeInPlace(Eigen::MatrixXd& A) {
  L_.swap(A);
  ok_ = false;
  const Index n = L_.rows();
  if (L_.cols() != n) return false;
  const Index tiles = (n + kTile - 1) / kTile;
  const auto begin = [](Index t) { return t * kTile; };
  const auto size = [&](Index t) { return std::min(kTile, n - t * kTile); };
  auto tile = [&](Index i, Index j) { return L_.block(begin(i), begin(j), size(i), size(j)); };

  std::vector<std::pair<Index, Index>> updates;
  for (Index k = 0; k < tiles; ++k) {
    // The diagonal tile: A_kk = L_kk L_kkᵀ.
    Eigen::LLT<Eigen::MatrixXd, Eigen::Lower> diagonal(tile(k, k));
    if (diagonal.info() != Eigen::Success) return false;
    tile(k, k).triangularView<Eigen::Lower>() = diagonal.matrixL();
    const auto Lkk = diagonal.matrixL();
    // The panel below it: L_ik = A_ik L_kk⁻ᵀ, tiles independent.
    parallelFor(tiles - k - 1, [&](Index t) {
      auto Aik = tile(k + 1 + t, k);
      Lkk.transpose().solveInPlace<Eigen::OnTheRight>(Aik);
    });
    // The trailing lower triangle: A_ij −= L_ik L_jkᵀ for k < j ≤ i, tiles independent.
    updates.clear();
    for (Index i = k + 1; i < tiles; ++i)
      for (Index j = k + 1; j <= i; ++j) updates.emplace_back(i, j);
    parallelFor(static_cast<Index>(updates.size()), [&](Index u) {
      const auto [i, j] = updates[static_cast<std::size_t>(u)];
      tile(i, j).noalias() -= tile(i, k) * tile(j, k).transpose();
    });
  }
  L_.triangularView<Eigen::StrictlyUpper>().setZero();
  ok_ = L_.allFinite();
  return ok_;
}

Eigen::VectorXd BlockedCholesky::solve(const Eigen::VectorXd& b) const {
  eigen_assert(ok_ && b.size() == L_.rows());
  Eigen::VectorXd x = L_.triangularView<Eigen::Lower>().solve(b);
  L_.triangularView<Eigen::Lower>().transpose().solveInPlace(x);
  return x;
}

}  // namespace dpstudio
