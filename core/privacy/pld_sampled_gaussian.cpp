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

namespace {

PldPair reversedPair(PldPair pair) {
  return pair == PldPair::Remove ? PldPair::Add : pair == PldPair::Add ? PldPair::Remove : PldPair::Substitution;
}

// δ(ε) and γ(ε) = δ(ε) + e^ε − 1 at one loss, each accurate where it is small. Below ε = 0
// the curve is δ(ε) = 1 − e^ε + γ(ε) with γ(ε) = e^ε·H_{e^{−ε}}(Q‖P) small: there δ's
// differences are those of 1 − e^ε, to which the masses owe nothing, and subtracting them
// would leave round-off of u/h ≈ 1e-12 per grid point as spurious mass on the lowest
// losses (it ruins the composition's tail bound). So γ is computed directly there, as e^ε
// times the reversed pair's δ at −ε (the ε ≥ 0 branch of that pair), and the masses of
// points below 0 are formed from γ. The mass formulas are linear and give 0 for 1 − e^ε at
// every point but the last, so either curve gives the same masses in exact arithmetic.
struct CurvePoint {
  double delta = 0, gamma = 0;
};

CurvePoint curveAt(PldPair pair, double q, double sigma, double epsilon) {
  CurvePoint point;
  if (epsilon >= 0) {
    point.delta = std::clamp(sampledGaussianDelta(pair, q, sigma, epsilon), 0.0, 1.0);
    point.gamma = point.delta + std::expm1(epsilon);
  } else {
    point.gamma = std::exp(epsilon) * std::clamp(sampledGaussianDelta(reversedPair(pair), q, sigma, -epsilon), 0.0, 1.0);
    point.delta = point.gamma - std::expm1(epsilon);
  }
  return point;
}

// The discrete PLD on the grid whose δ, as a function of y = e^ε, is the polygon through
// the points (y_i, value_i) — value_i given as δ- and γ-values — starting from (0, start)
// and flat beyond the last point (Doroshenko et al. 2022, Alg. 1, fixed gap h). With
// D_i = δ_i − δ_{i+1} and e = e^h − 1: ω_0 = (start − δ_0) − D_0/e (in γ:
// (γ_1 − γ_0)/e − γ_0 − (1 − start)), ω_i = D_{i−1} + (D_{i−1} − D_i)/e inside,
// ω_{n−1} = D_{n−2}(1 + 1/e) on the last, δ_{n−1} at +∞. These are the slope changes of
// the polygon at its corners, in a form without the e^h·D − D cancellation. Negative
// masses are rounding (the polygons here are convex); they are set to 0.
GridPld polygonPld(double h, long long offset, const std::vector<CurvePoint>& value, double start) {
  const std::size_t n = value.size();
  GridPld pld;
  pld.h = h;
  pld.offset = offset;
  pld.probs.assign(n, 0.0);
  pld.infinityMass = value[n - 1].delta;
  const double e = std::expm1(h);
  auto negative = [&](std::size_t i) { return static_cast<double>(offset + static_cast<long long>(i)) * h < 0; };
  auto at = [&](std::size_t i, bool gammaForm) { return gammaForm ? value[i].gamma : value[i].delta; };
  pld.probs[0] = negative(0) ? (value[1].gamma - value[0].gamma) / e - value[0].gamma - (1.0 - start)
                             : (start - value[0].delta) - (value[0].delta - value[1].delta) / e;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const bool gammaForm = negative(i);
    const double before = at(i - 1, gammaForm) - at(i, gammaForm), after = at(i, gammaForm) - at(i + 1, gammaForm);
    pld.probs[i] = before + (before - after) / e;
  }
  pld.probs[n - 1] = (value[n - 2].delta - value[n - 1].delta) * (1.0 + 1.0 / e);
  for (double& mass : pld.probs) mass = std::max(0.0, mass);
  return pld;
}

