#include "core/privacy/pld_accountant.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include <Eigen/Core>
#include <unsupported/Eigen/FFT>

#include "core/privacy/pld_sampled_gaussian.h"
#include "core/privacy/validation.h"
#include "core/util/parallel.h"

namespace dpstudio::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kUnitRoundoff = 1.1102230246251565e-16;  // 2⁻⁵³, double's
// The composition runs in long double: its round-off, charged to δ as a worst-case bound,
// grows with the number of steps (a long run's masses pass through a power of 30 000), and
// in double it reached 5e-8 — half of δ = 1e-7 — where x87's 64-bit significand (where
// long double is no wider than double, the bound simply comes out larger) leaves 2.5e-11.
constexpr double kFftRoundoff = std::numeric_limits<long double>::epsilon() / 2;
// Higham's constant for a radix-2 transform is ≈ 6.7 (η = μ + γ₄(√2 + μ) with accurate
// twiddles); 16 leaves room for kissfft's radix-3/5 butterflies and its real-input stage.
constexpr double kFftConstant = 16.0;

using Complex = std::complex<long double>;
using Real = long double;

struct Phase {
  GridPld pld;
  long long steps = 0;
};

// Which side of the exact composition a composed PLD lies on: above it (connect-the-dots
// steps, tails and round-off charged to δ: the reported ε) or below it (tangent steps,
// tails dropped: the lower end of the bracket).
enum class Side { Pessimistic, Optimistic };

// One direction's composed PLD and what was charged to its mass at +∞.
struct Composition {
  GridPld pld;
  double charged = 0;  // part of pld.infinityMass the exact composition does not have
  double roundoff = 0; // bound on the FFT's error in any δ(ε) read off pld (optimistic side)
  long long transformLength = 0;
};

Status validateEvent(const SgmEvent& event, std::size_t index) {
  auto tag = [&](Status status) -> Status {
    if (status) return status;
    Error error = status.error();
    error.message += " (event " + std::to_string(index + 1) + ")";
    return error;
  };
  if (!(event.q > 0 && event.q <= 1)) return tag(invalidParameter("q", "in (0, 1]", event.q));
  if (auto ok = requirePositive("sigma", event.sigma); !ok) return tag(ok);
  if (event.steps < 1)
    return tag(invalidParameter("steps", "a whole number >= 1", static_cast<double>(event.steps)));
  return Ok{};
}

Status validateEvents(const std::vector<SgmEvent>& events) {
  if (events.empty())
    return Error{ErrorKind::InvalidPrivacy, "at least one event (q, sigma, steps) is needed", {}, 0,
                 "steps"};
  for (std::size_t i = 0; i < events.size(); ++i)
    if (auto ok = validateEvent(events[i], i); !ok) return ok;
  return Ok{};
}

Error gridTooLarge(const PldOptions& options) {
  return Error{ErrorKind::InvalidPrivacy,
               "sigma is too small for the PLD accountant: the privacy losses span more than " +
                   formatNumber(static_cast<double>(options.maxTransform)) + " grid points even at interval " +
                   formatNumber(options.maxDiscretization) + " (use the RDP accountant, or a larger sigma)",
               {}, 0, "sigma"};
}

// The smallest multiple of 4 of the form 4·2^a·3^b·5^c that is ≥ n: kissfft's real
// transform takes its fast path for multiples of 4, and radices 2, 3, 5 keep it O(N log N).
long long transformLength(long long n) {
  const long long quarter = std::max<long long>(1, (n + 3) / 4);
  long long best = std::numeric_limits<long long>::max();
  for (long long p5 = 1; p5 < 2 * quarter; p5 *= 5)
    for (long long p3 = p5; p3 < 2 * quarter; p3 *= 3) {
      long long m = p3;
      while (m < quarter) m *= 2;
      best = std::min(best, m);
    }
  return 4 * best;
}

