#include "core/models/ellipsoid_closing.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/math/tools/minima.hpp>

#include "core/linalg/symmetric_eigen.h"

namespace dpstudio {
namespace {

using Eigen::Index;

// One class's rows in the eigenbasis of its Ψ, summed so that the likelihood at any κ costs
// O(d): with z = Uᵀx, the centre's coordinates m'(κ) = (λ∘m + κ·(Uᵀa)) / (λ + κ) (m = Uᵀμ)
// and Σ_i (x_i − μ')ᵀ(Ψ + κI)(x_i − μ') = Σ_j (λ_j + κ)(S2_j − 2m'_j S1_j + n·m'_j²).
struct ClassSums {
  Eigen::VectorXd lambda;         // raw eigenvalues of Ψ
  Eigen::VectorXd lambdaCentre;   // λ ∘ (Uᵀμ) = Uᵀ(Ψμ)
  Eigen::VectorXd anchor;         // Uᵀa
  Eigen::VectorXd sum;            // S1
  Eigen::VectorXd sumOfSquares;   // S2
  double rows = 0;
};

// The profile log-likelihood at κ (α maximized out), up to a constant; −∞ where some
// λ_j + κ ≤ 0.
double profileLogLikelihood(const std::vector<ClassSums>& classes, double kappa) {
  double logDet = 0, spread = 0, rows = 0;
  Index d = 0;
  for (const ClassSums& c : classes) {
    const Eigen::ArrayXd shifted = c.lambda.array() + kappa;
    if ((shifted <= 0).any()) return -std::numeric_limits<double>::infinity();
    const Eigen::ArrayXd centre = (c.lambdaCentre.array() + kappa * c.anchor.array()) / shifted;
    spread += (shifted * (c.sumOfSquares.array() - 2 * centre * c.sum.array() + c.rows * centre.square())).sum();
    logDet += c.rows * shifted.log().sum();
    rows += c.rows;
    d = c.lambda.size();
  }
  if (!(spread > 0)) return -std::numeric_limits<double>::infinity();
  const double total = rows * static_cast<double>(d);
  return 0.5 * logDet + 0.5 * total * std::log(total / spread);
}

double largestMagnitude(const std::vector<ClassEllipsoid>& ellipsoids) {
  double largest = 0;
  for (const ClassEllipsoid& e : ellipsoids)
    if (e.shape.size() > 0) largest = std::max(largest, e.shape.cwiseAbs().maxCoeff());
  return largest;
}

}  // namespace

ClosingTerm closingTermFromData(const std::vector<ClassEllipsoid>& ellipsoids, const Eigen::MatrixXd& X,
                                const Eigen::VectorXi& y) {
  ClosingTerm term;
  const double scale = largestMagnitude(ellipsoids);
  if (X.rows() == 0 || ellipsoids.empty() || !(scale > 0)) return term;
  const Index d = X.cols();
  term.anchor = X.colwise().mean().transpose();

  std::vector<ClassSums> classes;
  double mostNegative = 0;
  for (std::size_t k = 0; k < ellipsoids.size(); ++k) {
    const ClassEllipsoid& e = ellipsoids[k];
    std::vector<Index> rows;
    for (Index i = 0; i < X.rows(); ++i)
      if (y[i] == static_cast<int>(k)) rows.push_back(i);
    if (rows.empty() || e.shape.rows() != d) continue;
    const SymmetricEigen eig = symmetricEigen(0.5 * (e.shape + e.shape.transpose()));
    const Eigen::MatrixXd Z = X(rows, Eigen::all) * eig.vectors;
    ClassSums sums;
    sums.lambda = eig.values;
    sums.lambdaCentre = eig.vectors.transpose() * (e.shape * e.centre);
    sums.anchor = eig.vectors.transpose() * term.anchor;
    sums.sum = Z.colwise().sum().transpose();
    sums.sumOfSquares = Z.colwise().squaredNorm().transpose();
    sums.rows = static_cast<double>(rows.size());
    mostNegative = std::max(mostNegative, -eig.values.minCoeff());
    classes.push_back(std::move(sums));
  }
  if (classes.empty()) return ClosingTerm{};

  // κ from just above the most negative eigenvalue (or 10⁻⁸ of the largest) to 100 times the
  // largest: beyond it every class is the same ball around a and the likelihood is flat.
  const double lowest = std::max(2 * mostNegative, 1e-8 * scale);
  const double lo = std::log(lowest), hi = std::log(100 * scale);
  const auto negative = [&](double logKappa) { return -profileLogLikelihood(classes, std::exp(logKappa)); };
  constexpr int kGrid = 80;
  int best = 0;
  double bestValue = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= kGrid; ++k) {
    const double value = negative(lo + (hi - lo) * k / kGrid);
    if (value < bestValue) bestValue = value, best = k;
  }
  // The likelihood need not be unimodal: Brent's search between the best grid point's neighbours.
  const double step = (hi - lo) / kGrid;
  const double left = lo + step * std::max(best - 1, 0), right = lo + step * std::min(best + 1, kGrid);
  std::uintmax_t iterations = 100;
  const auto [logKappa, value] = boost::math::tools::brent_find_minima(negative, left, right, 40, iterations);
  term.kappa = std::exp(value <= bestValue ? logKappa : lo + step * best);
  return term;
}

ClassEllipsoid closedEllipsoid(const ClassEllipsoid& ellipsoid, const ClosingTerm& term) {
  if (!(term.kappa > 0)) return ellipsoid;
  const Index d = ellipsoid.shape.rows();
  const Eigen::MatrixXd phi = phiFromEllipsoid(ellipsoid.shape, ellipsoid.centre, ellipsoid.offset) +
                              phiFromEllipsoid(term.kappa * Eigen::MatrixXd::Identity(d, d), term.anchor, 0.0);
  return extractEllipsoid(phi);
}

}  // namespace dpstudio
