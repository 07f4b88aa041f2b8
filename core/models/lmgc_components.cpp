#include "core/models/lmgc_components.h"

#include <limits>
#include <vector>

#include "core/random/rng.h"

namespace dpstudio {
namespace {

// Fixed seeds: the centres are part of the method, not of a run.
constexpr std::uint64_t kPublicSeed = 0x6c6d6763'6d697874ULL;  // "lmgcmixt"
constexpr std::uint64_t kKMeansSeed = 0x6b6d6561'6e732b2bULL;  // "kmeans++"
constexpr int kLloydIterations = 100;

// k-means on `rows` (r × d) with M centres; centres stay put when their cluster empties.
Eigen::MatrixXd kMeans(const Eigen::MatrixXd& rows, Index M, Rng& rng) {
  const Index r = rows.rows(), d = rows.cols();
  Eigen::MatrixXd centres(M, d);
  if (r == 0) return Eigen::MatrixXd::Zero(M, d);
  // k-means++: each next centre drawn with probability ∝ its squared distance to the nearest.
  centres.row(0) = rows.row(static_cast<Index>(rng.uniformIndex(static_cast<std::uint64_t>(r))));
  Eigen::VectorXd nearest = (rows.rowwise() - centres.row(0)).rowwise().squaredNorm();
  for (Index m = 1; m < M; ++m) {
    const double total = nearest.sum();
    Index pick = 0;
    if (total > 0) {
      double target = rng.uniform01() * total;
      while (pick + 1 < r && target >= nearest[pick]) target -= nearest[pick++];
    }
    centres.row(m) = rows.row(pick);  // all rows alike: a repeat, which keeps no rows
    nearest = nearest.cwiseMin((rows.rowwise() - centres.row(m)).rowwise().squaredNorm());
  }
  std::vector<Index> owner(static_cast<std::size_t>(r), -1);
  for (int iteration = 0; iteration < kLloydIterations; ++iteration) {
    bool moved = false;
    for (Index i = 0; i < r; ++i) {
      Index best = 0;
      (centres.rowwise() - rows.row(i)).rowwise().squaredNorm().minCoeff(&best);
      if (owner[static_cast<std::size_t>(i)] != best) moved = true;
      owner[static_cast<std::size_t>(i)] = best;
    }
    if (!moved) break;
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(M, d);
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(M);
    for (Index i = 0; i < r; ++i) {
      sums.row(owner[static_cast<std::size_t>(i)]) += rows.row(i);
      counts[owner[static_cast<std::size_t>(i)]] += 1;
    }
    for (Index m = 0; m < M; ++m)
      if (counts[m] > 0) centres.row(m) = sums.row(m) / counts[m];
  }
  return centres;
}

}  // namespace

Eigen::MatrixXd publicComponentCentres(Index inputDim, Index classes, Index components) {
  Rng rng(kPublicSeed);
  Eigen::MatrixXd centres(classes * components, inputDim);
  for (Index k = 0; k < centres.rows(); ++k) {
    for (Index j = 0; j < inputDim; ++j) centres(k, j) = rng.normal();
    centres.row(k) *= 0.5 / centres.row(k).norm();
  }
  return centres;
}

Eigen::MatrixXd kMeansComponentCentres(const Eigen::MatrixXd& X, const Eigen::VectorXi& y, Index classes,
                                       Index components) {
  Rng rng(kKMeansSeed);
  Eigen::MatrixXd centres(classes * components, X.cols());
  for (Index c = 0; c < classes; ++c) {
    std::vector<Index> members;
    for (Index i = 0; i < X.rows(); ++i)
      if (y[i] == c) members.push_back(i);
    Eigen::MatrixXd rows(static_cast<Index>(members.size()), X.cols());
    for (Index k = 0; k < rows.rows(); ++k) rows.row(k) = X.row(members[static_cast<std::size_t>(k)]);
    centres.middleRows(c * components, components) = kMeans(rows, components, rng);
  }
  return centres;
}

Index nearestComponent(const Eigen::Ref<const Eigen::RowVectorXd>& x, const Eigen::MatrixXd& centres, Index c,
                       Index components) {
  Index best = 0;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (Index m = 0; m < components; ++m) {
    const double distance = (centres.row(c * components + m) - x).squaredNorm();
    if (distance < bestDistance) {
      bestDistance = distance;
      best = m;
    }
  }
  return best;
}

Eigen::VectorXi ownComponents(const Eigen::MatrixXd& X, const Eigen::VectorXi& y, const Eigen::MatrixXd& centres,
                              Index components) {
  Eigen::VectorXi own(X.rows());
  for (Index i = 0; i < X.rows(); ++i) own[i] = static_cast<int>(nearestComponent(X.row(i), centres, y[i], components));
  return own;
}

}  // namespace dpstudio
