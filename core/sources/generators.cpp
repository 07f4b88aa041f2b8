// Synthetic datasets for teaching. Each draws only from Rng(seed), so a generator spec
// names its data exactly, on every machine.

#include <cmath>
#include <numbers>

#include <Eigen/QR>

#include "core/sources/builtin.h"
#include "core/random/rng.h"

namespace dpstudio {
namespace {

Dataset emptyDataset(Index rows, Index dim, int classes, const std::string& source) {
  Dataset data;
  data.X.resize(rows, dim);
  data.y.resize(rows);
  for (int c = 0; c < classes; ++c) data.classNames.push_back("class " + std::to_string(c));
  for (Index j = 0; j < dim; ++j) data.featureNames.push_back("x" + std::to_string(j + 1));
  data.provenance.source = source;
  data.provenance.format = "generator";
  return data;
}

// A random rotation, uniform enough for teaching: Q of a Gaussian matrix's QR.
Eigen::MatrixXd randomRotation(Index dim, Rng& rng) {
  Eigen::MatrixXd gaussian(dim, dim);
  for (Index j = 0; j < dim; ++j)
    for (Index i = 0; i < dim; ++i) gaussian(i, j) = rng.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
  return qr.householderQ();
}

}  // namespace

double blobsCentreRadius(const BlobsOptions& o) {
  // Centres on a circle in the first two coordinates, neighbours `separation` apart.
  return o.classes <= 2 ? o.separation / 2.0 : o.separation / (2.0 * std::sin(std::numbers::pi / o.classes));
}

Dataset makeBlobs(const BlobsOptions& o) {
  const Index n = static_cast<Index>(o.classes) * o.perClass;
  Dataset data = emptyDataset(n, o.dim, o.classes, "builtin:blobs");
  Rng rng(o.seed);
  const double radius = blobsCentreRadius(o);
  Index row = 0;
  for (int c = 0; c < o.classes; ++c) {
    Eigen::VectorXd centre = Eigen::VectorXd::Zero(o.dim);
    const double angle = 2.0 * std::numbers::pi * c / std::max(o.classes, 2);
    centre[0] = radius * std::cos(angle);
    if (o.dim > 1) centre[1] = radius * std::sin(angle);
    // Each class its own covariance: a random rotation of axis scales from 1 down to
    // 1/anisotropy, so class shapes differ (what LMGC's ellipsoids are for).
    Eigen::VectorXd scales(o.dim);
    for (int j = 0; j < o.dim; ++j)
      scales[j] = o.dim == 1 ? 1.0 : std::pow(o.anisotropy, -static_cast<double>(j) / (o.dim - 1));
    const Eigen::MatrixXd shape = randomRotation(o.dim, rng) * scales.asDiagonal();
    for (int k = 0; k < o.perClass; ++k, ++row) {
      Eigen::VectorXd z(o.dim);
      for (int j = 0; j < o.dim; ++j) z[j] = rng.normal();
      data.X.row(row) = (centre + shape * z).transpose();
      data.y[row] = c;
    }
  }
  return data;
}

Dataset makeMoons(const MoonsOptions& o) {
  Dataset data = emptyDataset(2 * static_cast<Index>(o.perClass), 2, 2, "builtin:moons");
  Rng rng(o.seed);
  Index row = 0;
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < o.perClass; ++k, ++row) {
      const double t = std::numbers::pi * rng.uniform01();
      const double x = c == 0 ? std::cos(t) : 1.0 - std::cos(t);
      const double y = c == 0 ? std::sin(t) : 0.5 - std::sin(t);
      data.X(row, 0) = x + o.noise * rng.normal();
      data.X(row, 1) = y + o.noise * rng.normal();
      data.y[row] = c;
    }
  }
  return data;
}

Dataset makeXor(const XorOptions& o) {
  Dataset data = emptyDataset(2 * static_cast<Index>(o.perClass), 2, 2, "builtin:xor");
  Rng rng(o.seed);
  Index row = 0;
  // Class 0 around (1, 1) and (−1, −1); class 1 around (1, −1) and (−1, 1).
  for (int c = 0; c < 2; ++c) {
    for (int k = 0; k < o.perClass; ++k, ++row) {
      const double sx = (k % 2 == 0) ? 1.0 : -1.0;
      const double sy = c == 0 ? sx : -sx;
      data.X(row, 0) = sx + o.noise * rng.normal();
      data.X(row, 1) = sy + o.noise * rng.normal();
      data.y[row] = c;
    }
  }
  return data;
}

}  // namespace dpstudio
