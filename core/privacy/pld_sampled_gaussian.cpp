#include "core/privacy/pld_sampled_gaussian.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/privacy/log_math.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
constexpr double kLog2 = 0.69314718055994530942;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double upperTail(double t) { return 0.5 * std::erfc(t * kInvSqrt2); }  // Φ̄(t) = Φ(−t)
double logDensity(double t) { return -0.5 * t * t - kLogSqrt2Pi; }      // log φ(t)

// P(a < Z ≤ b) = Φ̄(a) − Φ̄(b) for a ≤ b, from the side where both tails are small, so two
// numbers near 1 are never subtracted.
double normalMass(double a, double b) {
  if (a >= 0) return upperTail(a) - upperTail(b);
  if (b <= 0) return upperTail(-b) - upperTail(-a);
  return 1.0 - upperTail(-a) - upperTail(b);
}

// log(M(a) − M(b)) for a < b, M the Mills ratio Φ̄(t)/φ(t) (decreasing). The subtraction
// loses about log10(t·σ) digits at most (M(t) − M(t + w) ≈ w/t² against M ≈ 1/t, w = 1/σ),
// i.e. 1e-13 relative for σ ≤ 100 over the grid's t ≤ 11.
double logMillsDifference(double a, double b) {
  const double difference = millsRatio(a) - millsRatio(b);
  return difference > 0 ? std::log(difference) : kNegInf;
}

// log(1 − q + q·e^s): the log-density ratio of (1−q)N(0,σ²) + qN(±1,σ²) to N(0,σ²), with
// s = (±2x − 1)/(2σ²). q = 1 gives s exactly.
double logMixtureRatio(double q, double s) { return logAddExp(std::log1p(-q), std::log(q) + s); }

// The threshold x*(ε) of the substitution pair: L(x*) = ε. With y = e^{x/σ²} and
// c = e^{−1/(2σ²)}, L(x) = ε is qc·y² − (1−q)(e^ε − 1)·y − e^ε·qc = 0, whose positive root
// is y = e^{ε/2}·exp(asinh((1−q)·sinh(ε/2)·e^{1/(2σ²)}/q)). The asinh argument is formed
// from its logarithm, so a small σ (e^{1/(2σ²)} huge) does not overflow.
double substitutionThreshold(double q, double sigma, double epsilon) {
  if (epsilon == 0.0 || q == 1.0) return sigma * sigma * epsilon / 2.0;
  const double half = std::abs(epsilon) / 2.0;
  const double logSinh = half + std::log(-std::expm1(-2.0 * half)) - kLog2;
  const double logArgument = std::log1p(-q) - std::log(q) + 1.0 / (2.0 * sigma * sigma) + logSinh;
  // asinh(z) = log(2z) + O(z⁻²): exact in double beyond z = e^20.
  const double asinhAbs = logArgument > 20.0 ? logArgument + kLog2 : std::asinh(std::exp(logArgument));
  const double sign = epsilon > 0 ? 1.0 : -1.0;
  return sigma * sigma * (epsilon / 2.0 + sign * asinhAbs);
}

// The hockey-stick divergence is δ = Σ_j c_j·Φ̄(t_j) over the Gaussian components j of P
// and Q beyond the threshold (c_j = P-weight − e^ε·Q-weight, t_j = (x* − μ_j)/σ), and at
// the threshold the densities balance: Σ_j c_j·φ(t_j) = 0. For ε ≥ 0 the sum cancels: its
// terms exceed δ by the factor M(t)/(M(t) − M(t ± 1/σ)) ≈ max(t, 1)·σ (M the Mills ratio),
// which costs log10 of it in digits. Up to a factor kDirectLimit (≤ 2.5 digits lost, δ to
// ~1e-13 relative: σ ≲ 25 over the whole grid) the sum is taken as it is, with erfc; beyond,
// the balance is used to write δ = Σ_j c_j·φ(t_j)·(M(t_j) − M(t_0)), a sum of positive
// terms, with the (slower) scaled erfc. For ε < 0 the sum is rearranged into positive
// terms instead (the Mills ratios would overflow for thresholds far below the mean).
constexpr double kDirectLimit = 300.0;

bool direct(double t0, double sigma) { return (std::abs(t0) + 1.0) * sigma <= kDirectLimit; }

double removeDelta(double q, double sigma, double epsilon) {
  // P = (1−q)N(0) + qN(1), Q = N(0); L(x) = log(1 − q + q·e^{(2x−1)/(2σ²)}) ≥ log(1 − q).
  const double em1 = std::expm1(epsilon);
  if (em1 + q <= 0) return -em1;  // ε ≤ log(1 − q): every output has loss above ε
  const double w = 1.0 / sigma;
  const double x = sigma * sigma * std::log1p(em1 / q) + 0.5;
  const double t0 = x / sigma, t1 = t0 - w;
  // Components N(0): c0 = 1 − q − e^ε; N(1): c1 = q.
  if (epsilon >= 0) {
    if (direct(t0, sigma)) return q * upperTail(t1) - (em1 + q) * upperTail(t0);
    return std::exp(std::log(q) + logDensity(t1) + logMillsDifference(t1, t0));
  }
  // δ = q·Φ̄(t1) + c0·Φ̄(t0) = q·(Φ̄(t1) − Φ̄(t0)) + (1 − e^ε)·Φ̄(t0).
  return q * normalMass(t1, t0) - em1 * upperTail(t0);
}

