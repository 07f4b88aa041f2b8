#pragma once
// The law of the norm ‖b‖₂ of one noise draw (docs/algorithms.md §0–§1), for the Noise view's
// theoretical density and for goodness-of-fit tests of the samplers in noise.h.
//
//  - ℓ2-Laplace(β, m), density ∝ exp(−β‖b‖) on R^m: ‖b‖ ~ Gamma(shape m, scale 1/β),
//    pdf(r) = β^m r^{m−1} e^{−βr} / Γ(m), E‖b‖ = m/β.
//  - Gaussian N(0, σ²I_m): ‖b‖ = σ·χ_m, i.e. (‖b‖/σ)² ~ χ²_m,
//    pdf(r) = 2^{1−m/2} r^{m−1} e^{−r²/(2σ²)} / (σ^m Γ(m/2)), E‖b‖ = σ√2·Γ((m+1)/2)/Γ(m/2).
//
// Per-coordinate Laplace noise (an "as published" calibration) has no closed-form norm law
// and is deliberately not representable here.
//
// Everything is evaluated through the regularized incomplete gamma function (Boost.Math), so
// it stays finite for m in the millions (a DP-LMGC draw on image data). A value, cheap to
// copy; all members are const and thread-safe.

#include <Eigen/Core>

#include <string>

#include "core/privacy/noise_source.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

class NoiseNormLaw {
 public:
  enum class Family { L2Laplace, Gaussian };

  // Errors (InvalidPrivacy) name the parameter: β or σ finite and > 0, m ≥ 1.
  static Result<NoiseNormLaw> l2Laplace(double beta, Eigen::Index m);
  static Result<NoiseNormLaw> gaussian(double sigma, Eigen::Index m);

  Family family() const { return family_; }
  double parameter() const { return parameter_; }  // β (ℓ2-Laplace) or σ (Gaussian)
  Eigen::Index dimension() const { return m_; }    // m: coordinates of one draw

  double pdf(double r) const;  // density at r; 0 for r < 0
  double cdf(double r) const;  // P(‖b‖ ≤ r); 0 for r ≤ 0
  // The r with cdf(r) = p: 0 for p ≤ 0, +∞ for p ≥ 1, NaN for NaN.
  double quantile(double p) const;
  double mean() const;  // E‖b‖ (expectedNormL2Laplace / expectedNormGaussian)

  // One norm drawn from this law in O(1), without the m coordinates: the ℓ2-Laplace radius
  // Gamma(m, 1/β) exactly as drawL2Laplace draws it, and σ·√(Gamma(m/2, scale 2)) for σ·χ_m.
  // For simulating many draws of a large-m calibration quickly; the tests check both this and
  // the full samplers against cdf().
  double sample(NoiseSource& source) const;

  // "Gamma(m = 18, β = 1.02)" or "σ·χ₁₈, σ = 0.25": the law for people (3 significant digits).
  std::string describe() const;

  bool operator==(const NoiseNormLaw&) const = default;

 private:
  NoiseNormLaw(Family family, double parameter, Eigen::Index m)
      : family_(family), parameter_(parameter), m_(m) {}

  Family family_;
  double parameter_;
  Eigen::Index m_;
};

}  // namespace dpstudio::privacy
