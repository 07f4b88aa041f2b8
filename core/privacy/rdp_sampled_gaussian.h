#pragma once
// Rényi-DP of one step of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar &
// Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian Mechanism"): each example
// is included with probability q, the sum of the (clipped, ℓ2-sensitivity-1) contributions
// gets N(0, σ²I) noise. RDP(α) = log A_α/(α − 1) with A_α = E_{z~N(0,σ²)}[(1 − q + q·
// e^{(2z−1)/(2σ²)})^α]. Pure functions, thread-safe.

#include "core/util/result.h"

namespace dpstudio::privacy {

// RDP at order α of one step. Requires q in (0, 1], σ finite > 0, α finite > 1; errors are
// InvalidPrivacy naming "q", "sigma" or "order".
//  - integer α ≥ 2: the exact binomial sum (docs/algorithms.md §1.4)
//    A_α = Σ_{k=0}^{α} C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}, as a log-sum-exp.
//  - fractional α: the paper's two series (§3.3), split at z0 = σ² ln(1/q − 1) + 1/2
//    where the two mixture components cross:
//    A_α = Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} · ½erfc((k − z0)/(√2σ))
//        + Σ_k C(α,k)(1−q)^k q^{α−k} e^{((α−k)²−(α−k))/(2σ²)} · ½erfc((z0 − (α−k))/(√2σ)).
//    Summed with signs in log space. For k > α both terms shrink monotonically and
//    C(α,k) alternates in sign, so stopping once a term is below 1e-17 of the sum bounds
//    the truncation error by that term. Stops with an Internal error if that takes more
//    than 10^7 terms (callers then skip the order and say so).
//  - q = 1: the plain Gaussian, α/(2σ²).
Result<double> sampledGaussianRdp(double q, double sigma, double order);

namespace detail {
// The fractional-order series for any α > 1 (also integer α, where it must agree with the
// binomial sum: a test checks it). Unvalidated. Sets *terms to the number of k used.
Result<double> sampledGaussianRdpSeries(double q, double sigma, double order, long* terms);
}  // namespace detail

}  // namespace dpstudio::privacy