// log Σ_j p_j·e^{t·j} over j = 0..n−1, by Horner's rule in x = e^{−|t|} ≤ 1 from the end
// whose exponent is largest (so nothing overflows and no exp per term), four interleaved
// chains in x⁴ for speed. The terms are positive, so the relative error is below 2n·u
// (Higham 2002, §5.1); the caller allows for it.
double logMgf(const std::vector<double>& p, double t) {
  const std::size_t n = p.size();
  const double x = std::exp(-std::abs(t)), x4 = (x * x) * (x * x);
  // Coefficient of x^k: p[n−1−k] for t > 0 (k counts down from the top), p[k] for t ≤ 0.
  auto coefficient = [&](std::size_t k) { return t > 0 ? p[n - 1 - k] : p[k]; };
  double acc[4] = {0, 0, 0, 0};
  const std::size_t blocks = (n + 3) / 4;
  for (std::size_t m = blocks; m-- > 0;)
    for (std::size_t r = 0; r < 4; ++r) {
      const std::size_t k = 4 * m + r;
      acc[r] = acc[r] * x4 + (k < n ? coefficient(k) : 0.0);
    }
  const double sum = acc[0] + x * (acc[1] + x * (acc[2] + x * acc[3]));
  const double top = t > 0 ? t * (static_cast<double>(n) - 1.0) : 0.0;
  return std::log(sum) + top;
}

