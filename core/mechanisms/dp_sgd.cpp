// E. DP-SGD (paper 003 §3.1; Abadi et al. 2016) for every model.
//
// Each step Poisson-samples every example with rate q = batch/n, clips each example's
// gradient to norm ν, adds N(0, σ²ν²I) to the sum, divides by the expected batch size qn,
// adds the (data-independent) gradient of (λ/2)‖θ‖², and steps; LMGC is projected onto the
// PSD cone after each step (post-processing). Privacy: T = ⌈epochs/q⌉ steps of the
// subsampled Gaussian, under the product's adjacency, substitution (a replaced example can
// move the clipped sum by 2ν). ε comes from the PLD accountant (privacy/pld_accountant.h)
// with the replace-one pair (1−q)N(0,σ²)+qN(1,σ²) against (1−q)N(0,σ²)+qN(−1,σ²): it is
// near-exact, where RDP's substitution bound (substitution_rdp.h, the weak triangle
// inequality) is not; that bound, at the same σ, is reported beside it, with the add/remove
// RDP ε for comparison. σ is calibrated for the target (ε, δ) by the PLD accountant unless
// given, in which case the report's ε is the PLD ε of that σ. Where the PLD grid cannot
// represent the run (a given σ ≲ 0.005, whose losses span thousands: ε in the millions)
// the RDP bound is used instead and the report says so.
//
// The starting point is data-independent (zero): LMGC's usual warm start from class
// means and covariances would itself be a release of the data.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <mutex>

#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/models/objective.h"
#include "core/mechanisms/sgd_step.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/release_granularity.h"
#include "core/privacy/validation.h"
#include "core/util/number_text.h"

namespace dpstudio::mech::detail {
namespace {

struct SgdPlan {
  double q = 0;
  long long steps = 0;
  double averagedTail = 0;
  double momentum = 0;
};

// The ε the schedule from the problem plans for (DpSgdSettings::scheduleEpsilon).
double scheduleEpsilon(const MechanismOptions& o) {
  return o.sgd.scheduleEpsilon.value_or(o.sgd.noiseFree() ? std::numeric_limits<double>::infinity() : o.epsilon);
}

SgdPlan planFor(const MechanismOptions& o, const ProblemShape& s) {
  if (o.sgd.scheduleFromProblem) {
    const SgdSchedule schedule = sgdScheduleFromProblem(s.rows, s.features, s.classes, scheduleEpsilon(o));
    return {schedule.q, schedule.steps, schedule.averagedTail, o.sgd.momentum.value_or(schedule.momentum)};
  }
  const double q = std::min(1.0, static_cast<double>(o.sgd.batchSize) / static_cast<double>(s.rows));
  return {q, static_cast<long long>(std::ceil(o.sgd.epochs / q)), o.sgd.averagedTail, o.sgd.momentum.value_or(0.0)};
}

// The report's q and T with how each was set: from the batch and epochs given, or by the
// schedule's rule.
void setSchedule(MechanismReport& report, const MechanismOptions& o, const SgdPlan& p) {
  const bool ruled = o.sgd.scheduleFromProblem;
  const bool unbounded = ruled && std::isinf(scheduleEpsilon(o));
  report.set(Calibrated::SamplingRate, p.q,
             !ruled      ? "q = batch/n (Poisson sampling rate)"
             : unbounded ? "q = min(1, max(40/T, 256/n)) (Poisson sampling rate): the schedule from the problem "
                           "at ε = ∞, batches of at least 256 rows"
                         : "q = min(0.4, 40/T) (Poisson sampling rate): the schedule from the problem");
  report.set(Calibrated::Steps, static_cast<double>(p.steps),
             !ruled      ? "T = ⌈epochs/q⌉"
             : unbounded ? "T = clamp(round(2·n·ε/√(d·C)), 50, 2000) at ε = ∞ (no noise): the schedule from the "
                           "problem's most steps, for the non-private run to converge"
                         : "T = clamp(round(2·n·ε/√(d·C)), 50, 2000): the schedule from the problem");
  if (p.momentum > 0)
    report.set("momentum", p.momentum,
               std::string("β: heavy-ball momentum, v ← βv + ĝ, θ ← θ − η·v (post-processing of the noisy "
                           "gradients)") + (o.sgd.momentum ? "" : ": the schedule from the problem"));
}

// Indices selected by independent Bernoulli(q) trials, by geometric skipping: O(batch)
// draws per step instead of O(n).
std::vector<Index> poissonSample(privacy::NoiseSource& noise, Index n, double q) {
  std::vector<Index> chosen;
  if (q >= 1.0) {
    for (Index i = 0; i < n; ++i) chosen.push_back(i);
    return chosen;
  }
  const double logKeep = std::log1p(-q);
  double position = -1;
  for (;;) {
    const double u = 1.0 - noise.uniform01();  // in (0, 1]
    position += 1.0 + std::floor(std::log(u) / logKeep);
    if (position >= static_cast<double>(n)) break;
    chosen.push_back(static_cast<Index>(position));
  }
  return chosen;
}

// A step's batch of rows. Gathered from the column-major training matrix, every value costs a
// cache line (rows a batch apart share none); from a row-major copy, a line holds 8 values
// (MNIST's softmax, 2 000 steps: 20.9 → 15.1–15.3 s whole process, the same bits). The copy doubles
// the rows' memory while DP-SGD runs: above kRowMajorCopyBytes the rows are gathered by
// column instead (Dataset::subset).
class BatchRows {
 public:
  static constexpr std::size_t kRowMajorCopyBytes = std::size_t{1} << 30;

