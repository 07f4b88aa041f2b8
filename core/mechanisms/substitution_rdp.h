#pragma once
// DP-SGD's privacy under the product's adjacency: substitution of one example (docs/algorithms.md §0.1).
//
// Why this exists: the RDP accountant (core/privacy/rdp_accountant.h; Mironov, Talwar &
// Zhang 2019) bounds the Poisson-subsampled Gaussian for add/remove neighbours, D and
// D0 = D − {x}: one example's clipped gradient moves the noisy sum by at most ν. A
// substitution D' = D0 + {x'} can move it by 2ν, so the add/remove ε is not a substitution
// guarantee (for small q the substitution RDP is about four times the add/remove one, and
// ε about twice).
//
// The bound used. D and D' have the common add/remove neighbour D0. Rényi divergences obey
// a weak triangle inequality (Mironov 2017, "Rényi Differential Privacy", Prop. 11 with
// p = q = 2; it is Hölder's inequality applied to ∫P^α R^{1−α}): for every order α > 1,
//   D_α(P‖R) ≤ ((α − ½)/(α − 1))·D_{2α}(P‖Q) + D_{2α−1}(Q‖R),
// with P, Q, R the laws of the whole T-step transcript on D, D0 and D'. Both right-hand
// terms are add/remove divergences of T adaptively composed sampled-Gaussian steps, each at
// most T·RDP_SGM at its order (the sampled-Gaussian bound holds in both directions:
// Mironov, Talwar & Zhang 2019, §3.3), so
//   RDP_sub(α) ≤ T·[((α − ½)/(α − 1))·RDP_SGM(2α) + RDP_SGM(2α − 1)].
// The mechanism on D0 is the same algorithm with the same public constants (q, the expected
// batch size q·n, T); it is only an intermediate of the proof. The bound is symmetric in
// x and x', so the usual RDP → (ε, δ) conversions apply. With q = 1 (no subsampling) the
// exact value is used instead: the Gaussian of sensitivity 2, RDP_sub(α) = T·2α/σ².
//
// Several events (q_i, σ_i, T_i) compose by adding their substitution RDP curves order by
// order (RDP composes additively under any fixed adjacency).
//
// Orders: the accountant's defaultRdpOrders(); an order whose series does not converge is
// skipped, as in the accountant. Pure functions, thread-safe.

#include <vector>

#include "core/privacy/rdp_accountant.h"
#include "core/util/result.h"

namespace dpstudio::mech {

struct SubstitutionAccount {
  double epsilon = 0;           // under substitution, improved conversion (Canonne et al. 2020)
  double order = 0;             // its minimizing order
  double epsilonClassic = 0;    // under substitution, classic conversion (Mironov 2017)
  double epsilonAddRemove = 0;  // the add/remove ε of the same run (improved), for comparison
};

// ε of `steps` steps at sampling rate q in (0, 1] and noise multiplier σ > 0, at δ in (0, 1).
// Errors (InvalidPrivacy) name "q", "sigma", "steps" or "delta".
Result<SubstitutionAccount> accountSubstitution(double q, double sigma, long long steps, double delta);
// The same for the composition of several events (the RDP accountant's SgmEvent; errors
// also say which event, 1-based).
Result<SubstitutionAccount> accountSubstitution(const std::vector<privacy::SgmEvent>& events, double delta);

// One event's substitution RDP at each of `orders` (> 1): +∞ where a series does not
// converge. The curve private selection composes (selection.h). Errors as accountSubstitution.
Result<std::vector<double>> substitutionRdpCurve(const privacy::SgmEvent& event, const std::vector<double>& orders);

struct SubstitutionCalibration {
  double sigma = 0;  // the smallest σ found (to a relative 1e-9) with account.epsilon ≤ target
  SubstitutionAccount account;  // at that σ
};

// Geometric bisection on σ that returns the upper end of its final bracket, so
// account.epsilon ≤ targetEpsilon always holds (conservative). Errors name "target_epsilon"
// when no σ ≤ 1e8 reaches it.
Result<SubstitutionCalibration> calibrateSubstitution(double q, long long steps, double delta,
                                                      double targetEpsilon);
// One σ shared by all events (their sigma fields are ignored).
Result<SubstitutionCalibration> calibrateSubstitution(const std::vector<privacy::SgmEvent>& events, double delta,
                                                      double targetEpsilon);

}  // namespace dpstudio::mech