// a·b without std::complex's inf/NaN recovery (__muldc3): the factors are finite.
inline Complex multiply(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

Complex power(Complex z, long long n) {
  Complex result{1.0, 0.0};
  while (n > 0) {
    if (n & 1) result = multiply(result, z);
    n >>= 1;
    if (n > 0) z = multiply(z, z);
  }
  return result;
}

// Composes the phases' PLDs (step 2 of the header). The relative grid index of the
// composition, S = Σ over all steps of the index within its event's grid, is bounded by
// Chernoff: P(S ≥ s) ≤ exp(Σ_i T_i·log M_i(t) − t·s) for t > 0 (M_i the event's moment
// generating function), likewise below with t < 0; the window [lower, upper] leaves
// ≤ tailMass/2 on each side.
Result<Composition> compose(const std::vector<Phase>& phases, const PldOptions& options, Side side,
                            double* neededPoints) {
  const double logTail = std::log(2.0 / options.tailMass);
  double variance = 0, full = 0, rounding = 0;
  long long longest = 0;
  for (const Phase& phase : phases) {
    const auto n = static_cast<Eigen::Index>(phase.pld.probs.size());
    const Eigen::Map<const Eigen::ArrayXd> p(phase.pld.probs.data(), n);
    const Eigen::ArrayXd index = Eigen::ArrayXd::LinSpaced(n, 0.0, static_cast<double>(n - 1));
    const double mass = p.sum();
    const double mean = (p * index).sum() / mass;
    const double steps = static_cast<double>(phase.steps);
    variance += steps * ((p * (index - mean).square()).sum() / mass);
    full += steps * static_cast<double>(n - 1);
    rounding += steps * 2.0 * static_cast<double>(n) * kUnitRoundoff;  // logMgf's, ×T
    longest = std::max<long long>(longest, n);
  }
  // Orders around the Gaussian optimum t = √(2·log(2/τ)/V), V the composed variance.
  double upper = full, lower = 0;
  if (variance > 0) {
    const double t0 = std::sqrt(2.0 * logTail / variance);
    for (double scale : {1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 0.7071, 1.0, 1.4142, 2.0, 4.0, 8.0, 16.0}) {
      for (double sign : {1.0, -1.0}) {
        const double t = sign * scale * t0;
        double exponent = logTail + rounding;
        for (const Phase& phase : phases)
          exponent += static_cast<double>(phase.steps) * logMgf(phase.pld.probs, t);
        const double bound = exponent / t;
        if (!std::isfinite(bound)) continue;
        if (t > 0) upper = std::min(upper, std::ceil(bound));
        else lower = std::max(lower, std::floor(bound));
      }
    }
  }
  lower = std::min(lower, upper);
  const double window = upper - lower + 1.0;
  const double needed = std::max(window, static_cast<double>(longest));
  *neededPoints = needed;
  if (!(needed <= static_cast<double>(options.maxTransform))) return gridTooLarge(options);
  const long long N = transformLength(static_cast<long long>(needed));
  const auto W = static_cast<long long>(window);
  const auto first = static_cast<long long>(lower);

  Eigen::FFT<Real> fft;
  fft.SetFlag(Eigen::FFT<Real>::HalfSpectrum);
  std::vector<Real> buffer(static_cast<std::size_t>(N));
  std::vector<Complex> spectrum(static_cast<std::size_t>(N / 2 + 1));
  std::vector<Complex> product(spectrum.size(), Complex{1.0, 0.0});
  const double log2N = std::log2(static_cast<double>(N));
  double roundoff = 0;        // bound on ‖computed − exact‖₂ of the composed masses
  double multiplications = 0; // complex products along one bin's chain
  double logFinite = 0;       // log of the mass the steps keep finite
  long long offset = 0;
  for (const Phase& phase : phases) {
    std::fill(buffer.begin(), buffer.end(), 0.0);
    std::copy(phase.pld.probs.begin(), phase.pld.probs.end(), buffer.begin());
    fft.fwd(spectrum.data(), buffer.data(), N);
    // |z|^T below the smallest double is 0: long compositions skip most frequencies.
    const double negligible = std::exp(-1490.0 / static_cast<double>(phase.steps));  // |z|² bound
    for (std::size_t k = 0; k < spectrum.size(); ++k) {
      if (product[k] == Complex{}) continue;
      product[k] = std::norm(spectrum[k]) < negligible
                       ? Complex{}
                       : multiply(product[k], power(spectrum[k], phase.steps));
    }
    const double norm2 = Eigen::Map<const Eigen::ArrayXd>(phase.pld.probs.data(),
                                                          static_cast<Eigen::Index>(phase.pld.probs.size()))
                             .matrix()
                             .norm();
    roundoff += static_cast<double>(phase.steps) * kFftConstant * log2N * kFftRoundoff * norm2;
    multiplications += 2.0 * std::log2(static_cast<double>(phase.steps)) + 2.0;
    logFinite += static_cast<double>(phase.steps) * std::log1p(-phase.pld.infinityMass);
    offset += phase.steps * phase.pld.offset;
  }
  fft.inv(buffer.data(), product.data(), N);
  // The rounding of the products (≤ √5·u each, relative, |values| ≤ 1) and of the inverse.
  roundoff += (3.0 * multiplications + kFftConstant * log2N) * kFftRoundoff;

  Composition out;
  out.transformLength = N;
  GridPld& pld = out.pld;
  pld.h = phases.front().pld.h;
  pld.offset = offset + first;
  pld.probs.resize(static_cast<std::size_t>(W));
  double outside = 0;
  long long j = (first % N + N) % N;  // the cyclic position of the window's first point
  for (long long relative = 0; relative < N; ++relative) {
    const double value = std::max(0.0, static_cast<double>(buffer[static_cast<std::size_t>(j)]));
    if (relative < W) pld.probs[static_cast<std::size_t>(relative)] = value;
    else outside += value;
    if (++j == N) j = 0;
  }
  const double noiseTails = -std::expm1(logFinite);
  const double fftBound = std::sqrt(static_cast<double>(W)) * roundoff;
  if (side == Side::Optimistic) {
    // Both tails are dropped (a sub-probability lowers every δ). Lower-tail mass aliased
    // into the window (≤ tailMass/2) is the one place this side can gain δ: far below
    // any δ read off, and why the lower end is called an estimate.
    pld.infinityMass = noiseTails;  // 0 for tangent steps
    out.roundoff = fftBound;
    return out;
  }
  // Cyclic positions outside the window hold the lower tail (and aliases): put them on the
  // window's lowest loss, which only raises δ; the upper tail is charged below.
  pld.probs[0] += outside;
  out.charged = options.tailMass / 2.0 + fftBound;
  pld.infinityMass = noiseTails + out.charged;
  return out;
}

// δ(ε) = P[∞] + Σ_{ℓ_i > ε} p_i·(1 − e^{ε − ℓ_i}).
double deltaForEpsilon(const GridPld& pld, double epsilon) {
  double delta = pld.infinityMass;
  for (std::size_t i = pld.probs.size(); i-- > 0;) {
    const double loss = static_cast<double>(pld.offset + static_cast<long long>(i)) * pld.h;
    if (loss <= epsilon) break;
    delta += pld.probs[i] * -std::expm1(epsilon - loss);
  }
  return std::min(delta, 1.0);
}

// The smallest ε ≥ 0 with δ(ε) ≤ delta. Between grid losses ℓ_k < ε ≤ ℓ_{k+1},
// δ(ε) = U − e^ε·V with U = P[∞] + Σ_{i>k} p_i and V = Σ_{i>k} p_i·e^{−ℓ_i}; scanning
// down from the top, the first segment whose lower end has δ(ℓ_k) > delta holds the answer
// log((U − delta)/V). (If V underflowed — losses beyond ~745 — δ is U on the segment and
// its top, where δ ≤ delta was seen, is the answer.)
double epsilonForDelta(const GridPld& pld, double delta) {
  if (pld.infinityMass > delta) return kInf;
  double U = pld.infinityMass, V = 0, above = kInf;
  for (std::size_t k = pld.probs.size(); k-- > 0;) {
    const double loss = static_cast<double>(pld.offset + static_cast<long long>(k)) * pld.h;
    if (loss < 0) break;  // δ ≤ delta above this point already covers every ε ≥ 0
    if ((V > 0 ? U - std::exp(loss) * V : U) > delta)
      return V > 0 ? std::clamp(std::log((U - delta) / V), 0.0, above) : above;
    U += pld.probs[k];
    V += pld.probs[k] * std::exp(-loss);
    above = loss;
  }
  // δ(0) ≤ delta, or the answer lies below the grid's first (non-negative) loss.
  if (U - V > delta && V > 0) return std::clamp(std::log((U - delta) / V), 0.0, above);
  return 0.0;
}

std::vector<PldPair> pairsOf(Adjacency adjacency) {
  if (adjacency == Adjacency::Substitution) return {PldPair::Substitution};
  return {PldPair::Remove, PldPair::Add};
}

// One composition per direction of the adjacency (the directions on separate workers), on
// the grid of interval h or, where the losses span more points than the limits allow, the
// first h·2^k that fits, up to maxH (else an error naming "sigma"). *used: the interval.
Result<std::vector<Composition>> composeEvents(const std::vector<SgmEvent>& events,
                                               Adjacency adjacency, const PldOptions& options,
                                               double h, double maxH, double* used,
                                               Side side = Side::Pessimistic) {
  const std::vector<PldPair> pairs = pairsOf(adjacency);
  // Every direction at interval `at`; *widest: the FFT points the widest one wanted.
  auto attempt = [&](double at, double* widest) {
    std::vector<std::optional<Result<Composition>>> results(pairs.size());
    std::vector<double> needed(pairs.size(), 0.0);
    parallelFor(static_cast<Eigen::Index>(pairs.size()), [&](Eigen::Index chunk) {
      const auto c = static_cast<std::size_t>(chunk);
      std::vector<Phase> phases;
      for (const SgmEvent& event : events) {
        auto step = side == Side::Pessimistic
                        ? connectTheDotsPld(pairs[c], event.q, event.sigma, at, options.maxStepPoints)
                        : tangentPld(pairs[c], event.q, event.sigma, at, options.maxStepPoints);
        if (!step) {
          results[c].emplace(step.error());
          return;
        }
        phases.push_back({std::move(step).value(), event.steps});
      }
      results[c].emplace(compose(phases, options, side, &needed[c]));
    });
    *widest = *std::max_element(needed.begin(), needed.end());
    return results;
  };
  // Points scale as 1/h: the coarsening that fits `points` (at the current h) into `limit`
  // is a power of two at least points/limit (5 % spare for the rounded ends).
  auto coarsen = [&](double points, double limit) {
    if (points <= limit) return true;
    h *= std::exp2(std::ceil(std::log2(points / limit * 1.05)));
    return false;
  };
  const auto maxTransform = static_cast<double>(options.maxTransform);
  const double h0 = h;
  double steps = 0;
  for (PldPair pair : pairs)
    for (const SgmEvent& event : events) steps = std::max(steps, connectTheDotsPoints(pair, event.q, event.sigma, h));
  coarsen(steps, static_cast<double>(options.maxStepPoints));
  // Large steps may compose to a window beyond the limit, which a full attempt would only
  // find out at full cost: a probe at 16h (1/16 of the work) predicts it.
  if (steps * h0 / h > maxTransform / 8 && h <= maxH) {
    double probe = 0;
    attempt(h * 16, &probe);
    coarsen(probe * 16, maxTransform);
  }
  for (;;) {
    if (!(h <= maxH * (1 + 1e-9))) return gridTooLarge(options);
    double widest = 0;
    auto results = attempt(h, &widest);
    for (auto& result : results)
      if (!*result && result->error().field != "sigma") return result->error();
    if (coarsen(widest, maxTransform)) {
      std::vector<Composition> out;
      for (auto& result : results) {
        if (!*result) return result->error();
        out.push_back(std::move(*result).value());
      }
      *used = h;
      return out;
    }
  }
}

Status validateAll(const std::vector<SgmEvent>& events, const PldOptions& options) {
  if (auto ok = options.validate(); !ok) return ok;
  return validateEvents(events);
}

// The report's ε only (the calibration's inner loop).
Result<double> epsilonOnly(const std::vector<SgmEvent>& events, double delta, Adjacency adjacency,
                           const PldOptions& options) {
  double h = 0;
  auto composed = composeEvents(events, adjacency, options, options.discretization, options.maxDiscretization, &h);
  if (!composed) return composed.error();
  double epsilon = 0;
  for (const Composition& c : composed.value()) epsilon = std::max(epsilon, epsilonForDelta(c.pld, delta));
  return epsilon;
}

}  // namespace