  explicit BatchRows(const Dataset& train) : train_(train) {
    if (static_cast<std::size_t>(train.X.size()) * sizeof(double) <= kRowMajorCopyBytes) rowMajor_ = train.X;
  }

  const Dataset& gather(const std::vector<Index>& rows) {
    if (rowMajor_.size() == 0) {
      batch_ = train_.subset(rows);
      return batch_;
    }
    const auto n = static_cast<Index>(rows.size());
    const Index d = rowMajor_.cols();
    batch_.X.resize(n, d);
    batch_.y.resize(n);
    // Eight rows at a time: their eight source rows stay in cache while each column's eight
    // values are written to one cache line of the column-major batch.
    for (Index first = 0; first < n; first += kBlockRows) {
      const Index count = std::min(kBlockRows, n - first);
      const double* source[kBlockRows];
      for (Index k = 0; k < count; ++k) source[k] = rowMajor_.row(rows[static_cast<std::size_t>(first + k)]).data();
      for (Index j = 0; j < d; ++j) {
        double* target = batch_.X.col(j).data() + first;
        for (Index k = 0; k < count; ++k) target[k] = source[k][j];
      }
    }
    for (Index k = 0; k < n; ++k) batch_.y[k] = train_.y[rows[static_cast<std::size_t>(k)]];
    return batch_;
  }