// Lowers the points (y_i = e^{ε_i}, value_i), with (0, origin) before them, onto their
// lower convex hull. The chords between tangents are under the curve but need not turn
// upward everywhere (where the curvature changes within a cell, as at the kinks the remove
// and add pairs have at |log(1 − q)|), and a polygon that turns down would have negative
// masses. The hull lies under the polygon (so under the curve), has its corners on grid
// points, and is convex. Hull and values are taken in γ where every point involved is below
// ε = 0 (there δ ≈ 1 − e^ε, and forming and subtracting it again would leave round-off as
// spurious mass), in δ otherwise: the two differ by a linear function, which changes
// neither the hull nor the interpolation.
void lowerConvexHull(double h, long long offset, CurvePoint origin, std::vector<CurvePoint>& value) {
  const std::size_t n = value.size();
  auto lossAt = [&](std::size_t i) {
    return i == n ? -std::numeric_limits<double>::infinity() : static_cast<double>(offset + static_cast<long long>(i)) * h;
  };
  // Index n stands for the origin (y = 0) so that the hull is a list of indices.
  auto y = [&](std::size_t i) { return i == n ? 0.0 : std::exp(lossAt(i)); };
  auto point = [&](std::size_t i) -> const CurvePoint& { return i == n ? origin : value[i]; };
  auto v = [&](std::size_t i, bool gammaForm) { return gammaForm ? point(i).gamma : point(i).delta; };
  std::vector<std::size_t> hull{n};
  for (std::size_t i = 0; i < n; ++i) {
    // Drop the last corner while it is on or above the chord from the one before it to i.
    while (hull.size() >= 2) {
      const std::size_t a = hull[hull.size() - 2], b = hull.back();
      const bool g = lossAt(i) < 0;
      if ((v(b, g) - v(a, g)) * (y(i) - y(a)) < (v(i, g) - v(a, g)) * (y(b) - y(a))) break;
      hull.pop_back();
    }
    hull.push_back(i);
  }
  for (std::size_t k = 0; k + 1 < hull.size(); ++k) {
    const std::size_t a = hull[k], b = hull[k + 1];
    const std::size_t from = a == n ? 0 : a + 1;
    const double span = y(b) - y(a);
    const bool g = lossAt(b) < 0;
    for (std::size_t j = from; j < b; ++j) {
      const double t = (y(j) - y(a)) / span;
      if (g) {
        value[j].gamma = v(a, true) + (v(b, true) - v(a, true)) * t;
        value[j].delta = value[j].gamma - std::expm1(lossAt(j));
      } else {
        value[j].delta = v(a, false) + (v(b, false) - v(a, false)) * t;
        value[j].gamma = value[j].delta + std::expm1(lossAt(j));
      }
    }
  }
}

}  // namespace

Result<GridPld> connectTheDotsPld(PldPair pair, double q, double sigma, double h, long long maxPoints) {
  const auto [first, last] = gridEnds(pair, q, sigma, h);
  const double points = last - first + 1.0;
  if (!(points <= static_cast<double>(maxPoints))) return gridTooLarge(sigma, points, h);
  const auto offset = static_cast<long long>(first);
  std::vector<CurvePoint> curve(static_cast<std::size_t>(points));
  for (std::size_t i = 0; i < curve.size(); ++i)
    curve[i] = curveAt(pair, q, sigma, static_cast<double>(offset + static_cast<long long>(i)) * h);
  // The chord from (0, 1) (δ(−∞) = 1) through the exact values: above the convex curve.
  return polygonPld(h, offset, curve, 1.0);
}

LossTails sampledGaussianLossTails(PldPair pair, double q, double sigma, double epsilon) {
  const double w = 1.0 / sigma;
  // The threshold's standard score t0 under N(0) and the other component's, and which
  // side of it the loss exceeds ε on (in u = −x for add).
  double t0 = 0, tOther = 0;
  switch (pair) {
    case PldPair::Remove: {
      const double em1 = std::expm1(epsilon);
      if (em1 + q <= 0) return {1.0, 0.0, 1.0, 0.0};  // every loss is above ε
      t0 = (sigma * sigma * std::log1p(em1 / q) + 0.5) / sigma;
      tOther = t0 - w;  // P's N(1)
      return {(1.0 - q) * upperTail(t0) + q * upperTail(tOther), (1.0 - q) * upperTail(-t0) + q * upperTail(-tOther),
              upperTail(t0), upperTail(-t0)};
    }
    case PldPair::Add: {
      if (q < 1.0 && epsilon >= -std::log1p(-q)) return {0.0, 1.0, 0.0, 1.0};  // every loss is below
      const double em1 = std::expm1(-epsilon);
      t0 = -(sigma * sigma * std::log1p(em1 / q) + 0.5) / sigma;
      tOther = t0 + w;  // Q's N(1), as N(−1) in u
      return {upperTail(t0), upperTail(-t0), (1.0 - q) * upperTail(t0) + q * upperTail(tOther),
              (1.0 - q) * upperTail(-t0) + q * upperTail(-tOther)};
    }
    case PldPair::Substitution: {
      t0 = substitutionThreshold(q, sigma, epsilon) / sigma;
      const double tPlus = t0 - w, tMinus = t0 + w;  // P's N(1), Q's N(−1)
      return {(1.0 - q) * upperTail(t0) + q * upperTail(tPlus), (1.0 - q) * upperTail(-t0) + q * upperTail(-tPlus),
              (1.0 - q) * upperTail(t0) + q * upperTail(tMinus), (1.0 - q) * upperTail(-t0) + q * upperTail(-tMinus)};
    }
  }
  return {};
}

