#pragma once
// Rounding of released parameters to a power-of-two grid (ALGORITHMS §1, Mironov 2012).
//
// Why: floating-point noise is not the real-valued distribution of the proofs. A double
// x + noise can only take values whose low-order bits depend on x, so one released number
// can reveal x exactly (Mironov, "On significance of the least significant bits for
// differential privacy", CCS 2012). Rounding every released coordinate to a fixed grid
// makes the set of possible outputs the same for every input.
//
// The choice: granularity g = 2^(⌊log2 s⌋ − 30), where s is a declared scale, normally
// the per-coordinate noise scale (σ for Gaussian noise, 1/β for ℓ2-Laplace, b for
// Laplace). So g lies in (s·2^-31, s·2^-30]: about a billionth of the noise scale, far below
// any statistical effect of the noise (the utility is unchanged), while each grid cell near
// the typical noise value still holds ~2^22 or more distinct doubles of the sampler, so the
// cell probabilities follow the continuous law closely.
// What this is not: Mironov's snapping mechanism, which rounds to a grid as coarse as the
// noise scale, clamps the output and has its own privacy proof. The grid here is the
// documented mitigation SPEC asks for in release mode; bundles record g.
// Rounding is post-processing of the noisy value (never of the noise alone).

#include <Eigen/Core>

#include "core/privacy/noise_source.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

inline constexpr int kReleaseGridBitsBelowScale = 30;

// g = 2^(⌊log2 scale⌋ − 30) for a finite scale > 0 (errors name "scale").
Result<double> releaseGranularity(double scale);

// Rounds x to the nearest multiple of g (ties to even). g must be a power of two, so the
// result is exact: x/g and k·g involve no rounding. Non-finite values are left unchanged.
double roundToGranularity(double x, double granularity);
void roundToGranularity(Eigen::Ref<Eigen::VectorXd> values, double granularity);

// In release mode, rounds `values` to releaseGranularity(scale) and returns g; in
// experiment mode leaves them unchanged and returns 0 (reports show "none").
Result<double> applyReleaseGranularity(const NoiseSource& source, Eigen::Ref<Eigen::VectorXd> values,
                                       double scale);

}  // namespace dpstudio::privacy