 private:
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  static constexpr Index kBlockRows = 8;
  const Dataset& train_;
  RowMajor rowMajor_;
  Dataset batch_;
};

// The guarantee of T steps at σ under substitution, and which accountant gave it.
struct SgdAccount {
  double epsilon = 0;                // the guarantee
  privacy::AccountantKind accountant = privacy::AccountantKind::Pld;
  privacy::PldReport pld;            // when accountant == Pld
  SubstitutionAccount rdp;           // RDP's substitution bound at the same σ (always)
  std::string fallback;              // why RDP was used, if it was
};

constexpr const char* kPldCannotRepresent =
    "the PLD accountant's grid cannot hold the privacy losses of so small a noise multiplier";

// PLD limits too tight for this σ (the grid errors name "sigma"): RDP stands in.
bool pldCannotRepresent(const Error& error) {
  return error.kind == ErrorKind::InvalidPrivacy && error.field == "sigma";
}

Result<SgdAccount> accountSgdUncached(const SgdPlan& p, double sigma, double delta) {
  auto rdp = accountSubstitution(p.q, sigma, p.steps, delta);
  if (!rdp) return rdp.error();
  SgdAccount account;
  account.rdp = rdp.value();
  auto pld = privacy::accountSampledGaussianPld({{p.q, sigma, p.steps}}, delta, privacy::Adjacency::Substitution);
  if (pld) {
    account.pld = pld.value();
    account.epsilon = account.pld.epsilon;
  } else if (pldCannotRepresent(pld.error())) {
    account.accountant = privacy::AccountantKind::Rdp;
    account.epsilon = account.rdp.epsilon;
    account.fallback = kPldCannotRepresent;
  } else {
    return pld.error();
  }
  return account;
}

// The σ whose substitution ε is at most the target: PLD's, searched from RDP's σ (PLD's
// ε at RDP's σ is normally below the target, so the search only goes down). RDP's σ when
// PLD cannot represent the run there; PLD alone when RDP's orders cannot reach the target.
Result<std::pair<double, SgdAccount>> calibrateSgdUncached(const SgdPlan& p, double delta, double targetEpsilon) {
  auto rdp = calibrateSubstitution(p.q, p.steps, delta, targetEpsilon);
  if (!rdp && rdp.error().field != "target_epsilon") return rdp.error();
  auto pld = privacy::calibrateSgmSigmaPld({{p.q, 1.0, p.steps}}, delta, targetEpsilon,
                                           privacy::Adjacency::Substitution, {},
                                           rdp ? rdp.value().sigma : 0.0);
  if (!pld) {
    if (!rdp || !pldCannotRepresent(pld.error())) return pld.error();
    SgdAccount account;
    account.accountant = privacy::AccountantKind::Rdp;
    account.rdp = rdp.value().account;
    account.epsilon = account.rdp.epsilon;
    account.fallback = kPldCannotRepresent;
    return std::pair{rdp.value().sigma, account};
  }
  const double sigma = pld.value().sigma;
  auto rdpAtSigma = accountSubstitution(p.q, sigma, p.steps, delta);
  if (!rdpAtSigma) return rdpAtSigma.error();
  SgdAccount account;
  account.pld = pld.value().report;
  account.epsilon = account.pld.epsilon;
  account.rdp = rdpAtSigma.value();
  return std::pair{sigma, account};
}

// Accounting is a pure function of (q, T, δ, and σ or the target ε) and takes up to a
// second at very large ε: the GUI asks again on every form change, training asks after the
// preview did, and a sweep asks once per trial with the same numbers. So the last results
// are kept (a few dozen; locked, as sweep trials calibrate from worker threads).
class AccountMemo {
 public:
  struct Key {
    double q, delta, value;  // value: σ (calibrate false) or the target ε (calibrate true)
    long long steps;
    bool calibrate;
    bool operator==(const Key&) const = default;
  };
  using Value = std::pair<double, SgdAccount>;  // (σ, its account)

  template <class Compute>
  Result<Value> get(const Key& key, Compute compute) {
    {
      const std::lock_guard lock(mutex_);
      for (const auto& [k, v] : entries_)
        if (k == key) return v;
    }
    auto value = compute();
    if (!value) return value;
    const std::lock_guard lock(mutex_);
    entries_.emplace_back(key, value.value());
    if (entries_.size() > kCapacity) entries_.pop_front();
    return value;
  }

