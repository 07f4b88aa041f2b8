#include "core/learn/decision_map.h"

#include <Eigen/LU>

#include "core/util/parallel.h"

namespace dpstudio {
namespace {

// The six monomials of a quadratic in (u, v), in a fixed order.
Eigen::Matrix<double, 1, 6> monomials(double u, double v) {
  Eigen::Matrix<double, 1, 6> m;
  m << 1.0, u, v, u * u, u * v, v * v;
  return m;
}

RegionMap exactRegions(const Model& model, const Eigen::VectorXd& theta, const ViewProjection& view,
                       const ViewGrid& grid) {
  // Six points spread over the grid (well-conditioned), then solve for each class's
  // coefficients: scores(points) = V · coefficients.
  const double cx = 0.5 * (grid.xMin + grid.xMax), cy = 0.5 * (grid.yMin + grid.yMax);
  const double hx = 0.5 * (grid.xMax - grid.xMin), hy = 0.5 * (grid.yMax - grid.yMin);
  const double pts[6][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}};
  Eigen::Matrix<double, 6, 6> V;
  Eigen::MatrixXd U(6, 2);
  for (int k = 0; k < 6; ++k) {
    V.row(k) = monomials(pts[k][0], pts[k][1]);  // in normalized coordinates
    U(k, 0) = cx + hx * pts[k][0];
    U(k, 1) = cy + hy * pts[k][1];
  }
  const Eigen::MatrixXd S = model.scores(theta, view.lift(U));  // 6 × C
  const Eigen::MatrixXd coefficients = V.fullPivLu().solve(S);  // 6 × C

  RegionMap map{grid.width, grid.height, std::vector<int>(static_cast<std::size_t>(grid.width) * grid.height), true};
  const Index C = S.cols();
  parallelFor(grid.height, [&](Index row) {
    const double v = (grid.y(static_cast<int>(row)) - cy) / (hy == 0 ? 1 : hy);
    // Per row the score is a quadratic in u alone: a + b·u + c·u².
    const Eigen::RowVectorXd a = coefficients.row(0) + v * coefficients.row(2) + v * v * coefficients.row(5);
    const Eigen::RowVectorXd b = coefficients.row(1) + v * coefficients.row(4);
    const Eigen::RowVectorXd c = coefficients.row(3);
    for (int column = 0; column < grid.width; ++column) {
      const double u = (grid.x(column) - cx) / (hx == 0 ? 1 : hx);
      int best = 0;
      double bestScore = a[0] + u * (b[0] + u * c[0]);
      for (Index k = 1; k < C; ++k) {
        const double score = a[k] + u * (b[k] + u * c[k]);
        if (score > bestScore) {
          bestScore = score;
          best = static_cast<int>(k);
        }
      }
      map.labels[static_cast<std::size_t>(row) * grid.width + column] = best;
    }
  });
  return map;
}

RegionMap pointwiseRegions(const Model& model, const Eigen::VectorXd& theta, const ViewProjection& view,
                           const ViewGrid& grid) {
  RegionMap map{grid.width, grid.height, std::vector<int>(static_cast<std::size_t>(grid.width) * grid.height), false};
  parallelFor(grid.height, [&](Index row) {
    Eigen::MatrixXd U(grid.width, 2);
    for (int column = 0; column < grid.width; ++column) {
      U(column, 0) = grid.x(column);
      U(column, 1) = grid.y(static_cast<int>(row));
    }
    const Eigen::VectorXi labels = model.predict(theta, view.lift(U));
    for (int column = 0; column < grid.width; ++column)
      map.labels[static_cast<std::size_t>(row) * grid.width + column] = labels[column];
  });
  return map;
}

}  // namespace

RegionMap computeDecisionRegions(const Model& model, const Eigen::VectorXd& theta,
                                 const ViewProjection& view, const ViewGrid& grid) {
  if (grid.width <= 0 || grid.height <= 0) return RegionMap{};
  const int degree = model.scoreDegree();
  if (degree >= 1 && degree <= 2) return exactRegions(model, theta, view, grid);
  return pointwiseRegions(model, theta, view, grid);
}

}  // namespace dpstudio
