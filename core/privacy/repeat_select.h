#pragma once
// The privacy of "run a private algorithm a random number of times and keep the best run"
// (docs/algorithms.md §3 K): Liu & Talwar 2019, "Private selection from private candidates";
// Papernot & Steinke 2022, "Hyperparameter tuning with Rényi differential privacy".
//
// The number of runs K follows the truncated negative binomial law D_{η,γ} on {1, 2, …},
// P(K = k) ∝ C(k + η − 1, k)·(1 − γ)^k, here with shape η = 0 (the logarithmic law,
// P(K = k) ∝ (1 − γ)^k / k) or η = 1 (the geometric law, P(K = k) = γ(1 − γ)^{k−1}). K is
// drawn independently of the data. If one run Q — the randomized choice of a candidate, its
// training and its noisy score — is (α, ε(α))-RDP at every order, then releasing the
// best-scoring run's output is, at every order λ > 1 (Papernot & Steinke, Theorem 2),
//
//   ε'(λ) = ε(λ) + (1 + η)·min_λ̂ [ (1 − 1/λ̂)·ε(λ̂) + log(1/γ)/λ̂ ] + log(E[K])/(λ − 1),
//
// and, Q being ε-DP (all orders, λ → ∞), (2 + η)·ε-DP (Liu & Talwar's 3ε for η = 1).
// Pure functions of public numbers; thread-safe.

#include <cstdint>
#include <vector>

#include "core/privacy/noise_source.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

// E[K] of D_{η,γ}: η = 0: (1/γ − 1)/log(1/γ); η = 1: 1/γ. γ in (0, 1]; E[K] = 1 at γ = 1.
double repetitionMean(double shape, double gamma);
// The γ whose law has mean `mean` (≥ 1), by bisection to a relative 1e-12 (η = 1: 1/mean).
double repetitionGamma(double shape, double mean);
// One draw of K (by inversion of the law's distribution function, from `noise`).
std::uint64_t drawRepetitions(double shape, double gamma, NoiseSource& noise);

// Papernot & Steinke's Theorem 2 at each of `orders` (all > 1) for one run's RDP curve `rdp`
// (the same length; +∞ allowed where unbounded), then made non-decreasing in the order from
// above (RDP is monotone in the order, so a higher order's bound holds below it too).
std::vector<double> repeatAndSelectRdp(const std::vector<double>& orders, const std::vector<double>& rdp,
                                       double shape, double gamma);
// Pure ε-DP runs: the whole selection is (2 + η)·ε-DP.
double repeatAndSelectPureEpsilon(double runEpsilon, double shape);

// RDP curves of the building blocks of one run:
// an ε-DP mechanism of any kind: min(ε, α·ε²/2) (ε-DP implies ε²/2-zCDP: Bun & Steinke 2016,
// Prop. 3.3);
std::vector<double> pureDpRdp(double epsilon, const std::vector<double>& orders);
// the Laplace mechanism of sensitivity 1 and scale 1/ε, exactly (Mironov 2017, Prop. 6):
// ε + log(1 + (α − 1)(e^{−(2α−1)ε} − 1)/(2α − 1))/(α − 1);
std::vector<double> laplaceRdp(double epsilon, const std::vector<double>& orders);
// the Gaussian mechanism of sensitivity Δ and standard deviation σ: α·Δ²/(2σ²).
std::vector<double> gaussianRdp(double sensitivity, double sigma, const std::vector<double>& orders);

}  // namespace dpstudio::privacy