 private:
  static constexpr std::size_t kCapacity = 32;
  std::mutex mutex_;
  std::deque<std::pair<Key, Value>> entries_;
};

AccountMemo& accountMemo() {
  static AccountMemo memo;
  return memo;
}

Result<SgdAccount> accountSgd(const SgdPlan& p, double sigma, double delta) {
  auto value = accountMemo().get({p.q, delta, sigma, p.steps, false}, [&]() -> Result<AccountMemo::Value> {
    auto account = accountSgdUncached(p, sigma, delta);
    if (!account) return account.error();
    return AccountMemo::Value{sigma, account.value()};
  });
  if (!value) return value.error();
  return value.value().second;
}

Result<std::pair<double, SgdAccount>> calibrateSgd(const SgdPlan& p, double delta, double targetEpsilon) {
  return accountMemo().get({p.q, delta, targetEpsilon, p.steps, true},
                           [&] { return calibrateSgdUncached(p, delta, targetEpsilon); });
}

// The step and clip norm the run takes: the calibrated ones, or with estimatesSgdStep() fitted
// to the rows' mean squared norm m — privately, m̂ = m + Laplace(b) + 3b (an upper estimate:
// below m with probability e⁻³/2, and then still within the stable 2/(L·m + λ) unless
// m̂ < m/2), within [3b, 1]; exactly with σ = 0, which is not private anyway. The step is
// 1/(L·m̂ + λ), the safe step of these rows; the clip norm is at most K·√m̂, the gradient
// bound of a row of norm √m̂, since a clip norm far above the gradients' size adds noise and
// no signal (on the satellite set, rows of RMS norm 0.38: 0.64 at ε = 1 with ν = 1, 0.73 with
// ν = 0.5). The noise scale σ·ν follows the clip norm, so σ and ε are unchanged. Records what
// it used.
// The noise of each step, σ·ν, and its expected norm: set by the calibration for the clip
// norm given, and again by fitToRows for the one fitted to the rows.
void setStepNoise(MechanismReport& report, double sigma, double clip) {
  report.setNoiseScale(sigma * clip, "σ·ν: std of the noise added to each summed gradient");
  report.expectedNoiseNorm = privacy::expectedNormGaussian(sigma * clip, report.noiseDimension);
  report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖noise‖ of one step");
}

struct FittedSteps {
  double eta = 0;
  double clip = 0;
};

Result<FittedSteps> fitToRows(const MechanismOptions& o, const Dataset& train, const Model& model,
                              privacy::NoiseSource& noise, MechanismReport& report) {
  if (!estimatesSgdStep(o)) return FittedSteps{report.calibrated(Calibrated::LearningRate), o.sgd.clipNorm};
  auto limits = dpSgdStepLimits(o, train.features(), train.classes());
  if (!limits) return limits.error();
  const double m = train.X.rowwise().squaredNorm().mean();
  double estimate = m;
  std::string how = "m = " + briefNumber(m) + ", the rows' exact mean ‖x‖² (σ = 0: NOT private)";
  if (const auto b = report.value("step_estimate_scale")) {
    auto draw = privacy::drawLaplacePerCoordinate(noise, *b, 1);
    if (!draw) return draw.error();
    Eigen::VectorXd released = Eigen::VectorXd::Constant(1, m + draw.value().noise[0]);
    if (auto grid = privacy::applyReleaseGranularity(noise, released, *b); !grid) return grid.error();
    estimate = std::clamp(released[0] + 3 * *b, std::min(3 * *b, 1.0), 1.0);
    how = "m̂ = " + briefNumber(estimate) + ", the rows' mean ‖x‖² + Laplace(b) + 3b within [3b, 1]";
  }
  FittedSteps fitted;
  const double multiple = o.sgd.scheduleFromProblem ? sgdStepMultiplier(estimate) : 1.0;
  fitted.eta = multiple * sgdStepForRows(limits.value(), o.learner.lambda, estimate);
  report.set(Calibrated::LearningRate, fitted.eta,
             (o.sgd.scheduleFromProblem ? "η = c/(L·m̂ + λ), c = min(2, 1/m̂) = " + briefNumber(multiple) + ", L = "
                                        : "η = 1/(L·m̂ + λ), L = ") +
                 briefNumber(limits.value().curvature) + ", " + how);
  const double K = model.constants().gradientBound;
  fitted.clip = std::min(o.sgd.clipNorm, K * std::sqrt(estimate));
  report.set("clip_norm", fitted.clip,
             "ν = min(ν given, K·√m̂), K = " + briefNumber(K) + " the gradient bound of a unit row");
  if (report.noise == NoiseLaw::Gaussian) {
    const double sigma = report.calibrated(Calibrated::NoiseMultiplier);
    setStepNoise(report, sigma, fitted.clip);
  }
  return fitted;
}

}  // namespace

static Result<MechanismReport> calibrateDpSgd(const MechanismOptions& o, const ProblemShape& s,
                                              privacy::NoiseKind noiseKind) {
  MechanismReport report = baseReport(o, NoiseLaw::Gaussian);
  const SgdPlan p = planFor(o, s);
  auto made = makeModel(o.learner, s.features, s.classes);
  if (!made) return made.error();
  report.noiseDimension = made.value()->parameterCount();
  auto step = dpSgdStep(o, s.features, s.classes);
  if (!step) return step.error();
  const bool noiseFree = o.sgd.noiseFree();
  const bool estimate = estimatesSgdStep(o);
  // The step estimate's share of ε, spent before the steps (sequential composition).
  const double epsilonStep = estimate && !noiseFree ? o.sgd.stepEstimateShare * o.epsilon : 0.0;
  if (estimate) {
    report.set(Calibrated::LearningRate, step.value().eta,
               noiseFree ? "η = 1/(L·m + λ), m the rows' mean ‖x‖², set at training (here the unit sphere's "
                           "1/(L + λ))"
                         : "η = 1/(L·m̂ + λ), m̂ the rows' mean ‖x‖² estimated privately, set at training (at "
                           "least the unit sphere's 1/(L + λ) shown here)");
    if (!noiseFree) {
      report.set("epsilon_step_estimate", epsilonStep,
                 "ε₀ = " + briefNumber(o.sgd.stepEstimateShare) + "·ε: a Laplace estimate of the rows' mean ‖x‖² "
                 "that sets the step");
      // A release enlarges the scale by F and rounds m + noise to its grid, as every additive
      // release (release_granularity.h), so that the float error of the sum does not tell m.
      const bool release = noiseKind == privacy::NoiseKind::Release;
      report.set("step_estimate_scale",
                 (release ? privacy::kReleaseNoiseFactor : 1.0) / (static_cast<double>(s.rows) * epsilonStep),
                 std::string("b = 1/(n·ε₀): the estimate's Laplace scale (mean ‖x‖² moves by ≤ 1/n when a row is "
                             "replaced)") + (release ? ", × F (release mode)" : ""));
    }
  } else {
    report.set(Calibrated::LearningRate, step.value().eta, step.value().formula);
  }
  double sigma = 0;
  SgdAccount account;
  if (noiseFree) {
    // σ = 0: the same clipped steps with no noise, the non-private baseline to compare with.
    report.epsilon = std::numeric_limits<double>::infinity();
    report.noise = NoiseLaw::None;  // so there is no noise scale either: noiseScale() is 0
    setSchedule(report, o, p);
    report.set(Calibrated::NoiseMultiplier, 0.0, "σ = 0: no noise is added");
    report.set("clip_norm", o.sgd.clipNorm, "ν");
    report.statement = "NOT private (epsilon = infinity): DP-SGD with noise multiplier 0 adds no noise, " +
                       std::to_string(p.steps) + " clipped steps; a non-private baseline";
    report.warning = "noise multiplier 0: the released model is NOT differentially private";
    return report;
  }
  if (o.sgd.noiseMultiplier) {
    sigma = *o.sgd.noiseMultiplier;
    auto accounted = accountSgd(p, sigma, o.delta);
    if (!accounted) return accounted.error();
    account = accounted.value();
    report.epsilon = account.epsilon + epsilonStep;  // the guarantee this σ gives, with the step's estimate
  } else {
    auto calibrated = calibrateSgd(p, o.delta, o.epsilon - epsilonStep);
    if (!calibrated) return calibrated.error();
    sigma = calibrated.value().first;
    account = calibrated.value().second;
  }
  const bool pld = account.accountant == privacy::AccountantKind::Pld;
  report.accountant = account.accountant;
  // The steps' privacy profile, for the exact trade-off curve (exact_privacy.h): where the
  // PLD grid holds σ, as the accountant that gave ε.
  if (pld)
    report.exactPrivacy = privacy::ExactPrivacy{.sampledGaussian = {privacy::SgmEvent{p.q, sigma, p.steps}},
                                                .pureEpsilon = epsilonStep};
  report.set("epsilon_accounted", account.epsilon,
             pld ? "ε under substitution at this σ by the PLD accountant (replace-one privacy loss distribution, "
                   "pessimistic discretization; ≤ the target when σ is calibrated)"
                 : "ε under substitution at this σ by the RDP accountant (weak triangle inequality through the "
                   "add/remove neighbour; the PLD grid cannot represent this σ)");
  if (pld) {
    report.set("epsilon_accounted_lower", account.pld.epsilonLower,
               "lower end of the PLD accountant's bracket: the optimistic discretization's ε (the exact ε of "
               "this σ lies in [this, epsilon_accounted])");
    report.set("epsilon_error", account.pld.errorBound,
               "epsilon_accounted − epsilon_accounted_lower: how much the PLD accountant's pessimism may add");
    report.set("pld_discretization", account.pld.discretization, "h: the privacy-loss grid of the PLD accountant");
  }
  report.set("epsilon_rdp", account.rdp.epsilon,
             "ε under substitution at this σ by the RDP accountant (weak triangle inequality), for comparison");
  report.set("rdp_order", account.rdp.order, "order of RDP's best RDP→(ε, δ) conversion");
  report.set("epsilon_classic", account.rdp.epsilonClassic, "RDP's ε, classic conversion (Mironov 2017)");
  report.set("epsilon_add_remove", account.rdp.epsilonAddRemove,
             "ε of the same run for add/remove neighbours (RDP accountant), NOT the guarantee");
  setSchedule(report, o, p);
  report.set(Calibrated::NoiseMultiplier, sigma, "σ: noise std per unit of clip norm (calibrated under substitution unless given)");
  report.set("clip_norm", o.sgd.clipNorm,
             estimate ? "ν: at most this; at training min(ν, K·√m̂), fitted to the rows with the step" : "ν");
  setStepNoise(report, sigma, o.sgd.clipNorm);
  char error[32];
  std::snprintf(error, sizeof error, "%.2g", pld ? account.pld.errorBound : 0.0);
  report.statement = "(" + privacy::formatNumber(report.epsilon) + ", " + privacy::formatNumber(o.delta) +
                     ")-DP under substitution of one training example: DP-SGD, " + std::to_string(p.steps) +
                     " steps of the Poisson-subsampled Gaussian; " +
                     (pld ? "epsilon by the PLD accountant (privacy loss distributions, replace-one; an upper bound, "
                            "the exact value is at most " + std::string(error) + " lower); the RDP accountant "
                            "gives " + privacy::formatNumber(account.rdp.epsilon)
                          : "epsilon by the RDP accountant (sampled-Gaussian RDP, Mironov, Talwar & Zhang 2019, carried "
                            "from add/remove to substitution by the weak triangle inequality): " + account.fallback);
  if (epsilonStep > 0)
    report.statement += "; of the epsilon, " + privacy::formatNumber(epsilonStep) +
                        " buys the step size (a Laplace estimate of the rows' mean squared norm) and the steps the rest "
                        "(sequential composition)";
  return report;
}

static Result<PrivateModel> trainDpSgd(const MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise,
                                const TrainControl& control) {
  auto calibrated = calibrateDpSgd(o, {train.rows(), train.features(), train.classes()}, noise.kind());
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  const Model& model = *made.value();
  const SgdPlan p = planFor(o, {train.rows(), train.features(), train.classes()});
  auto fitted = fitToRows(o, train, model, noise, report);
  if (!fitted) return fitted.error();
  const double eta = fitted.value().eta;
  const double nu = fitted.value().clip;
  const double stepNoise = report.noiseScale();
  const double expectedBatch = p.q * static_cast<double>(train.rows());

  Eigen::VectorXd theta = Eigen::VectorXd::Zero(model.parameterCount());
  double noiseNormSum = 0;
  // Tail averaging: the mean of the iterates from step `averageFrom` on.
  const auto averaged = static_cast<long long>(std::ceil(p.averagedTail * static_cast<double>(p.steps)));
  const long long averageFrom = p.steps - std::max(1LL, averaged);
  Eigen::VectorXd tailSum = Eigen::VectorXd::Zero(theta.size());
  // Heavy ball; with β = 0 the velocity is the gradient itself (0·v + g = g exactly): plain steps.
  Eigen::VectorXd velocity = Eigen::VectorXd::Zero(theta.size());
  BatchRows batchRows(train);
  for (long long t = 0; t < p.steps; ++t) {
    if (control.progress.cancelled()) return Error::cancelled();
    const std::vector<Index> batch = poissonSample(noise, train.rows(), p.q);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(theta.size());
    if (!batch.empty()) {
      const Dataset& rows = batchRows.gather(batch);
      // The clipped sum without the batch × parameters matrix of per-example gradients
      // (model.h): LMGC's would be gigabytes (MNIST: 12 GB), softmax's 16 MB a step.
      sum = model.clippedGradientSum(theta, rows.X, rows.y, nu);
    }
    if (stepNoise > 0) {  // σ = 0 is the non-private baseline: no draw
      auto draw = privacy::drawGaussian(noise, stepNoise, theta.size());
      if (!draw) return draw.error();
      noiseNormSum += draw.value().norm;
      sum += draw.value().noise;
    }
    const Eigen::VectorXd gradient = sum / expectedBatch + o.learner.lambda * theta;
    velocity = p.momentum * velocity + gradient;
    theta -= eta * velocity;
    if (model.isConstrained()) model.project(theta);
    if (t >= averageFrom) tailSum += theta;
    if (t % 16 == 0) control.progress.report(static_cast<double>(t) / static_cast<double>(p.steps));
  }
  if (stepNoise > 0) {
    report.noiseNorms.push_back(noiseNormSum / static_cast<double>(p.steps));
    report.set("mean_step_noise_norm", report.noiseNorms.back(), "mean ‖noise‖ drawn per step");
  }
  const auto tailSteps = static_cast<double>(p.steps - averageFrom);
  if (tailSteps > 1)
    report.set("averaged_steps", tailSteps, "the release is the mean of the iterates of the last steps (tail averaging)");
  PrivateModel out;
  out.trained.model = made.value();
  out.trained.theta = tailSum / tailSteps;
  // DP-SGD runs its planned steps and stops: that is success, not an iteration limit.
  out.trained.summary.iterations = static_cast<int>(p.steps);
  out.trained.summary.termination = Termination::Completed;
  out.trained.summary.message = "DP-SGD ran its " + std::to_string(p.steps) + " planned steps";
  if (stepNoise > 0) {
    if (auto status = finishRelease(report, noise, out.trained.theta,
                                     eta * stepNoise / expectedBatch / std::sqrt(tailSteps));
        !status)
      return status.error();
  } else {
    report.noiseSource = noise.provenance().describe();
  }
  if (model.isConstrained()) model.project(out.trained.theta);
  // The objective DP-SGD descends, (1/n)Σℓ + (λ/2)‖θ‖², at the released θ: a diagnostic on the
  // training rows (not a release), where a report showed 0.
  const Objective objective(model, train.X, train.y, {LossScale::Mean, o.learner.lambda, {}});
  Eigen::VectorXd gradient(out.trained.theta.size());
  out.trained.summary.objective = objective(out.trained.theta, gradient);
  out.trained.summary.gradientNorm = gradient.norm();
  out.trained.summary.evaluations = 1;
  out.report = std::move(report);
  return out;
}

}  // namespace dpstudio::mech::detail