double addDelta(double q, double sigma, double epsilon) {
  // P = N(0), Q = (1−q)N(0) + qN(1): the loss −log(1 − q + q·e^{(2x−1)/(2σ²)}) decreases in
  // x and is below −log(1 − q), so δ = 0 from there on. In u = −x the set {L > ε} is an
  // upper tail, u > u*, with components N(0) (c0 = 1 − e^ε(1 − q)) and N(−1) (c1 = −e^ε q).
  if (q < 1.0 && epsilon >= -std::log1p(-q)) return 0.0;
  const double w = 1.0 / sigma;
  const double em1 = std::expm1(-epsilon);
  const double u = -(sigma * sigma * std::log1p(em1 / q) + 0.5);
  const double t0 = u / sigma, t1 = t0 + w;
  if (epsilon >= 0) {
    // Here e^{−ε} − 1 + q > 0 (ε < −log(1 − q)).
    if (direct(t0, sigma)) return std::exp(epsilon) * ((em1 + q) * upperTail(t0) - q * upperTail(t1));
    return std::exp(epsilon + std::log(q) + logDensity(t1) + logMillsDifference(t0, t1));
  }
  // δ = e^ε·(q·(Φ̄(t0) − Φ̄(t1)) + (e^{−ε} − 1)·Φ̄(t0)).
  return std::exp(epsilon) * (q * normalMass(t0, t1) + em1 * upperTail(t0));
}

double substitutionDelta(double q, double sigma, double epsilon) {
  // P = (1−q)N(0) + qN(1), Q = (1−q)N(0) + qN(−1). Components beyond x*: N(0) with
  // c0 = (1−q)(1 − e^ε), N(1) with c+ = q, N(−1) with c− = −q·e^ε.
  const double w = 1.0 / sigma;
  const double x = substitutionThreshold(q, sigma, epsilon);
  const double t0 = x / sigma, tPlus = t0 - w, tMinus = t0 + w;
  const double logQ = std::log(q);
  if (epsilon >= 0) {
    if (direct(t0, sigma))
      return q * upperTail(tPlus) -
             ((1.0 - q) * std::expm1(epsilon) * upperTail(t0) + q * std::exp(epsilon) * upperTail(tMinus));
    return std::exp(logQ + logDensity(tPlus) + logMillsDifference(tPlus, t0)) +
           std::exp(logQ + epsilon + logDensity(tMinus) + logMillsDifference(t0, tMinus));
  }
  // δ = (1 − e^ε)·((1−q)Φ̄(t0) + q·Φ̄(t−)) + q·(Φ̄(t+) − Φ̄(t−)).
  return -std::expm1(epsilon) * ((1.0 - q) * upperTail(t0) + q * upperTail(tMinus)) +
         q * normalMass(tPlus, tMinus);
}

Error gridTooLarge(double sigma, double points, double h) {
  return Error{ErrorKind::InvalidPrivacy,
               "sigma " + formatNumber(sigma) + " is too small for the PLD accountant's grid: " +
                   "its privacy losses span " + formatNumber(points) + " points at interval " +
                   formatNumber(h) + " (use the RDP accountant, or a larger sigma)",
               {}, 0, "sigma"};
}

}  // namespace

double sampledGaussianDelta(PldPair pair, double q, double sigma, double epsilon) {
  switch (pair) {
    case PldPair::Remove: return removeDelta(q, sigma, epsilon);
    case PldPair::Add: return addDelta(q, sigma, epsilon);
    case PldPair::Substitution: return substitutionDelta(q, sigma, epsilon);
  }
  return 1.0;
}

double sampledGaussianLoss(PldPair pair, double q, double sigma, double x) {
  const double s2 = 2.0 * sigma * sigma;
  const double up = logMixtureRatio(q, (2.0 * x - 1.0) / s2);
  switch (pair) {
    case PldPair::Remove: return up;
    case PldPair::Add: return -up;
    case PldPair::Substitution: return up - logMixtureRatio(q, (-2.0 * x - 1.0) / s2);
  }
  return 0.0;
}

