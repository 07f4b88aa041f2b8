#include "core/privacy/noise.h"

#include <cmath>
#include <string>

#include <boost/math/special_functions/gamma.hpp>

#include "core/privacy/exact_bernoulli.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

Status requireDimension(Eigen::Index m) {
  if (m >= 1) return Ok{};
  return invalidParameter("m", "a whole number >= 1 (the number of noise coordinates)",
                          static_cast<double>(m));
}

Status validateUtility(double beta, const Eigen::VectorXd& utility) {
  if (auto ok = requirePositive("beta", beta); !ok) return ok;
  if (utility.size() == 0)
    return Error{ErrorKind::InvalidPrivacy, "utility must have at least one candidate", {}, 0,
                 "utility"};
  for (Eigen::Index i = 0; i < utility.size(); ++i)
    if (!std::isfinite(utility[i]) || !std::isfinite(beta * utility[i]))
      return Error{ErrorKind::InvalidPrivacy,
                   "utility must be finite (beta*utility too), found " +
                       formatNumber(utility[i]) + " at candidate " + std::to_string(i),
                   {}, 0, "utility"};
  return Ok{};
}

// Weights exp(β·u_y − max β·u): the largest is exactly 1, none overflows.
Eigen::VectorXd shiftedWeights(double beta, const Eigen::VectorXd& utility) {
  const Eigen::VectorXd scores = beta * utility;
  return (scores.array() - scores.maxCoeff()).exp().matrix();
}

}  // namespace

Result<NoiseDraw> drawL2Laplace(NoiseSource& source, double beta, Eigen::Index m) {
  if (auto ok = requirePositive("beta", beta); !ok) return ok.error();
  if (auto ok = requireDimension(m); !ok) return ok.error();
  NoiseDraw draw;
  draw.noise.resize(m);
  double directionNorm = 0.0;
  do {  // ‖g‖ = 0 has probability 0; redraw rather than divide by it
    for (Eigen::Index i = 0; i < m; ++i) draw.noise[i] = source.normal();
    directionNorm = draw.noise.norm();
  } while (!(directionNorm > 0.0));
  const double radius = source.gamma(static_cast<double>(m), 1.0 / beta);
  draw.noise *= radius / directionNorm;
  draw.norm = draw.noise.norm();
  return draw;
}

Result<NoiseDraw> drawGaussian(NoiseSource& source, double sigma, Eigen::Index m) {
  if (auto ok = requirePositive("sigma", sigma); !ok) return ok.error();
  if (auto ok = requireDimension(m); !ok) return ok.error();
  NoiseDraw draw;
  draw.noise.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) draw.noise[i] = sigma * source.normal();
  draw.norm = draw.noise.norm();
  return draw;
}

Result<NoiseDraw> drawLaplacePerCoordinate(NoiseSource& source, double scale, Eigen::Index m) {
  if (auto ok = requirePositive("scale", scale); !ok) return ok.error();
  if (auto ok = requireDimension(m); !ok) return ok.error();
  NoiseDraw draw;
  draw.noise.resize(m);
  for (Eigen::Index i = 0; i < m; ++i) {
    // Sign from one word's top bit, magnitude −b·log(1 − U), U in [0, 1), from the next
    // word: uniform01 uses a word's top 53 bits, so sharing one word would tie the two.
    const bool negative = (source.nextU64() >> 63) != 0;
    const double magnitude = -scale * std::log1p(-source.uniform01());
    draw.noise[i] = negative ? -magnitude : magnitude;
  }
  draw.norm = draw.noise.norm();
  return draw;
}

double expectedNormL2Laplace(double beta, Eigen::Index m) {
  return static_cast<double>(m) / beta;
}

double expectedNormGaussian(double sigma, Eigen::Index m) {
  const double half = static_cast<double>(m) / 2.0;
  // Γ((m+1)/2)/Γ(m/2) = 1/tgamma_delta_ratio(m/2, 1/2), finite for m in the millions.
  return sigma * std::sqrt(2.0) / boost::math::tgamma_delta_ratio(half, 0.5);
}

Result<Eigen::Index> sampleExponentialMechanism(NoiseSource& source, double beta,
                                                const Eigen::VectorXd& utility) {
  if (auto ok = validateUtility(beta, utility); !ok) return ok.error();
  // Rejection sampling: propose y uniformly, accept with probability exp(−β(u_max − u_y))
  // drawn exactly (exact_bernoulli.h). An accepted y has probability ∝ exp(β·u_y) exactly;
  // the best candidate is always accepted, so a proposal is accepted with probability ≥ 1/K.
  // The only rounding is of the exponent γ_y = β·(u_max − u_y) to a double (relative 2⁻⁵³,
  // none for the integer differences of votes and error counts before the product): a
  // factor e^(±2⁻⁵²·γ_y) on a weight, never a cutoff of small ones.
  const double best = utility.maxCoeff();
  const auto candidates = static_cast<std::uint64_t>(utility.size());
  RandomBits bits(source);
  for (;;) {
    const auto y = static_cast<Eigen::Index>(source.uniformIndex(candidates));
    const double gamma = beta * (best - utility[y]);
    if (bernoulliExpMinus(bits, gamma)) return y;
  }
}

Result<Eigen::VectorXd> exponentialMechanismProbabilities(double beta,
                                                          const Eigen::VectorXd& utility) {
  if (auto ok = validateUtility(beta, utility); !ok) return ok.error();
  const Eigen::VectorXd weights = shiftedWeights(beta, utility);
  return Eigen::VectorXd(weights / weights.sum());
}

}  // namespace dpstudio::privacy
