#include "core/models/lmgc_pair_curvature.h"

#include <algorithm>
#include <numbers>
#include <utility>

#include "core/util/parallel.h"

namespace dpstudio::lmgc_detail {
namespace {

using Index = Eigen::Index;

// Rows per slice, scaled into a slice-sized buffer: a scaled copy of all the rows (shuttle:
// 19 MB a class, every step) is fresh memory each time, and its page faults cost more than
// the products (this VM: ~12 µs a 4 KiB page).
constexpr Index kSliceRows = 2048;

// The pairs (a, b) of classes with a < b (or a ≤ b), in the order of their tasks.
std::vector<std::pair<Index, Index>> classPairs(Index C, bool withDiagonal) {
  std::vector<std::pair<Index, Index>> list;
  for (Index a = 0; a < C; ++a)
    for (Index b = withDiagonal ? a : a + 1; b < C; ++b) list.emplace_back(a, b);
  return list;
}

}  // namespace

PairCurvature::PairCurvature(const SymmetricPairs& pairs, const Eigen::MatrixXd& augmented,
                             const Eigen::MatrixXd& outer, std::vector<Index> classStart)
    : pairs_(pairs), augmented_(augmented), outer_(outer), classStart_(std::move(classStart)),
      C_(static_cast<Index>(classStart_.size()) - 1) {
  const double n = static_cast<double>(augmented.rows()), m = static_cast<double>(pairs.size());
  const double C = static_cast<double>(C_);
  const double gramFlops = (C - 1) * n * m * m / 2 + C * (C + 1) * m * m * m;
  const double classBasesFlops = n * m * m * (3 * C - 2) / 2 + C * n * static_cast<double>(augmented.cols()) * m;
  byGram_ = gramFlops < classBasesFlops;
}

void PairCurvature::addTo(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& V,
                          const std::vector<Eigen::MatrixXd>& L) {
  if (byGram_) {
    byGram(H, kappa, L);
  } else {
    byClassBases(H, kappa, V);
  }
}

void PairCurvature::byGram(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& L) {
  const Index m = pairs_.size();
  const auto pairsOfClasses = classPairs(C_, false);
  gram_.resize(pairsOfClasses.size());
  parallelFor(static_cast<Index>(pairsOfClasses.size()), [&](Index task) {
    const auto [a, b] = pairsOfClasses[static_cast<std::size_t>(task)];
    Eigen::MatrixXd& G = gram_[static_cast<std::size_t>(task)];
    G.setZero(m, m);
    auto upper = G.selfadjointView<Eigen::Upper>();
    Eigen::MatrixXd scaled;
    for (const auto& [own, other] : {std::pair{a, b}, std::pair{b, a}}) {
      for (Index first = start(own); first < end(own); first += kSliceRows) {
        const Index count = std::min(kSliceRows, end(own) - first);
        scaled.noalias() =
            kappa.col(other).segment(first, count).cwiseMax(0.0).cwiseSqrt().asDiagonal() * outer_.middleRows(first, count);
        upper.rankUpdate(scaled.transpose());
      }
    }
    G.triangularView<Eigen::StrictlyLower>() = G.transpose();
  });
  // Pairs (lo, hi) are listed row by row: lo's row starts after Σ_{k<lo} (C − 1 − k).
  const auto gramOf = [&](Index a, Index b) -> const Eigen::MatrixXd& {
    const auto [lo, hi] = std::minmax(a, b);
    return gram_[static_cast<std::size_t>(lo * (C_ - 1) - lo * (lo - 1) / 2 + (hi - lo - 1))];
  };
  const auto blocks = classPairs(C_, true);
  parallelFor(static_cast<Index>(blocks.size()), [&](Index task) {
    const auto [a, b] = blocks[static_cast<std::size_t>(task)];
    const Eigen::MatrixXd& La = L[static_cast<std::size_t>(a)];
    if (a == b) {
      Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(m, m);
      for (Index other = 0; other < C_; ++other)
        if (other != a) sum += gramOf(a, other);
      const Eigen::MatrixXd inBasis = La * sum * La.transpose();
      H.block(a * m, a * m, m, m).triangularView<Eigen::Upper>() += inBasis;
      return;
    }
    H.block(a * m, b * m, m, m).noalias() -= (La * gramOf(a, b)) * L[static_cast<std::size_t>(b)].transpose();
  });
}

void PairCurvature::byClassBases(Eigen::MatrixXd& H, const Eigen::MatrixXd& kappa, const std::vector<Eigen::MatrixXd>& V) {
  const Index n = augmented_.rows(), m = pairs_.size();
  coordinates_.resize(static_cast<std::size_t>(C_));
  parallelFor(C_, [&](Index c) {  // each class its own coordinates: x̃ᵀE_αx̃ = p_ap_b (·√2 off the diagonal), p = Vᵀx̃
    coordinates_[static_cast<std::size_t>(c)] = outerProductCoordinates(pairs_, augmented_ * V[static_cast<std::size_t>(c)]);
  });
  const auto blocks = classPairs(C_, true);
  parallelFor(static_cast<Index>(blocks.size()), [&](Index task) {
    const auto [a, b] = blocks[static_cast<std::size_t>(task)];
    const Eigen::MatrixXd& Pa = coordinates_[static_cast<std::size_t>(a)];
    Eigen::MatrixXd scaled;
    if (a == b) {
      // ω ≥ 0 on the diagonal blocks (Σ_c κ_ic on a's own rows, κ_ia on the others): a
      // symmetric rank-n update, half a product's flops.
      Eigen::VectorXd omega = kappa.col(a);
      for (Index i = start(a); i < end(a); ++i) omega[i] = kappa.row(i).sum();
      if (omega.isZero(0)) return;
      omega = omega.cwiseMax(0.0).cwiseSqrt();
      auto Haa = H.block(a * m, a * m, m, m).selfadjointView<Eigen::Upper>();
      for (Index first = 0; first < n; first += kSliceRows) {
        const Index count = std::min(kSliceRows, n - first);
        scaled.noalias() = omega.segment(first, count).asDiagonal() * Pa.middleRows(first, count);
        Haa.rankUpdate(scaled.transpose());
      }
      return;
    }
    // Off the diagonal ω is −κ_ib on class a's rows, −κ_ia on class b's, 0 on the rest.
    const Eigen::MatrixXd& Pb = coordinates_[static_cast<std::size_t>(b)];
    auto Hab = H.block(a * m, b * m, m, m);
    for (const auto& [own, other] : {std::pair{a, b}, std::pair{b, a}}) {
      for (Index first = start(own); first < end(own); first += kSliceRows) {
        const Index count = std::min(kSliceRows, end(own) - first);
        scaled.noalias() = (-kappa.col(other).segment(first, count)).asDiagonal() * Pb.middleRows(first, count);
        Hab.noalias() += Pa.middleRows(first, count).transpose() * scaled;
      }
    }
  });
}

}  // namespace dpstudio::lmgc_detail