Result<GridPld> tangentPld(PldPair pair, double q, double sigma, double h, long long maxPoints) {
  const auto [first, last] = gridEnds(pair, q, sigma, h);
  const double points = last - first + 1.0;
  if (!(points <= static_cast<double>(maxPoints))) return gridTooLarge(sigma, points, h);
  const auto offset = static_cast<long long>(first);
  const std::size_t n = static_cast<std::size_t>(points);
  auto lossAt = [&](std::size_t i) { return static_cast<double>(offset + static_cast<long long>(i)) * h; };
  std::vector<CurvePoint> curve(n);
  for (std::size_t i = 0; i < n; ++i) curve[i] = curveAt(pair, q, sigma, lossAt(i));

  // below[i]: how far the chosen point lies under the curve at y_i. Cell i's tangent touches
  // at u = (y_i + y_{i+1})/2, so it meets the cell's ends at u ∓ y_i·e/2; its shortfall
  // there is C(y) − C(u) − C'(u)(y − u), in δ (C' = −Q[L > ℓ_u]) or, below ε = 0, in γ
  // (C' = Q[L ≤ ℓ_u]), which differ by a linear function and so have the same shortfalls.
  // (The tangent parallel to the chord, which has the smaller largest shortfall, gave a
  // lower bound farther from the exact ε: what a long composition feels is the shortfall
  // over the whole cell, not its largest value.) Where the tangent is negative at the
  // cell's right end (the add pair's curve falls steeply to 0 near its largest loss), it is
  // moved right, to the first point whose tangent is ≥ 0 there: a polygon under the curve
  // must not go below 0 (it would turn back up).
  const double e = std::expm1(h);
  const double midpoint = std::log1p(0.5 * e);  // ℓ_u − ε_i
  std::vector<double> below(n, 0.0);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double loss = lossAt(i) + midpoint;
    const CurvePoint u = curveAt(pair, q, sigma, loss);
    const LossTails tails = sampledGaussianLossTails(pair, q, sigma, loss);
    const double halfWidth = std::exp(lossAt(i)) * e / 2.0;
    const bool gammaForm = loss < 0;
    double left = 0, right = 0;
    if (!gammaForm) {
      left = curve[i].delta - u.delta - tails.qAbove * halfWidth;
      right = curve[i + 1].delta - u.delta + tails.qAbove * halfWidth;
    } else {
      left = curve[i].gamma - u.gamma + tails.qBelow * halfWidth;
      right = curve[i + 1].gamma - u.gamma - tails.qBelow * halfWidth;
    }
    if (right > curve[i + 1].delta) {
      // The tangent at z is ≥ 0 at y_{i+1} for z at y_{i+1} and not at u; its value at y_i
      // falls as z moves right, so the best is the leftmost z where it is ≥ 0: bisection.
      double lo = loss, hi = lossAt(i + 1);
      for (int halving = 0; halving < 30; ++halving) {
        const double mid = 0.5 * (lo + hi);
        const double width = std::exp(lossAt(i + 1)) - std::exp(mid);  // y_{i+1} − y_z
        const double atEnd = curveAt(pair, q, sigma, mid).delta -
                             sampledGaussianLossTails(pair, q, sigma, mid).qAbove * width;
        (atEnd >= 0 ? hi : lo) = mid;
      }
      const CurvePoint z = curveAt(pair, q, sigma, hi);
      const LossTails atZ = sampledGaussianLossTails(pair, q, sigma, hi);
      const double toLeft = std::exp(hi) - std::exp(lossAt(i));  // y_z − y_i
      right = curve[i + 1].delta - std::max(0.0, z.delta - atZ.qAbove * (std::exp(lossAt(i + 1)) - std::exp(hi)));
      left = gammaForm ? curve[i].gamma - z.gamma + atZ.qBelow * toLeft
                       : curve[i].delta - z.delta - atZ.qAbove * toLeft;
    }
    below[i] = std::max(below[i], left);
    below[i + 1] = std::max(below[i + 1], right);
  }
  // The last point goes to 0 (its δ, the noise beyond the grid, is dropped); the last cell's
  // chord then stays under the curve if its first point is under the line of slope
  // −Q[L > ε_{n−1}] through (y_{n−1}, 0), itself under the tangent at y_{n−1}.
  below[n - 1] = curve[n - 1].delta;
  const double lastLine = sampledGaussianLossTails(pair, q, sigma, lossAt(n - 1)).qAbove * std::exp(lossAt(n - 2)) * e;
  below[n - 2] = std::max(below[n - 2], curve[n - 2].delta - lastLine);
  std::vector<CurvePoint> value(n);
  for (std::size_t i = 0; i < n; ++i) value[i] = {curve[i].delta - below[i], curve[i].gamma - below[i]};
  value[n - 1] = {0.0, std::expm1(lossAt(n - 1))};
  // From y = 0 the polygon starts under the first point's tangent: at P[L > ε_0].
  const double dropped = sampledGaussianLossTails(pair, q, sigma, lossAt(0)).pBelow;
  lowerConvexHull(h, offset, {1.0 - dropped, -dropped}, value);
  GridPld pld = polygonPld(h, offset, value, 1.0 - dropped);
  pld.infinityMass = 0.0;
  // Round-off can leave the masses a few 1e-12 above 1 (and clamping negatives adds some);
  // scaling down to 1 lowers every δ, so the PLD stays dominated.
  double total = 0;
  for (double mass : pld.probs) total += mass;
  if (total > 1.0)
    for (double& mass : pld.probs) mass /= total;
  return pld;
}

}  // namespace dpstudio::privacy
