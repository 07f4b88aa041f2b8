#pragma once
// Internal to core/models (lmgc_solver.cpp, lmgc_interior.cpp): the congruence Φ_c ↦ MᵀΦ_cM
// that maps LMGC's class matrices between the original and the whitened coordinates
// (lmgc_solver.h explains the map).

#include <Eigen/Core>

namespace dpstudio::lmgc_detail {

// Φ ↦ MᵀΦM for every class block of a parameter vector (C blocks of D×D, column-major,
// D = M.rows()).
inline Eigen::VectorXd congruence(const Eigen::VectorXd& theta, const Eigen::MatrixXd& M, Eigen::Index classes) {
  const Eigen::Index D = M.rows();
  Eigen::VectorXd out(theta.size());
  for (Eigen::Index c = 0; c < classes; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> phi(theta.data() + c * D * D, D, D);
    Eigen::Map<Eigen::MatrixXd>(out.data() + c * D * D, D, D) = M.transpose() * phi * M;
  }
  return out;
}

}  // namespace dpstudio::lmgc_detail