Status PldOptions::validate() const {
  if (!(std::isfinite(discretization) && discretization > 0 && discretization <= 0.1))
    return invalidParameter("discretization", "in (0, 0.1]", discretization);
  if (!(std::isfinite(maxDiscretization) && maxDiscretization >= discretization && maxDiscretization <= 0.1))
    return invalidParameter("max_discretization", "in [discretization, 0.1]", maxDiscretization);
  if (!(tailMass > 0 && tailMass < 1e-3)) return invalidParameter("tail_mass", "in (0, 1e-3)", tailMass);
  return Ok{};
}

Result<PldReport> accountSampledGaussianPld(const std::vector<SgmEvent>& events, double delta,
                                            Adjacency adjacency, const PldOptions& options) {
  if (auto ok = validateAll(events, options); !ok) return ok.error();
  if (auto ok = requireOpenUnit("delta", delta); !ok) return ok.error();
  double h = 0;
  auto composed = composeEvents(events, adjacency, options, options.discretization, options.maxDiscretization, &h);
  if (!composed) return composed.error();

  PldReport report;
  report.adjacency = adjacency;
  report.delta = delta;
  report.discretization = h;
  const std::vector<Composition>& directions = composed.value();
  std::size_t worst = 0;
  std::vector<double> epsilons;
  for (std::size_t i = 0; i < directions.size(); ++i) {
    epsilons.push_back(epsilonForDelta(directions[i].pld, delta));
    if (epsilons[i] > epsilons[worst]) worst = i;
  }
  report.epsilon = epsilons[worst];
  report.epsilonRemove = epsilons.front();
  report.epsilonAdd = epsilons.back();
  const Composition& w = directions[worst];
  report.deltaCharged = w.charged;
  report.gridPoints = static_cast<long long>(w.pld.probs.size());
  report.transformLength = w.transformLength;
  if (std::isfinite(report.epsilon)) {
    // Without the charged mass every direction's δ(ε) would be lower by at most its charge,
    // so the exact composition's ε is at least the largest ε(delta + charge).
    double relieved = 0;
    for (const Composition& c : directions)
      relieved = std::max(relieved, epsilonForDelta(c.pld, std::min(delta + c.charged, 1.0)));
    report.epsilonChargeError = std::max(0.0, report.epsilon - relieved);
  }
  report.epsilonLower = report.epsilon - report.epsilonChargeError;
  if (options.bracket && std::isfinite(report.epsilon)) {
    // From below, on the grid of half the interval where it fits (else on h): the
    // optimistic discretization lowers each step's curve by its chord's own error, and a
    // long composition turns that into a shift of the mean, so it needs the finer grid to
    // come as close as the connect-the-dots one does (1 % against 0.3 % at h, for 30 000
    // steps at q = 0.001). Each direction's ε there, read at δ raised by the FFT's
    // round-off bound, is at most that direction's exact ε, so the largest is at most the
    // exact ε of the adjacency.
    double lowerH = 0;
    auto lower = composeEvents(events, adjacency, options, h / 2, h, &lowerH, Side::Optimistic);
    if (lower) {
      double epsilonLower = 0;
      for (const Composition& c : lower.value())
        epsilonLower = std::max(epsilonLower, epsilonForDelta(c.pld, std::min(delta + c.roundoff, 1.0)));
      report.epsilonLower = std::min(epsilonLower, report.epsilon);
    } else {
      report.epsilonLower = 0;  // the grid did not fit from below: nothing is claimed
    }
  }
  report.errorBound = report.epsilon - report.epsilonLower;
  report.discretizationError = std::max(0.0, report.errorBound - report.epsilonChargeError);
  return report;
}

