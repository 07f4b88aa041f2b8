#pragma once
// The PLD accountant for DP-SGD (docs/algorithms.md §1.5 "PLD accountant"; Koskela et al. 2020,
// Gopi, Lee & Wutschitz 2021, Doroshenko et al. 2022): composes Poisson-subsampled
// Gaussian events — each (q, σ, steps), possibly all different, as the RDP accountant
// does — through their privacy loss distributions, and reads (ε, δ) off the composition.
// Near-exact where RDP is an upper bound: 8–12 % smaller ε for typical DP-SGD runs, and
// several times smaller for short ones.
//
// How, and why it never reports an ε below the true one:
//  1. Each step's PLD is discretized on the grid h·Z by "connect the dots"
//     (pld_sampled_gaussian.h): a discrete PLD that dominates the step.
//  2. The steps are composed by FFT: one transform per event, raised to the power `steps`
//     pointwise (repeated squaring in the frequency domain), the events multiplied, one
//     inverse transform. The transform length covers every loss the composition reaches
//     except a mass ≤ tailMass/2 on each side (a Chernoff bound on the composed grid index
//     from the events' moment generating functions); the upper part is charged to δ (as
//     loss +∞), the lower part is moved up (onto the window's lowest loss, or aliased into
//     the window by the cyclic transform), which only adds δ.
//  3. δ(ε) = P[L = ∞] + Σ_{ℓ > ε} P[L = ℓ](1 − e^{ε−ℓ}); ε(δ) is read off exactly (δ(ε) is
//     explicit between grid points), not by bisection.
// Charged to δ, besides the connect-the-dots mass at +∞ (noise beyond 10 standard
// deviations): the composition's upper tail, and a bound on the FFT's round-off (Higham
// 2002, Thm 24.2: ‖error‖₂ ≤ c·log₂N·u·‖x‖₂ per transform, through the powers by
// |a^T − b^T| ≤ T·|a − b| for |a|, |b| ≤ 1, and Σ|e_i| ≤ √W·‖e‖₂ over the W read-off
// points). The transforms and powers run in long double: in double that bound reached
// 5e-8 for 30 000 steps — half of δ = 1e-7, and ε 3 % high — where x87's 64-bit
// significand leaves 2.5e-11. Computed negative masses (round-off) are set to 0, which only
// raises δ. What is not charged: the ~1e-12 relative error of the per-step δ(ε) values the
// masses are formed from (pld_sampled_gaussian.h), far below the charges.
//
// The bracket: the same composition of the optimistic discretization (tangentPld, each
// step dominated by the exact one; both tails dropped), on half the interval where it fits,
// read at δ plus its round-off bound, gives a lower end for the exact ε (epsilonLower).
// [epsilonLower, epsilon] holds the exact ε; its width is the report's precision figure
// (errorBound): under 0.5 % at the default h = 1e-4 for the runs in the tests, δ from
// 1e-4 down to 1e-9.
//
// Adjacency: add/remove takes the worse of the two directions (the example present in the
// first law or in the second), as dp_accounting's ADD_OR_REMOVE_ONE; substitution is the
// symmetric replace-one pair (1−q)N(0,σ²)+qN(1,σ²) against (1−q)N(0,σ²)+qN(−1,σ²) (its
// REPLACE_ONE). Pure functions on values; thread-safe (the two directions of add/remove
// are composed on two workers of core/util/parallel.h).

#include <optional>
#include <string>
#include <vector>

#include "core/privacy/accountant_kind.h"
#include "core/privacy/rdp_accountant.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

struct PldOptions {
  // h: the loss grid's interval (dp_accounting's default). Where a run's losses span more
  // points than the limits below allow (small σ: ε in the tens or more), h is doubled until
  // they fit, up to maxDiscretization; the report gives the h used and its error.
  double discretization = 1e-4;
  double maxDiscretization = 1e-2;
  double tailMass = 1e-15;  // mass the composition may leave off its grid (charged)
  long long maxStepPoints = 1LL << 19;  // grid points of one step's PLD, at most
  long long maxTransform = 1LL << 20;   // FFT length, at most (~50 MB of work memory)
  // Also compose the optimistic discretization on the same grid (report only; doubles the
  // work): epsilonLower, and the bracket [epsilonLower, epsilon] around the exact ε.
  bool bracket = true;

