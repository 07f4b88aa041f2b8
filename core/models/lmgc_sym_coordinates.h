#pragma once
// Coordinates of D × D symmetric matrices in the orthonormal basis (Frobenius inner product)
// E_aa = e_aeₐᵀ, E_ab = (e_ae_bᵀ + e_be_aᵀ)/√2 for a < b: m = D(D + 1)/2 numbers, the off-diagonal
// entries times √2. The interior point (lmgc_interior.cpp) writes its Newton system in these
// coordinates, taken in each class matrix's eigenbasis.

#include <utility>
#include <vector>

#include <Eigen/Core>

namespace dpstudio::lmgc_detail {

// The basis's index pairs (a ≤ b), column by column of the upper triangle.
struct SymmetricPairs {
  std::vector<std::pair<Eigen::Index, Eigen::Index>> list;
  explicit SymmetricPairs(Eigen::Index D);
  Eigen::Index size() const { return static_cast<Eigen::Index>(list.size()); }
};

// The coordinates of the symmetric matrix S (its upper triangle is read).
void coordinatesOf(const SymmetricPairs& pairs, const Eigen::MatrixXd& S, Eigen::Ref<Eigen::VectorXd> out);
// The symmetric matrix with these coordinates.
Eigen::MatrixXd matrixOf(const SymmetricPairs& pairs, const Eigen::Ref<const Eigen::VectorXd>& coordinates,
                         Eigen::Index D);

// The m × m orthogonal map L with L·coords(S) = coords(VᵀSV), for V orthogonal. It turns
// anything built from coords(xxᵀ), the same for every class, into a class's eigenbasis:
// coords(Vᵀxxᵀ V) = L·coords(xxᵀ).
Eigen::MatrixXd basisChange(const SymmetricPairs& pairs, const Eigen::MatrixXd& V);

// Row i: coords(x_i x_iᵀ) for the rows x_i of X (n × D): n × m.
Eigen::MatrixXd outerProductCoordinates(const SymmetricPairs& pairs, const Eigen::MatrixXd& X);

}  // namespace dpstudio::lmgc_detail
