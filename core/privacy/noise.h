#pragma once
// The noise distributions of docs/algorithms.md §0–§1, drawn from a NoiseSource.
//
// Each draw validates its parameters first (errors are ErrorKind::InvalidPrivacy and name
// the parameter: "beta must be finite and > 0, found 0"), then returns the whole noise
// vector and its Euclidean norm, so a mechanism's report can say exactly what was added.
// Nothing here rounds: release-mode rounding applies to the released value
// (release_granularity.h). Thread-safety: as the source's (one source per thread).

#include <Eigen/Core>

#include <cstddef>

#include "core/privacy/noise_source.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

struct NoiseDraw {
  Eigen::VectorXd noise;  // m coordinates
  double norm = 0.0;      // ‖noise‖₂
};

// ℓ2-Laplace(β, m): density ∝ exp(−β‖b‖₂) on R^m, drawn once over all m coordinates
// (a model of several parameter blocks gets ONE draw over their concatenation, §0):
// b = r·u, r ~ Gamma(shape m, scale 1/β), u = g/‖g‖ with g ~ N(0, I_m).
// E‖b‖ = m/β. Adding it to a function of ℓ2-sensitivity Δ with β = ε/Δ is ε-DP.
// Requires β finite > 0, m ≥ 1.
Result<NoiseDraw> drawL2Laplace(NoiseSource& source, double beta, Eigen::Index m);

// Isotropic Gaussian N(0, σ² I_m). Requires σ finite > 0, m ≥ 1.
Result<NoiseDraw> drawGaussian(NoiseSource& source, double sigma, Eigen::Index m);

// m independent Laplace(0, b) coordinates, density ∝ exp(−|x|/b) each — used only by the
// "as published" variants (e.g. §3 I). Each coordinate: a fair sign times b·Exp(1).
// Requires b (`scale`) finite > 0, m ≥ 1.
Result<NoiseDraw> drawLaplacePerCoordinate(NoiseSource& source, double scale, Eigen::Index m);

// E‖b‖ for ℓ2-Laplace(β, m) (= m/β) and for N(0, σ²I_m) (= σ√2·Γ((m+1)/2)/Γ(m/2)); for
// the live calibration text ("E‖b‖ = …"). Arguments are not validated (NaN on bad input).
double expectedNormL2Laplace(double beta, Eigen::Index m);
double expectedNormGaussian(double sigma, Eigen::Index m);

// The exponential mechanism: returns index y with probability ∝ exp(β·u_y), sampled exactly
// (exact_bernoulli.h: no candidate is cut off however small its weight, unlike a float
// inverse-CDF sampler, which never returns weights below ~2⁻⁵³ of the total). Any finite
// utilities (β·u ~ 1e4 and beyond). Draws from `source` only, so experiment mode replays
// from the seed. Requires β finite > 0 and a non-empty vector of finite utilities.
// Privacy is the caller's: 2β-DP when one substitution moves each u_y by ≤ 1 (§1).
Result<Eigen::Index> sampleExponentialMechanism(NoiseSource& source, double beta,
                                                const Eigen::VectorXd& utility);

// The exact probabilities of that sampler, by log-sum-exp (same validation).
Result<Eigen::VectorXd> exponentialMechanismProbabilities(double beta,
                                                          const Eigen::VectorXd& utility);

}  // namespace dpstudio::privacy
