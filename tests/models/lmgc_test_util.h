#pragma once
// Random inputs shared by the LMGC test suites.

#include <vector>

#include <Eigen/Core>

#include "core/models/lmgc.h"
#include "core/random/rng.h"

namespace dpstudio::test {

inline Eigen::MatrixXd gaussianMatrix(Eigen::Index rows, Eigen::Index cols, Rng& rng) {
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) m(i, j) = rng.normal();
  return m;
}

// Rows with norms spread over (0, 1] (every fourth exactly 1), labels uniform in [0, C).
inline void randomLabelledRows(Eigen::Index n, Eigen::Index d, Eigen::Index C, Rng& rng,
                               Eigen::MatrixXd& X, Eigen::VectorXi& y) {
  X = gaussianMatrix(n, d, rng);
  y.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double radius = i % 4 == 0 ? 1.0 : rng.uniform(0.05, 1.0);
    X.row(i) *= radius / X.row(i).norm();
    y[i] = static_cast<int>(rng.uniformIndex(static_cast<std::uint64_t>(C)));
  }
}

// Symmetric class matrices of typical size `scale`: PSD (G Gᵀ/D) or indefinite.
inline Eigen::VectorXd randomLmgcTheta(const LmgcModel& model, Rng& rng, double scale, bool psd) {
  const Eigen::Index D = model.augmentedDim();
  std::vector<Eigen::MatrixXd> phis;
  for (Eigen::Index c = 0; c < model.classes(); ++c) {
    const Eigen::MatrixXd g = gaussianMatrix(D, D, rng);
    phis.push_back(psd ? Eigen::MatrixXd(scale * g * g.transpose() / static_cast<double>(D))
                       : Eigen::MatrixXd(0.5 * scale * (g + g.transpose())));
  }
  return model.packParameters(phis);
}

}  // namespace dpstudio::test
