#include "core/models/lmgc_pair_curvature.h"

#include <algorithm>
#include <array>
#include <map>
#include <numbers>
#include <utility>

#include "core/util/parallel.h"

namespace dpstudio::lmgc_detail {
namespace {

using Index = Eigen::Index;

// Rows per slice (class bases: scaled into a slice-sized buffer, as a scaled copy of all the
// rows, 19 MB a class on shuttle every step, is fresh memory whose page faults cost more than
// the products) and per task (Gram matrices: a class's rows in chunks).
constexpr Index kSliceRows = 2048;
// Rows and quartic monomials formed at a time, in a buffer that stays in cache (2 MB; shuttle's
// D = 10 has 715 quartics, D = 40 would have 123 410).
constexpr Index kQuarticSlice = 256, kQuarticBlock = 1024;
// Doubles in a SIMD packet (AVX2) the product's row panels are made of.
constexpr Index kPaddedRows = 4;

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
  const double D = static_cast<double>(augmented.cols()), quartics = D * (D + 1) * (D + 2) * (D + 3) / 24;
  const double gramFlops = (C + 1) * n * quartics + C * (C + 1) * m * m * m;
  const double classBasesFlops = n * m * m * (3 * C - 2) / 2 + C * n * D * m;
  byGram_ = gramFlops < classBasesFlops;
  if (byGram_) prepareQuartics();
}

// x̃_kx̃_lx̃_k'x̃_l' for k ≤ l ≤ k' ≤ l' is q_αq_β/(s_αs_β) with α = (k, l), β = (k', l') and s the
// coordinates' scale (√2 off the diagonal), and G's entry (γ, δ) is s_γs_δ times the sum of
// the quartic with γ's and δ's indices sorted.
void PairCurvature::prepareQuartics() {
  const Index m = pairs_.size(), D = augmented_.cols();
  Eigen::MatrixXi pairIndex(D, D);
  for (Index k = 0; k < m; ++k) {
    const auto [a, b] = pairs_.list[static_cast<std::size_t>(k)];
    pairIndex(a, b) = pairIndex(b, a) = static_cast<int>(k);
  }
  const auto scale = [&](Index k) {
    const auto [a, b] = pairs_.list[static_cast<std::size_t>(k)];
    return a == b ? 1.0 : std::numbers::sqrt2;
  };
  std::map<std::array<Index, 4>, Index> index;
  for (Index k1 = 0; k1 < D; ++k1)
    for (Index k2 = k1; k2 < D; ++k2)
      for (Index k3 = k2; k3 < D; ++k3)
        for (Index k4 = k3; k4 < D; ++k4) {
          index.emplace(std::array{k1, k2, k3, k4}, static_cast<Index>(quarticFactors_.size()));
          quarticFactors_.emplace_back(pairIndex(k1, k2), pairIndex(k3, k4));
        }
  quarticOf_.resize(m, m);
  quarticScale_.resize(m, m);
  for (Index delta = 0; delta < m; ++delta)
    for (Index gamma = 0; gamma < m; ++gamma) {
      const auto [a, b] = pairs_.list[static_cast<std::size_t>(gamma)];
      const auto [c, d] = pairs_.list[static_cast<std::size_t>(delta)];
      std::array<Index, 4> sorted{a, b, c, d};
      std::sort(sorted.begin(), sorted.end());
      const Index t = index.at(sorted);
      quarticOf_(gamma, delta) = t;
      const auto [alpha, beta] = quarticFactors_[static_cast<std::size_t>(t)];
      quarticScale_(gamma, delta) = scale(gamma) * scale(delta) / (scale(alpha) * scale(beta));
    }
  // Tasks: each class's rows in chunks of kSliceRows, the same on any number of threads.
  for (Index c = 0; c < C_; ++c)
    for (Index first = start(c); first < end(c); first += kSliceRows)
      tasks_.push_back({c, first, std::min(kSliceRows, end(c) - first)});
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
  const Index m = pairs_.size(), quartics = static_cast<Index>(quarticFactors_.size());
  const Index paddedClasses = (C_ + kPaddedRows - 1) / kPaddedRows * kPaddedRows;
  // Each task's Σ_i κ_ic q_αq_β over its rows, for the quartics (α, β) and every class c.
  partials_.resize(tasks_.size());
  parallelFor(static_cast<Index>(tasks_.size()), [&](Index task) {
    const RowTask& rows = tasks_[static_cast<std::size_t>(task)];
    Eigen::MatrixXd& partial = partials_[static_cast<std::size_t>(task)];
    partial.setZero(paddedClasses, quartics);
    // A block of rows × quartics at a time, the same 2 MB buffer (a thread's) whatever D is.
    thread_local Eigen::MatrixXd monomials;
    monomials.resize(kQuarticSlice, kQuarticBlock);
    for (Index first = rows.first; first < rows.first + rows.count; first += kQuarticSlice) {
      const Index count = std::min(kQuarticSlice, rows.first + rows.count - first);
      // The κ's as the product's rows, padded with zeros to whole SIMD packets (kPaddedRows):
      // with 7 rows the product's kernel ran a 4-row panel and three single rows, and took a
      // third longer on shuttle.
      thread_local Eigen::MatrixXd weights;
      weights.setZero(paddedClasses, count);
      weights.topRows(C_) = kappa.middleRows(first, count).transpose();
      for (Index block = 0; block < quartics; block += kQuarticBlock) {
        const Index width = std::min(kQuarticBlock, quartics - block);
        for (Index t = 0; t < width; ++t) {
          const auto [alpha, beta] = quarticFactors_[static_cast<std::size_t>(block + t)];
          monomials.col(t).head(count) =
              outer_.col(alpha).segment(first, count).cwiseProduct(outer_.col(beta).segment(first, count));
        }
        partial.middleCols(block, width).noalias() += weights * monomials.topLeftCorner(count, width);
      }
    }
  });
  // Each class's sums, its tasks' in order.
  std::vector<Eigen::MatrixXd> byClass(static_cast<std::size_t>(C_), Eigen::MatrixXd::Zero(paddedClasses, quartics));
  for (std::size_t task = 0; task < tasks_.size(); ++task) byClass[static_cast<std::size_t>(tasks_[task].own)] += partials_[task];
  const auto pairsOfClasses = classPairs(C_, false);
  gram_.resize(pairsOfClasses.size());
  parallelFor(static_cast<Index>(pairsOfClasses.size()), [&](Index task) {
    const auto [a, b] = pairsOfClasses[static_cast<std::size_t>(task)];
    const Eigen::MatrixXd& Sa = byClass[static_cast<std::size_t>(a)];
    const Eigen::MatrixXd& Sb = byClass[static_cast<std::size_t>(b)];
    Eigen::MatrixXd& G = gram_[static_cast<std::size_t>(task)];
    G.resize(m, m);
    for (Index delta = 0; delta < m; ++delta)
      for (Index gamma = 0; gamma < m; ++gamma) {
        const Index t = quarticOf_(gamma, delta);
        G(gamma, delta) = quarticScale_(gamma, delta) * (Sa(b, t) + Sb(a, t));
      }
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