  // Names "discretization", "tail_mass".
  Status validate() const;
};

struct PldReport {
  Adjacency adjacency = Adjacency::AddRemove;
  double delta = 0;
  // The headline: the smallest ε ≥ 0 with δ(ε) ≤ delta for the composed (pessimistic)
  // PLD, the worse direction for add/remove. +∞ if the mass charged at +∞ exceeds delta.
  double epsilon = 0;
  double epsilonRemove = 0;  // add/remove: the example in the first law; substitution: = epsilon
  double epsilonAdd = 0;     // add/remove: the example in the second law; substitution: = epsilon
  // δ mass counted at loss +∞ that the exact composition does not have there (worse
  // direction): noise tails beyond the grid, the composition's upper tail, the FFT
  // round-off bound. It is part of the δ the ε is reported at.
  double deltaCharged = 0;
  // How much of `epsilon` the charged mass accounts for: epsilon − ε(delta + deltaCharged)
  // (a bound: without that mass, δ(ε) would be lower by at most deltaCharged).
  double epsilonChargeError = 0;
  // The lower end of the bracket: ε of the optimistic discretization on the same grid
  // (pld_sampled_gaussian.h, tangentPld: each step's PLD dominated by the exact one, the
  // composition's tails dropped), read at δ plus the FFT's round-off bound. The exact ε
  // lies in [epsilonLower, epsilon]. Without options.bracket: epsilon − epsilonChargeError.
  double epsilonLower = 0;
  // epsilon − epsilonLower: the precision of the headline, as a bound.
  double errorBound = 0;
  // The grid's share of errorBound: errorBound − epsilonChargeError (≥ 0).
  double discretizationError = 0;
  double discretization = 0;     // h used (options.discretization unless coarsened)
  long long gridPoints = 0;      // points of the composed PLD read off (worse direction)
  long long transformLength = 0; // FFT length used (worse direction)
};

// ε of the composition of `events` at δ in (0, 1) under `adjacency`. Errors
// (InvalidPrivacy) name "q", "sigma", "steps" (1-based event index in the message),
// "delta", "discretization", "tail_mass"; "sigma" also when even maxDiscretization leaves
// the grid beyond the limits (σ ≲ 0.005: losses spanning thousands).
Result<PldReport> accountSampledGaussianPld(const std::vector<SgmEvent>& events, double delta,
                                            Adjacency adjacency, const PldOptions& options = {});

// δ(ε) of the same composition (worse direction) at each ε ≥ 0 given (in any order), from
// one composition. Same errors, and "epsilon".
Result<std::vector<double>> sampledGaussianPldDelta(const std::vector<SgmEvent>& events,
                                                    const std::vector<double>& epsilons,
                                                    Adjacency adjacency,
                                                    const PldOptions& options = {});

// The σ, shared by all events (their own sigma fields are ignored), whose PLD ε at δ is at
// most targetEpsilon: secant steps on (log σ, log ε) from sigmaHint (or 1) to a bracket,
// then regula falsi (Illinois) until the bracket is within 1e-6 (relative) or ε is within
// 1e-6 (relative) of the target, returning the bracket's upper end, so report.epsilon ≤
// targetEpsilon always (and σ·(1 − 1e-5) normally exceeds it). A σ whose
// grid exceeds the limits counts as too small; when the search meets such σ, it stops
// once the bracket is within 3 % (the σ returned is then up to 3 % larger than needed).
// sigmaHint: any guess > 0 (e.g. the RDP σ, whose PLD ε is normally below the target)
// saves evaluations.
// Errors: "target_epsilon" not finite/positive or not reachable with σ ≤ 1e8.
struct PldSigmaCalibration {
  double sigma = 0;
  PldReport report;  // at the returned σ
};
Result<PldSigmaCalibration> calibrateSgmSigmaPld(const std::vector<SgmEvent>& events,
                                                 double delta, double targetEpsilon,
                                                 Adjacency adjacency,
                                                 const PldOptions& options = {},
                                                 double sigmaHint = 0);

}  // namespace dpstudio::privacy
