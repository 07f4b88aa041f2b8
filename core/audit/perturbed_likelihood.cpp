#include "core/audit/perturbed_likelihood.h"

#include <cmath>
#include <limits>
#include <memory>

namespace dpstudio::audit {
namespace {

// −∇J_X(θ): the noise that makes θ the minimizer on X.
Eigen::VectorXd explainingNoise(const Model& model, const Dataset& X, double A, const Eigen::VectorXd& theta) {
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(theta.size());
  model.lossSum(theta, X.X, X.y, &grad);
  return -(grad + A * theta);
}

// log det ∇²J_X(θ) by central differences of the gradient, symmetrized.
double logDetHessian(const Model& model, const Dataset& X, double A, const Eigen::VectorXd& theta) {
  const Index m = theta.size();
  const double step = 1e-6 * (1.0 + theta.norm());
  Eigen::MatrixXd H(m, m);
  Eigen::VectorXd plus(m), minus(m);
  for (Index j = 0; j < m; ++j) {
    Eigen::VectorXd t = theta;
    t[j] += step;
    plus = -explainingNoise(model, X, A, t);
    t[j] = theta[j] - step;
    minus = -explainingNoise(model, X, A, t);
    H.col(j) = (plus - minus) / (2.0 * step);
  }
  const Eigen::MatrixXd S = 0.5 * (H + H.transpose());
  const Eigen::LLT<Eigen::MatrixXd> llt(S);
  if (llt.info() != Eigen::Success) return -std::numeric_limits<double>::infinity();
  return 2.0 * llt.matrixLLT().diagonal().array().log().sum();
}

}  // namespace

bool exactLikelihoodAffordable(Index rows, Index parameters) {
  return static_cast<double>(rows) * static_cast<double>(parameters) * static_cast<double>(parameters) <= 5e6;
}

Result<Statistic> perturbedMinimizerStatistic(std::shared_ptr<const Model> model, const AuditProblem& problem,
                                              double quadratic, mech::NoiseLaw law, double scale) {
  if (law != mech::NoiseLaw::L2Laplace && law != mech::NoiseLaw::Gaussian)
    return Error{ErrorKind::Internal, "the perturbed-minimizer likelihood needs l2-Laplace or Gaussian noise", {}, 0,
                 "noise"};
  if (model->isConstrained())
    return Error{ErrorKind::Internal, "the perturbed-minimizer likelihood needs an unconstrained model", {}, 0,
                 "model"};
  if (!(scale > 0 && quadratic > 0))
    return Error{ErrorKind::Internal, "the perturbed-minimizer likelihood needs a noise scale and ρ > 0", {}, 0,
                 "noise"};
  const bool laplace = law == mech::NoiseLaw::L2Laplace;
  auto D = std::make_shared<const Dataset>(problem.D);
  auto Dprime = std::make_shared<const Dataset>(problem.Dprime);
  auto logDensity = [model, laplace, scale, quadratic](const Dataset& X, const Eigen::VectorXd& theta) {
    const Eigen::VectorXd b = explainingNoise(*model, X, quadratic, theta);
    const double noise = laplace ? -scale * b.norm() : -b.squaredNorm() / (2.0 * scale * scale);
    return noise + logDetHessian(*model, X, quadratic, theta);
  };
  auto of = [D, Dprime, logDensity](const Eigen::VectorXd& theta) {
    // On a grid of 1e-7 (statistic.h says why; the differenced Hessian adds ~1e-10 of its own).
    return onLikelihoodGrid(logDensity(*Dprime, theta) - logDensity(*D, theta), 1e-7 / kLikelihoodGrid);
  };
  return Statistic{of, std::string("the exact log-likelihood ratio of D' to D for the released minimizer: the ") +
                           (laplace ? "l2-Laplace" : "Gaussian") +
                           " density of the noise that explains it (minus the gradient of the noise-free "
                           "objective) times the Jacobian det of that objective's Hessian, on D' over on D"};
}

}  // namespace dpstudio::audit
