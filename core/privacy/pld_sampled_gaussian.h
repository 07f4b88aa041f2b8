#pragma once
// One step of the Poisson-subsampled Gaussian as a privacy loss distribution (PLD) on a grid
// (docs/algorithms.md §1.5 "PLD accountant"): the exact hockey-stick curve δ(ε) of the step and its
// pessimistic "connect-the-dots" discretization (Doroshenko, Ghazi, Kamath, Kumar &
// Manurangsi 2022, Alg. 1). core/privacy/pld_accountant.h composes these. Pure functions,
// thread-safe.
//
// The mechanism, in units of the clipping norm: each example is included with probability
// q, the sum gets N(0, σ²) noise. By the usual reduction to one dimension (the worst case
// moves the sum by the clipping norm along one axis), the pairs (P, Q) of output laws are
//  - Remove (add/remove adjacency, the example present in P): P = (1−q)N(0,σ²) + qN(1,σ²),
//    Q = N(0,σ²);
//  - Add (the other direction of the same adjacency): P = N(0,σ²), Q = (1−q)N(0,σ²) + qN(1,σ²);
//  - Substitution (replace-one; Zhu, Dong & Wang 2022): P = (1−q)N(0,σ²) + qN(1,σ²),
//    Q = (1−q)N(0,σ²) + qN(−1,σ²) — the example is x in P and x' in Q, the two clipped
//    gradients pointing in opposite directions; this pair is symmetric (x ↦ −x swaps P, Q).
// The privacy loss L(x) = log(p(x)/q(x)) is monotone in x for each pair, so the hockey-stick
// divergence δ(ε) = ∫(p − e^ε q)₊ is a difference of Gaussian tail masses beyond the
// threshold x*(ε) where L(x*) = ε, which we evaluate without cancellation (see the .cpp).

#include <vector>

#include "core/util/result.h"

namespace dpstudio::privacy {

enum class PldPair { Remove, Add, Substitution };

// The exact δ(ε) = H_{e^ε}(P‖Q) of one step, for any real ε (negative ε included: the
// discretization needs the whole curve). Relative accuracy ~1e-13 or better (differences
// of Gaussian tails or of Mills ratios; never a difference of nearly equal δ-sized terms).
// Not validated: q in (0, 1], σ > 0.
double sampledGaussianDelta(PldPair pair, double q, double sigma, double epsilon);

// The privacy loss L(x) of the pair at the output x (remove: increasing in x, add:
// decreasing, substitution: increasing and odd). Not validated.
double sampledGaussianLoss(PldPair pair, double q, double sigma, double x);

// The loss's tails under both laws at a threshold: P[L > ε], P[L ≤ ε], Q[L > ε], Q[L ≤ ε],
// each from Gaussian tails of its own side (so a mass near 1 never hides a small one).
struct LossTails {
  double pAbove = 0, pBelow = 0, qAbove = 0, qBelow = 0;
};
LossTails sampledGaussianLossTails(PldPair pair, double q, double sigma, double epsilon);

// A distribution on the loss grid {(offset + i)·h : i = 0..probs.size()−1} plus an atom at
// +∞. Masses are ≥ 0; they sum (with infinityMass) to 1 up to rounding.
struct GridPld {
  double h = 0;
  long long offset = 0;
  std::vector<double> probs;
  double infinityMass = 0;
};

// Noise tails beyond kNoiseTailZ standard deviations (mass Φ(−10) ≈ 7.6e-24 per side) are
// not resolved by the grid: the upper one is charged to +∞ (δ of the last grid point), the
// lower one is lumped on the first grid point (a larger loss than its own: pessimistic).
inline constexpr double kNoiseTailZ = 10.0;

// The number of grid points connectTheDotsPld uses at interval h (computed, not built).
double connectTheDotsPoints(PldPair pair, double q, double sigma, double h);

// The pessimistic connect-the-dots PLD of one step on the grid of spacing h: supported on
// the grid points ε_i = i·h covering the losses of the outputs within kNoiseTailZ standard
// deviations, with the masses for which the discrete PLD's δ(ε) equals the exact δ(ε_i) at
// every grid point and interpolates linearly in e^ε between them. The exact curve is convex
// in e^ε, so the chord lies above it: the discrete PLD dominates the step (its δ(ε) ≥ the
// exact one for every ε), and so does every composition of such PLDs. Mass at +∞: δ at the
// last grid point.
// Errors: InvalidPrivacy naming "sigma" when the grid would have more than maxPoints points
// (a small σ makes the losses span hundreds of units).
Result<GridPld> connectTheDotsPld(PldPair pair, double q, double sigma, double h,
                                  long long maxPoints);

// The optimistic counterpart on the same grid: a discrete PLD dominated by the step (its
// δ(ε) ≤ the exact one for every real ε), so that compositions of such PLDs give a lower
// end for ε. Rounding losses down would do, but shifts a long composition by steps·h/2
// (ε 0 at 30 000 steps of h = 1e-4); instead, in y = e^ε where the exact curve D(y) is
// convex, each grid cell gets the tangent at its midpoint (below D), each grid point the
// lower of its two cells' tangents, and the chords between those points lie below the
// tangents: an error of the chord's own (second) order. The loss mass below the grid is
// dropped (a sub-probability lowers every δ), the chord from y = 0 starts at P[L > ε_0]
// under the first point's tangent, the last point has value 0 (the curve's top tail,
// δ at the last point, is dropped) and no mass sits at +∞. Masses are the slope changes of
// that chord polygon; one that rounding makes negative is set to 0 (an estimate's error,
// of the order of the round-off of δ). Same errors as connectTheDotsPld.
Result<GridPld> tangentPld(PldPair pair, double q, double sigma, double h, long long maxPoints);

}  // namespace dpstudio::privacy
