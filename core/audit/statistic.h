#pragma once
// The scalar each audit run's release is reduced to (docs/algorithms.md §3 J (b)): where the release
// is a noise-free output plus noise of a known law, the log-likelihood ratio of D' against D
// — the most powerful statistic (Neyman–Pearson) — instead of a projection:
//  - ℓ2-Laplace (density ∝ e^{−β‖b‖}): s = ‖o − a‖ − ‖o − a'‖, summed over the release's
//    independent draws (one-vs-rest: one block per class);
//  - Laplace per coordinate: the same with ℓ1 norms;
//  - Gaussian (and a release that is not output + noise): the projection of o on the unit
//    direction from a to a', which is the likelihood ratio for spherical Gaussian noise.
// a, a' are the noise-free outputs on D and D'. Larger s points to D'. Pure, thread-safe.

#include <functional>
#include <string>

#include <Eigen/Dense>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::audit {

// Likelihood ratios are rounded to a grid of kLikelihoodGrid times their largest value (the
// shift ‖a' − a‖ of a draw), which is a grid point. Why: an ℓ2-Laplace ratio is ±‖a' − a‖
// exactly on whole regions of outputs, but computed from the floating-point output it
// scatters there by a few ulps, and how it scatters depends on whether o = a + b or
// o = a' + b was rounded (the low-order bits Mironov 2012 reads). A threshold inside that
// scatter then tells D from D' by the representation, not the calibration: prediction
// sensitivity on breast cancer (one answer, claimed ε = 1, true loss ≤ 0.5) was "certified"
// at 2.46 that way in experiment mode. The audit measures the calibration; release mode's
// rounding is what answers the representation (docs/algorithms.md §1.2).
inline constexpr double kLikelihoodGrid = 1e-9;
double onLikelihoodGrid(double value, double unit);

struct Statistic {
  std::function<double(const Eigen::VectorXd& released)> of;
  std::string description;  // what s is, for people
};

// blockSize: coordinates of one noise draw (the report's noiseDimension); the output's
// length must be a multiple of it. Refuses outputs that do not move (the audit would see
// nothing) with a BadData error naming `what`.
Result<Statistic> likelihoodStatistic(const Eigen::VectorXd& onD, const Eigen::VectorXd& onDprime, mech::NoiseLaw law,
                                      Index blockSize, const std::string& what);
Result<Statistic> projectionStatistic(const Eigen::VectorXd& onD, const Eigen::VectorXd& onDprime,
                                      const std::string& what);

}  // namespace dpstudio::audit
