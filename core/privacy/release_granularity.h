#pragma once
// Rounding of released parameters in release mode (docs/algorithms.md §1.2 "Randomness").
//
// Why: floating-point noise is not the real-valued distribution of the proofs. A double
// x + noise can only take values whose low-order bits depend on x, so one released number
// can reveal x exactly (Mironov, "On significance of the least significant bits for
// differential privacy", CCS 2012). Rounding every released coordinate to a grid coarser
// than the float spacing erases those bits.
//
// The choice (a grid tied to the released magnitude, not Mironov's snapping mechanism,
// which is one-dimensional Laplace with a clamp while the product's noise is ℓ2-Laplace or
// Gaussian over many coordinates, and often not added to the output at all):
//
//   g = max(2^(⌊log2 s⌋ − 30), 2^k · ulp(M)),  k = kReleaseGridUlpBits = 12,
//
// where s is the per-coordinate noise scale (σ, 1/β or b) and M the largest magnitude among
// the released coordinates, ulp(M) = 2^(⌊log2 M⌋ − 52) the float spacing there. M is read
// from the noisy vector itself, so choosing g from it is post-processing of the release.
// Every grid cell then holds at least 2^12 consecutive doubles at the largest magnitude,
// whatever |θ|/s is. The first term alone (the grid before issue 13) is finer than the
// float spacing once |θ| > 2^30·s, e.g. |θ| = 1e6 with s = 1e-3: the rounding then did
// nothing. g is a power of two, so rounding is exact.
//
// Noise scale, enlarged by kReleaseNoiseFactor = 1 + 2^-10 (output perturbation, where the
// noise is added to the released vector; enlargeNoiseForRelease in core/mechanisms): the
// float sum θ ⊕ b differs from θ + b by at most ulp(M)/2 per coordinate, ‖e‖₂ ≤ √m·ulp(M)/2.
// Treating that error as a shift of θ, the release is the post-processing of a mechanism of
// sensitivity Δ + √m·ulp(M), which noise calibrated for Δ and enlarged by F covers while
// √m·ulp(M) ≤ (F − 1)·Δ (floatErrorCovered; reports warn otherwise — a statement about
// the released vector, so again post-processing). The reported β or σ is the enlarged one,
// the value actually used. Mechanisms whose noise enters an objective or a gradient step
// (B, C, D, E, F) round their output to the same grid; the float argument above does not
// apply to them, so their noise is not enlarged.
// Rounding is post-processing of the noisy value (never of the noise alone); bundles and
// reports record g.

#include <Eigen/Core>

#include "core/privacy/noise_source.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

inline constexpr int kReleaseGridBitsBelowScale = 30;
inline constexpr int kReleaseGridUlpBits = 12;
inline constexpr double kReleaseNoiseFactor = 1.0 + 0x1.0p-10;

// The noise-scale term alone: 2^(⌊log2 scale⌋ − 30) for a finite scale > 0 (errors name
// "scale"). Not a release grid by itself (see above).
Result<double> releaseGranularity(double scale);

// The release grid for noise scale `scale` and largest released magnitude `largest` ≥ 0.
Result<double> releaseGrid(double scale, double largest);

// ulp(M) = 2^(⌊log2 M⌋ − 52) for M > 0 (the spacing of doubles in M's binade); 0 for M = 0.
double floatSpacing(double magnitude);

// Whether the float error of an additive release of m coordinates with largest magnitude
// `largest` is covered by kReleaseNoiseFactor for sensitivity Delta: √m·ulp(M) ≤ (F − 1)·Δ.
bool floatErrorCovered(double Delta, Eigen::Index m, double largest);

// Rounds x to the nearest multiple of g (ties to even). g must be a power of two, so the
// result is exact: x/g and k·g involve no rounding. Non-finite values are left unchanged.
double roundToGranularity(double x, double granularity);
void roundToGranularity(Eigen::Ref<Eigen::VectorXd> values, double granularity);

// In release mode, rounds `values` to releaseGrid(scale, max |values_i|) and returns the
// grid; in experiment mode leaves them unchanged and returns 0 (reports show "none").
Result<double> applyReleaseGranularity(const NoiseSource& source, Eigen::Ref<Eigen::VectorXd> values,
                                       double scale);
// The same for a release whose noise was drawn elsewhere (the multiparty curator process
// learns the kind from the parties' hellos and holds no source of his own).
Result<double> applyReleaseGranularity(NoiseKind kind, Eigen::Ref<Eigen::VectorXd> values, double scale);

}  // namespace dpstudio::privacy