namespace {

// The grid's first and last index: the losses of the outputs within kNoiseTailZ standard
// deviations of every component of P. For remove and substitution P's outputs lie in
// [−zσ, 1 + zσ] but for a mass ≤ Φ̄(z) on each side, for add (P = N(0)) in [−zσ, zσ].
std::pair<double, double> gridEnds(PldPair pair, double q, double sigma, double h) {
  const double z = kNoiseTailZ * sigma;
  double lo = 0, hi = 0;
  switch (pair) {
    case PldPair::Remove:
    case PldPair::Substitution:
      lo = sampledGaussianLoss(pair, q, sigma, -z);
      hi = sampledGaussianLoss(pair, q, sigma, 1.0 + z);
      break;
    case PldPair::Add:
      lo = sampledGaussianLoss(pair, q, sigma, z);
      hi = sampledGaussianLoss(pair, q, sigma, -z);
      break;
  }
  // At least two points (a huge σ can put every loss within one interval).
  const double first = std::floor(lo / h);
  return {first, std::max(std::ceil(hi / h), first + 1.0)};
}

}  // namespace

double connectTheDotsPoints(PldPair pair, double q, double sigma, double h) {
  const auto [first, last] = gridEnds(pair, q, sigma, h);
  return last - first + 1.0;
}

Result<GridPld> connectTheDotsPld(PldPair pair, double q, double sigma, double h,
                                  long long maxPoints) {
  const auto [first, last] = gridEnds(pair, q, sigma, h);
  const double points = last - first + 1.0;
  if (!(points <= static_cast<double>(maxPoints))) return gridTooLarge(sigma, points, h);

  GridPld pld;
  pld.h = h;
  pld.offset = static_cast<long long>(first);
  const std::size_t n = static_cast<std::size_t>(points);
  // Below ε = 0 the curve is δ(ε) = 1 − e^ε + γ(ε) with γ(ε) = e^ε·H_{e^{−ε}}(Q‖P) small:
  // there δ's differences are those of 1 − e^ε, to which the masses below owe nothing,
  // and subtracting them would leave round-off of u/h ≈ 1e-12 per grid point as spurious
  // mass on the lowest losses (it ruins the composition's tail bound). So γ is computed
  // directly there, as e^ε times the reversed pair's δ at −ε (the ε ≥ 0 branch of that
  // pair), and the masses of points below 0 are formed from γ. The mass formulas are linear
  // and give 0 for 1 − e^ε at every point but the last, so either curve gives the same
  // masses in exact arithmetic.
  const PldPair reversed = pair == PldPair::Remove ? PldPair::Add
                           : pair == PldPair::Add  ? PldPair::Remove
                                                   : PldPair::Substitution;
  std::vector<double> delta(n), gamma(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double epsilon = static_cast<double>(pld.offset + static_cast<long long>(i)) * h;
    if (epsilon >= 0) {
      delta[i] = std::clamp(sampledGaussianDelta(pair, q, sigma, epsilon), 0.0, 1.0);
      gamma[i] = delta[i] + std::expm1(epsilon);
    } else {
      gamma[i] = std::exp(epsilon) * std::clamp(sampledGaussianDelta(reversed, q, sigma, -epsilon), 0.0, 1.0);
      delta[i] = gamma[i] - std::expm1(epsilon);
    }
  }

  // Connect the dots (Doroshenko et al. 2022, Alg. 1, fixed gap h): the discrete PLD whose
  // δ is the chord through (e^{ε_i}, δ_i) has, with D_i = δ_i − δ_{i+1} ≥ 0 and
  // e = e^h − 1, mass ω_0 = (1 − δ_0) − D_0/e on the first point (the chord from (0, 1),
  // since δ(−∞) = 1), ω_i = D_{i−1} + (D_{i−1} − D_i)/e inside, ω_{n−1} = D_{n−2}(1 + 1/e)
  // on the last, and δ_{n−1} at +∞ (the curve stays flat beyond the grid). These are the
  // slope changes of the chord at its corners, in a form without the e^h·D − D cancellation.
  // In γ, ω_0 = (γ_1 − γ_0)/e − γ_0 and ω_i has the same form. Negative masses are rounding
  // (the exact chord is convex); they are set to 0, which only adds mass (only raises δ).
  pld.probs.assign(n, 0.0);
  pld.infinityMass = delta[n - 1];
  const double e = std::expm1(h);
  auto negative = [&](std::size_t i) {
    return static_cast<double>(pld.offset + static_cast<long long>(i)) * h < 0;
  };
  auto interior = [e](const std::vector<double>& c, std::size_t i) {
    const double before = c[i - 1] - c[i], after = c[i] - c[i + 1];
    return before + (before - after) / e;
  };
  pld.probs[0] = negative(0) ? (gamma[1] - gamma[0]) / e - gamma[0]
                             : (1.0 - delta[0]) - (delta[0] - delta[1]) / e;
  for (std::size_t i = 1; i + 1 < n; ++i)
    pld.probs[i] = interior(negative(i) ? gamma : delta, i);
  pld.probs[n - 1] = (delta[n - 2] - delta[n - 1]) * (1.0 + 1.0 / e);
  for (double& mass : pld.probs) mass = std::max(0.0, mass);
  return pld;
}

}  // namespace dpstudio::privacy
