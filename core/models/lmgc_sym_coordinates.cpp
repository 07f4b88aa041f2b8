#include "core/models/lmgc_sym_coordinates.h"

#include <numbers>

namespace dpstudio::lmgc_detail {

using Index = Eigen::Index;

SymmetricPairs::SymmetricPairs(Index D) {
  for (Index b = 0; b < D; ++b)
    for (Index a = 0; a <= b; ++a) list.emplace_back(a, b);
}

void coordinatesOf(const SymmetricPairs& pairs, const Eigen::MatrixXd& S, Eigen::Ref<Eigen::VectorXd> out) {
  for (Index k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs.list[static_cast<std::size_t>(k)];
    out[k] = a == b ? S(a, a) : std::numbers::sqrt2 * S(a, b);
  }
}

Eigen::MatrixXd matrixOf(const SymmetricPairs& pairs, const Eigen::Ref<const Eigen::VectorXd>& coordinates, Index D) {
  Eigen::MatrixXd S(D, D);
  for (Index k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs.list[static_cast<std::size_t>(k)];
    if (a == b) {
      S(a, a) = coordinates[k];
    } else {
      S(a, b) = S(b, a) = coordinates[k] / std::numbers::sqrt2;
    }
  }
  return S;
}

// Column β = (k, l) is coords(VᵀE_βV); with v_k the k-th row of V, VᵀE_kkV = v_kv_kᵀ and
// VᵀE_klV = (v_kv_lᵀ + v_lv_kᵀ)/√2.
Eigen::MatrixXd basisChange(const SymmetricPairs& pairs, const Eigen::MatrixXd& V) {
  const Index m = pairs.size();
  Eigen::MatrixXd L(m, m);
  for (Index beta = 0; beta < m; ++beta) {
    const auto [k, l] = pairs.list[static_cast<std::size_t>(beta)];
    for (Index alpha = 0; alpha < m; ++alpha) {
      const auto [a, b] = pairs.list[static_cast<std::size_t>(alpha)];
      if (k == l) {
        L(alpha, beta) = V(k, a) * V(k, b) * (a == b ? 1.0 : std::numbers::sqrt2);
      } else if (a == b) {
        L(alpha, beta) = std::numbers::sqrt2 * V(k, a) * V(l, a);
      } else {
        L(alpha, beta) = V(k, a) * V(l, b) + V(l, a) * V(k, b);
      }
    }
  }
  return L;
}

Eigen::MatrixXd outerProductCoordinates(const SymmetricPairs& pairs, const Eigen::MatrixXd& X) {
  Eigen::MatrixXd out(X.rows(), pairs.size());
  for (Index k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs.list[static_cast<std::size_t>(k)];
    out.col(k) = X.col(a).cwiseProduct(X.col(b)) * (a == b ? 1.0 : std::numbers::sqrt2);
  }
  return out;
}

}  // namespace dpstudio::lmgc_detail