namespace dpstudio::mech {
namespace {

class DpSgdMechanism final : public TrainingMechanism {
 public:
  std::string key() const override { return "dpsgd"; }
  std::string title() const override { return "DP-SGD"; }
  Status validate(const MechanismOptions& o) const override {
    using detail::invalidOption;
    const DpSgdSettings& sgd = o.sgd;
    if (sgd.batchSize < 1) return invalidOption("the batch size must be >= 1", "batch-size");
    if (!(std::isfinite(sgd.clipNorm) && sgd.clipNorm > 0))
      return invalidOption("the clip norm must be finite and > 0", "clip-norm");
    if (!(std::isfinite(sgd.epochs) && sgd.epochs > 0)) return invalidOption("epochs must be finite and > 0", "epochs");
    if (sgd.momentum && !(*sgd.momentum >= 0 && *sgd.momentum < 1))
      return invalidOption("the momentum must be in [0, 1)", "momentum");
    if (!(sgd.averagedTail >= 0 && sgd.averagedTail <= 1))
      return invalidOption("the averaged share of the steps must be in [0, 1]", "averaged-tail");
    if (!(sgd.stepEstimateShare >= 0 && sgd.stepEstimateShare < 1))
      return invalidOption("the step estimate's share of epsilon must be in [0, 1)", "step-estimate-share");
    if (sgd.learningRate && !(std::isfinite(*sgd.learningRate) && *sgd.learningRate > 0))
      return invalidOption("the learning rate must be finite and > 0", "learning-rate");
    // 0 is allowed: the non-private baseline, reported as NOT private (ε = ∞).
    if (sgd.noiseMultiplier && !(std::isfinite(*sgd.noiseMultiplier) && *sgd.noiseMultiplier >= 0))
      return invalidOption("the noise multiplier must be finite and >= 0 (0: no noise, NOT private)",
                           "noise-multiplier");
    return Ok{};
  }
  // Gaussian noise by construction, whatever the family.
  bool needsDelta(const MechanismOptions&) const override { return true; }
  Result<MechanismReport> calibrate(const MechanismOptions& o, const ProblemShape& s,
                                    privacy::NoiseKind noise) const override {
    return detail::calibrateDpSgd(o, s, noise);
  }
  Result<PrivateModel> train(const MechanismOptions& o, const Dataset& rows, privacy::NoiseSource& noise,
                             const TrainControl& control, const Eigen::VectorXd*) const override {
    return detail::trainDpSgd(o, rows, noise, control);
  }
};

}  // namespace

const TrainingMechanism& dpSgd() {
  static const DpSgdMechanism mechanism;
  return mechanism;
}

}  // namespace dpstudio::mech