Result<std::vector<double>> sampledGaussianPldDelta(const std::vector<SgmEvent>& events,
                                                    const std::vector<double>& epsilons,
                                                    Adjacency adjacency, const PldOptions& options) {
  if (auto ok = validateAll(events, options); !ok) return ok.error();
  for (double epsilon : epsilons)
    if (auto ok = requireNonNegative("epsilon", epsilon); !ok) return ok.error();
  double h = 0;
  auto composed = composeEvents(events, adjacency, options, options.discretization, options.maxDiscretization, &h);
  if (!composed) return composed.error();
  std::vector<double> deltas(epsilons.size(), 0.0);
  for (const Composition& c : composed.value())
    for (std::size_t i = 0; i < epsilons.size(); ++i)
      deltas[i] = std::max(deltas[i], deltaForEpsilon(c.pld, epsilons[i]));
  return deltas;
}

Result<PldSigmaCalibration> calibrateSgmSigmaPld(const std::vector<SgmEvent>& events,
                                                 double delta, double targetEpsilon,
                                                 Adjacency adjacency, const PldOptions& options,
                                                 double sigmaHint) {
  if (auto ok = requirePositive("target_epsilon", targetEpsilon); !ok) return ok.error();
  if (auto ok = requireOpenUnit("delta", delta); !ok) return ok.error();
  std::vector<SgmEvent> withSigma = events;
  for (SgmEvent& event : withSigma) event.sigma = 1.0;
  if (auto ok = validateAll(withSigma, options); !ok) return ok.error();

  // f(s) = log ε(e^s) − log target, decreasing in s = log σ and nearly linear (ε falls
  // roughly like a power of σ), so the search runs on it: secant steps to a bracket, then
  // regula falsi with the Illinois modification. A σ too small for the grid counts as
  // f = +∞ (never chosen); ε = 0 (a huge σ) as f = −∞.
  const double logTarget = std::log(targetEpsilon);
  double lastEpsilon = 0;
  auto F = [&](double s) -> Result<double> {
    for (SgmEvent& event : withSigma) event.sigma = std::exp(s);
    auto epsilon = epsilonOnly(withSigma, delta, adjacency, options);
    if (!epsilon) {
      if (epsilon.error().field == "sigma") return kInf;
      return epsilon.error();
    }
    lastEpsilon = epsilon.value();
    return epsilon.value() > 0 ? std::log(epsilon.value()) - logTarget : -kInf;
  };
  constexpr double kMaxLogSigma = 18.420680743952367;  // log 1e8
  constexpr double kMinLogSigma = -6.907755278982137;  // log 1e-3
  constexpr double kMaxStep = 1.3862943611198906;      // log 4
  constexpr double kTolerance = 1e-6;  // on log σ (the bracket) or on log ε (the fit)

  double s = std::log(sigmaHint > 0 && std::isfinite(sigmaHint) ? sigmaHint : 1.0);
  auto first = F(s);
  if (!first) return first.error();
  double f = first.value();
  double lo = -kInf, fLo = kInf, hi = kInf, fHi = -kInf;  // f(lo) > 0 ≥ f(hi)
  auto record = [&](double at, double value) {
    if (value > 0) { if (at > lo) { lo = at; fLo = value; } }
    else if (at < hi) { hi = at; fHi = value; }
  };
  record(s, f);
  double slope = -2.0;  // df/ds guess: ε ∝ σ⁻² (DP-SGD runs lie between σ⁻¹ and σ⁻⁴)
  while (!(std::isfinite(lo) && std::isfinite(hi))) {
    double step = std::isfinite(f) ? -f / slope * 1.02 : (f > 0 ? kMaxStep : -kMaxStep);
    // Overshoot a little (1.02) so the secant lands across the root, not just short of it.
    step = std::clamp(step, -kMaxStep, kMaxStep);
    if (std::abs(step) < 1e-3) step = f > 0 ? 1e-3 : -1e-3;
    const double next = s + step;
    if (next > kMaxLogSigma)
      return invalidParameter("target_epsilon",
                              "reachable (the PLD accountant finds epsilon " + formatNumber(lastEpsilon) +
                                  " even at sigma 1e8)",
                              targetEpsilon);
    if (next < kMinLogSigma) {  // every σ ≥ 1e-3 reaches the target: the smallest will do
      lo = next;
      fLo = kInf;
      break;
    }
    auto value = F(next);
    if (!value) return value.error();
    if (std::isfinite(f) && std::isfinite(value.value()) && value.value() != f)
      slope = std::clamp((value.value() - f) / (next - s), -20.0, -0.05);
    s = next;
    f = value.value();
    record(s, f);
  }
  // gLo, gHi: the values regula falsi interpolates with (Illinois halves the end that
  // survives twice); fHi stays the true f(hi) for the stopping rule.
  double gLo = fLo, gHi = fHi;
  int side = 0;
  for (int iteration = 0; iteration < 100 && hi - lo > kTolerance && -fHi > kTolerance; ++iteration) {
    // Below lies only σ the grid cannot take: near that edge, evaluations are the slowest
    // there are; settle for a σ within 3 % of it.
    if (!std::isfinite(fLo) && hi - lo < 0.03) break;
    double x = std::isfinite(gLo) && std::isfinite(gHi) ? hi - gHi * (hi - lo) / (gHi - gLo)
                                                        : 0.5 * (lo + hi);
    const double margin = 0.01 * (hi - lo);  // strictly inside, so the bracket shrinks
    x = std::isfinite(x) ? std::clamp(x, lo + margin, hi - margin) : 0.5 * (lo + hi);
    auto value = F(x);
    if (!value) return value.error();
    if (value.value() <= 0) {
      hi = x;
      fHi = gHi = value.value();
      if (side == 1 && std::isfinite(gLo)) gLo /= 2;
      side = 1;
    } else {
      lo = x;
      fLo = gLo = value.value();
      if (side == -1) gHi /= 2;
      side = -1;
    }
  }
  const double sigma = std::exp(hi);
  for (SgmEvent& event : withSigma) event.sigma = sigma;
  auto report = accountSampledGaussianPld(withSigma, delta, adjacency, options);
  if (!report) return report.error();
  return PldSigmaCalibration{sigma, std::move(report).value()};
}

}  // namespace dpstudio::privacy
