#include "core/models/lmgc_mixture_solver.h"

#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/optim/lbfgs.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Φ_b = L_bL_bᵀ for every block.
Eigen::VectorXd productsOf(const Eigen::VectorXd& factors, Index blocks, Index D) {
  Eigen::VectorXd x(factors.size());
  for (Index b = 0; b < blocks; ++b) {
    const Eigen::Map<const Eigen::MatrixXd> L(factors.data() + b * D * D, D, D);
    Eigen::Map<Eigen::MatrixXd>(x.data() + b * D * D, D, D).noalias() = L * L.transpose();
  }
  return x;
}

}  // namespace

OptimizeSummary descendOverSquareFactors(const SmoothFunction& objective, Index blocks, Index D, Eigen::VectorXd& x,
                                         int maxIterations, const IterationCallback& callback) {
  Eigen::VectorXd factors(x.size());
  for (Index b = 0; b < blocks; ++b) {
    const Eigen::Map<const Eigen::MatrixXd> phi(x.data() + b * D * D, D, D);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(0.5 * (phi + phi.transpose()));
    Eigen::Map<Eigen::MatrixXd> L(factors.data() + b * D * D, D, D);
    L = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
    // L = 0 is a stationary point of the factored problem whatever J is: start beside it.
    if (L.squaredNorm() == 0) L = 1e-3 * Eigen::MatrixXd::Identity(D, D);
  }
  Eigen::VectorXd gradient;
  const double before = objective(x, gradient);
  const SmoothFunction overFactors = [&](const Eigen::VectorXd& f, Eigen::VectorXd& grad) {
    Eigen::VectorXd g;
    const double value = objective(productsOf(f, blocks, D), g);
    grad.resize(f.size());
    // ∂J/∂L_b = (G_b + G_bᵀ)L_b.
    for (Index b = 0; b < blocks; ++b) {
      const Eigen::Map<const Eigen::MatrixXd> G(g.data() + b * D * D, D, D);
      const Eigen::Map<const Eigen::MatrixXd> L(f.data() + b * D * D, D, D);
      Eigen::Map<Eigen::MatrixXd>(grad.data() + b * D * D, D, D).noalias() = (G + G.transpose()) * L;
    }
    return value;
  };
  LbfgsOptions options;
  options.maxIterations = maxIterations;
  options.absoluteTolerance = 0;
  options.relativeTolerance = 1e-12;  // the caller's measure decides; this only stops a stalled run
  OptimizeSummary summary = minimizeLbfgs(overFactors, factors, options, callback);
  const Eigen::VectorXd reached = productsOf(factors, blocks, D);
  Eigen::VectorXd unused;
  if (reached.allFinite() && objective(reached, unused) < before) x = reached;
  return summary;
}

}  // namespace dpstudio
