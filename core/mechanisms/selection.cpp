#include "core/mechanisms/selection.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>

#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/sgd_step.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/mechanisms/training_mechanism.h"
#include "core/privacy/noise.h"
#include "core/privacy/gaussian.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/repeat_select.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech {
namespace {

// The share of a run's ε spent on its noisy score: enough that on a few thousand rows the
// count's noise (≈ 10/ε_run rows) is well below the differences between candidates.
constexpr double kScoreShare = 0.1;
// DP-SGD's step sizes under --tune, as multiples of the safe step (sgd_step.h).
constexpr double kSgdStepMultiples[] = {1, 4, 12};

Error invalidSelection(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}

double lawShape(RunLaw law) { return law == RunLaw::Geometric ? 1.0 : 0.0; }

// Each mechanism's λ grid on the learner's own scale (docs/algorithms.md §0.3): output
// perturbation's noise falls as 1/(nλ) and needs a larger λ than the mechanisms that
// perturb the objective; DP-SGD's noise does not depend on λ. Public and data-independent.
std::vector<double> defaultLambdas(MechanismKind kind, ModelKind model) {
  if (model == ModelKind::Lmgc) return kind == MechanismKind::DpSgd ? std::vector<double>{1e-2} : std::vector<double>{1e-2, 1e-1, 1};
  if (kind == MechanismKind::Output) return {1e-3, 1e-2, 1e-1};
  if (kind == MechanismKind::DpSgd) return {1e-4};
  return {1e-4, 1e-3, 1e-2};
}

bool usesGaussianNoise(MechanismKind kind, bool withDelta) {
  // Gaussian output perturbation has an exact Rényi curve; the other perturbations are used
  // with ℓ2-Laplace noise, pure ε-DP (their Gaussian variants have no Rényi curve here).
  return kind == MechanismKind::DpSgd || (kind == MechanismKind::Output && withDelta);
}

MechanismOptions candidateOf(const MechanismOptions& shared, MechanismKind kind, double lambda) {
  MechanismOptions candidate = shared;
  candidate.kind = kind;
  candidate.calibration = Calibration::Corrected;
  const bool gaussian = usesGaussianNoise(kind, shared.delta > 0);
  candidate.family = gaussian ? NoiseFamily::Gaussian : NoiseFamily::L2Laplace;
  candidate.delta = gaussian ? shared.delta : 0.0;
  candidate.learner.lambda = lambda;
  return candidate;
}

// The public rule: the mechanism that measured best on public data for a problem of this
// kind (docs/algorithms.md §3 K, bench/private_selection.py), from the model and δ alone:
// DP-SGD whenever δ > 0; with δ = 0 objective perturbation for the binary models, DP-LMGC
// for LMGC, loss perturbation for softmax.
MechanismKind ruleMechanism(ModelKind model, bool withDelta) {
  if (withDelta) return MechanismKind::DpSgd;
  if (model == ModelKind::Lmgc) return MechanismKind::DpLmgc;
  if (model == ModelKind::Softmax) return MechanismKind::Loss;
  return MechanismKind::Objective;
}

// Its λ, on the learner's own scale. DP-SGD's noise does not depend on λ: a small one. The
// perturbations' noise falls as 1/(nελ) while the bias grows with λ: λ = 0.2/√(nε), within
// [1e-4, 0.1], fits the measured best λ from 146 rows (sonar, 1e-2) to 32 561 (a9a, 1e-3).
double ruleLambda(MechanismKind kind, ModelKind model, const ProblemShape& shape, double epsilon) {
  if (model == ModelKind::Lmgc) return 1e-2;
  if (kind == MechanismKind::DpSgd) return 1e-4;
  const double n = static_cast<double>(std::max<Index>(shape.rows, 1));
  return std::clamp(0.2 / std::sqrt(n * epsilon), 1e-4, 1e-1);
}

std::vector<MechanismOptions> ruleCandidates(const SelectionOptions& options, const ProblemShape& shape) {
  const MechanismOptions& shared = options.shared;
  const MechanismKind kind = ruleMechanism(shared.learner.kind, shared.delta > 0);
  std::vector<MechanismOptions> out;
  const std::vector<double> lambdas =
      options.settings.lambdas.empty()
          ? std::vector<double>{ruleLambda(kind, shared.learner.kind, shape, shared.epsilon)}
          : options.settings.lambdas;
  for (double lambda : lambdas) out.push_back(candidateOf(shared, kind, lambda));
  return out;
}

// The candidates before any budget: every training mechanism whose options are valid for
// the learner and whose calibration works on this shape, each with its λ grid.
std::vector<MechanismOptions> candidateList(const SelectionOptions& options, const ProblemShape& shape) {
  if (!options.settings.tune) {
    std::vector<MechanismOptions> out;
    for (const MechanismOptions& candidate : ruleCandidates(options, shape))
      if (candidate.validate() && calibrate(candidate, shape)) out.push_back(candidate);
    return out;
  }
  const MechanismOptions& shared = options.shared;
  const bool withDelta = shared.delta > 0;
  std::vector<MechanismOptions> out;
  for (MechanismKind kind : {MechanismKind::Objective, MechanismKind::Loss, MechanismKind::Output,
                             MechanismKind::DpLmgc, MechanismKind::DpSgd}) {
    if (kind == MechanismKind::DpSgd && !withDelta) continue;
    const std::vector<double> lambdas = options.settings.lambdas.empty()
                                            ? defaultLambdas(kind, shared.learner.kind)
                                            : options.settings.lambdas;
    for (double lambda : lambdas) {
      const MechanismOptions candidate = candidateOf(shared, kind, lambda);
      if (!candidate.validate() || !calibrate(candidate, shape)) continue;
      if (kind != MechanismKind::DpSgd || candidate.sgd.learningRate) {
        out.push_back(candidate);
        continue;
      }
      // DP-SGD's step: the safe 1/(L + λ) assumes rows on the unit sphere; rows well inside
      // it (declared ranges wider than the data) need a larger one, which only the data can tell.
      auto step = dpSgdStep(candidate, shape.features, shape.classes);
      if (!step) continue;
      for (double multiple : kSgdStepMultiples) {
        MechanismOptions variant = candidate;
        variant.sgd.learningRate = multiple * step.value().eta;
        out.push_back(variant);
      }
    }
  }
  return out;
}

// The Rényi orders of the δ > 0 accounting (any set gives a valid bound): dense where the
// conversion to (ε, δ) lands for ε of order 1, up to 256.
const std::vector<double>& accountingOrders() {
  static const std::vector<double> orders{1.5, 1.75, 2,  2.5, 3,  3.5, 4,  5,  6,  7,   8,   10,  12,  14,
                                          16,  20,   24, 28,  32, 40,  48, 56, 64, 80, 96, 128, 160, 192, 256};
  return orders;
}
// A candidate "spends ρ" when its Rényi curve is at most ρ·α at the orders where the
// conversion to (ε, δ) lands for ε of order 1 and δ ≪ 1/n. The Gaussian mechanisms' curves
// are linear, so the window does not matter for them; DP-SGD's (through the weak triangle
// inequality) is steeper at low orders and bends upwards at high ones. The window only sizes
// the noise: the accounting counts every candidate's whole curve.
constexpr double kRhoOrderLow = 8, kRhoOrderHigh = 64;

std::vector<double> rhoWindow() {
  std::vector<double> out;
  for (double order : accountingOrders())
    if (order >= kRhoOrderLow && order <= kRhoOrderHigh) out.push_back(order);
  return out;
}

double rhoOf(const std::vector<double>& curve, const std::vector<double>& orders) {
  double rho = 0;
  for (std::size_t i = 0; i < orders.size(); ++i)
    if (orders[i] >= kRhoOrderLow && orders[i] <= kRhoOrderHigh) rho = std::max(rho, curve[i] / orders[i]);
  return rho;
}

// Sets `candidate`'s noise so that it spends ρ, and returns its Rényi curve at `orders`:
// an ε-DP perturbation at ε = √(2ρ) (ε-DP implies ε²/2-zCDP); Gaussian output perturbation
// at the ε whose analytic σ gives C·Δ²/(2σ²) ≤ ρ (C releases one-vs-rest); DP-SGD at the σ
// whose substitution curve stays under ρα.
Result<std::vector<double>> spendRho(MechanismOptions& candidate, const ProblemShape& shape, double rho,
                                     const std::vector<double>& orders) {
  if (candidate.family == NoiseFamily::L2Laplace) {
    candidate.epsilon = std::sqrt(2 * rho);
    return privacy::pureDpRdp(candidate.epsilon, orders);
  }
  if (candidate.kind == MechanismKind::DpSgd) {
    candidate.sgd.noiseMultiplier = 1.0;
    auto report = calibrate(candidate, shape);
    if (!report) return report.error();
    const double q = report.value().calibrated(Calibrated::SamplingRate);
    const auto steps = static_cast<long long>(report.value().calibrated(Calibrated::Steps));
    static const std::vector<double> window = rhoWindow();
    double low = 1e-2, high = 1e5;  // σ: ρ(σ) falls as σ grows
    for (int iteration = 0; iteration < 40 && high / low > 1 + 1e-4; ++iteration) {
      const double mid = std::sqrt(low * high);
      auto curve = substitutionRdpCurve({q, mid, steps}, window);
      if (!curve) return curve.error();
      (rhoOf(curve.value(), window) <= rho ? high : low) = mid;
    }
    candidate.sgd.noiseMultiplier = high;
    return substitutionRdpCurve({q, high, steps}, orders);
  }
  // Gaussian output perturbation: Δ and the number of releases do not depend on ε.
  candidate.epsilon = 1;
  auto first = calibrate(candidate, shape);
  if (!first) return first.error();
  const double Delta = first.value().calibrated(Calibrated::Delta);
  const double releases = first.value().find(Calibrated::Releases).value_or(1.0);
  const double wanted = Delta * std::sqrt(releases / (2 * rho));
  double low = 1e-8, high = 1e3;  // ε: σ(ε) falls as ε grows; keep the largest ε with σ ≥ wanted
  for (int iteration = 0; iteration < 80 && high / low > 1 + 1e-9; ++iteration) {
    const double mid = std::sqrt(low * high);
    auto sigma = privacy::analyticGaussianSigma(mid / releases, candidate.delta / releases, Delta);
    if (sigma && sigma.value() >= wanted) low = mid;
    else high = mid;
  }
  candidate.epsilon = low;
  auto report = calibrate(candidate, shape);
  if (!report) return report.error();
  std::vector<double> curve = privacy::gaussianRdp(Delta, report.value().noiseScale(), orders);
  for (double& value : curve) value *= releases;
  return curve;
}

struct RdpBudget {
  std::vector<MechanismOptions> candidates;
  double scoreEpsilon = 0;
  double epsilon = 0;
  double order = 0;
};

// The selection's ε at δ when each candidate spends ρ and the score ρ/9 (a tenth of the run).
Result<RdpBudget> rdpBudget(const std::vector<MechanismOptions>& candidates, const ProblemShape& shape, double rho,
                            double delta, double lawShape, double gamma) {
  const std::vector<double>& orders = accountingOrders();
  RdpBudget out{candidates, std::sqrt(2 * rho / 9), 0, 0};
  std::vector<double> run = privacy::laplaceRdp(out.scoreEpsilon, orders);
  std::vector<double> worst(orders.size(), 0.0);
  for (MechanismOptions& candidate : out.candidates) {
    auto curve = spendRho(candidate, shape, rho, orders);
    if (!curve) return curve.error();
    for (std::size_t i = 0; i < orders.size(); ++i) worst[i] = std::max(worst[i], curve.value()[i]);
  }
  for (std::size_t i = 0; i < orders.size(); ++i) run[i] += worst[i];
  const std::vector<double> selection = privacy::repeatAndSelectRdp(orders, run, lawShape, gamma);
  auto epsilon = privacy::rdpToEpsilon(orders, selection, delta, privacy::RdpConversion::Improved);
  if (!epsilon) return epsilon.error();
  out.epsilon = epsilon.value().epsilon;
  out.order = epsilon.value().order;
  return out;
}

std::string lawName(double shape) { return shape == 1.0 ? "geometric" : "logarithmic"; }

std::string mechanismTitle(MechanismKind kind) { return kind.isNone() ? "none" : kind.mechanism().title(); }

}  // namespace

Status SelectionOptions::validate() const {
  if (auto ok = privacy::requirePositive("epsilon", shared.epsilon); !ok) return ok;
  if (!(shared.delta >= 0 && shared.delta < 1))
    return invalidSelection("delta must be in [0, 1), found " + privacy::formatNumber(shared.delta), "delta");
  if (shared.calibration == Calibration::Published)
    return invalidSelection("private selection has no \"as published\" form: its proof needs each candidate's own "
                            "guarantee (use the corrected calibration)",
                            "calibration");
  if (auto ok = shared.learner.validate(); !ok) return ok;
  for (std::size_t i = 0; i < settings.lambdas.size(); ++i)
    if (!(std::isfinite(settings.lambdas[i]) && settings.lambdas[i] > 0))
      return invalidSelection("tune-lambdas must be finite and > 0, found " + privacy::formatNumber(settings.lambdas[i]) +
                                  " (candidate " + std::to_string(i + 1) + ")",
                              "tune-lambdas");
  if (!(settings.meanRuns == 0 || (std::isfinite(settings.meanRuns) && settings.meanRuns >= 1 && settings.meanRuns <= 1000)))
    return invalidSelection("selection-runs must be between 1 and 1000 (0: the default), found " +
                                privacy::formatNumber(settings.meanRuns),
                            "selection-runs");
  return Ok{};
}

namespace {

Result<SelectionPlan> computePlan(const SelectionOptions& options, const ProblemShape& shape) {
  SelectionPlan plan;
  plan.candidates = candidateList(options, shape);
  if (plan.candidates.empty())
    return invalidSelection("no private training mechanism fits this model and these privacy parameters "
                            "(with delta = 0 only the pure-epsilon perturbations are candidates)",
                            "mechanism");
  const double m = static_cast<double>(plan.candidates.size());
  plan.shape = lawShape(options.settings.law);
  if (plan.candidates.size() > 1 || options.settings.meanRuns != 0)
    // The selection's accounting covers DP-SGD's steps, not a step estimate within a run:
    // candidates step by the public rule (--tune tries several multiples of it).
    for (MechanismOptions& candidate : plan.candidates) candidate.sgd.stepEstimateShare = 0;
  const double epsilon = options.shared.epsilon, delta = options.shared.delta;
  if (plan.candidates.size() == 1 && options.settings.meanRuns == 0) {
    // One candidate: nothing to select. It trains once, at the whole ε (and δ if its noise has one).
    MechanismOptions& only = plan.candidates.front();
    only.epsilon = epsilon;
    plan.selects = false;
    plan.trainEpsilon = epsilon;
    plan.epsilon = epsilon;
    plan.delta = only.delta;
    return plan;
  }
  const double wantedRuns = options.settings.meanRuns > 0 ? options.settings.meanRuns : std::max(10.0, 2 * m);
  plan.gamma = privacy::repetitionGamma(plan.shape, wantedRuns);
  plan.meanRuns = privacy::repetitionMean(plan.shape, plan.gamma);

  if (delta == 0) {
    const double run = epsilon / (2 + plan.shape);
    plan.trainEpsilon = (1 - kScoreShare) * run;
    plan.scoreEpsilon = kScoreShare * run;
    for (MechanismOptions& candidate : plan.candidates) candidate.epsilon = plan.trainEpsilon;
    plan.epsilon = privacy::repeatAndSelectPureEpsilon(plan.trainEpsilon + plan.scoreEpsilon, plan.shape);
    return plan;
  }

  // The selection's ε grows with ρ. Halve ρ from ε²/2 until the selection fits, then bisect
  // for the largest ρ within the target.
  double low = 0, high = epsilon * epsilon / 2;
  std::optional<RdpBudget> best;
  std::string floorNote = "the run law alone costs more";
  for (double rho = high; rho > 1e-10; rho /= 4) {
    auto budget = rdpBudget(plan.candidates, shape, rho, delta, plan.shape, plan.gamma);
    if (!budget) {
      floorNote = budget.error().message;
      break;
    }
    if (budget.value().epsilon <= epsilon) {
      low = rho;
      best = std::move(budget).value();
      break;
    }
    high = rho;
  }
  if (!best)
    return invalidSelection("epsilon too small for private selection at this delta (" + floorNote +
                                "): choose a larger epsilon, fewer runs with --selection-runs, or one mechanism",
                            "epsilon");
  for (int iteration = 0; iteration < 40 && high / low > 1 + 1e-4; ++iteration) {
    const double mid = std::sqrt(low * high);
    auto budget = rdpBudget(plan.candidates, shape, mid, delta, plan.shape, plan.gamma);
    if (budget && budget.value().epsilon <= epsilon) {
      low = mid;
      best = std::move(budget).value();
    } else {
      high = mid;
    }
  }
  plan.candidates = best->candidates;
  plan.rho = low;
  plan.scoreEpsilon = best->scoreEpsilon;
  plan.epsilon = best->epsilon;
  plan.delta = delta;
  plan.rdpOrder = best->order;
  return plan;
}

// Planning with δ > 0 bisects over Rényi curves (about a second with DP-SGD among the
// candidates), and a run asks for the same plan several times (the CLI's output, the bundle,
// the GUI's live text): the last few plans are kept.
struct PlanMemo {
  std::mutex mutex;
  struct Entry {
    SelectionOptions options;
    ProblemShape shape;
    SelectionPlan plan;
  };
  std::deque<Entry> entries;
};

bool sameRequest(const SelectionOptions& a, const ProblemShape& shapeA, const SelectionOptions& b,
                 const ProblemShape& shapeB) {
  return a.shared == b.shared && a.settings == b.settings && shapeA.rows == shapeB.rows &&
         shapeA.features == shapeB.features && shapeA.classes == shapeB.classes;
}

}  // namespace

Result<SelectionPlan> planSelection(const SelectionOptions& options, const ProblemShape& shape) {
  if (auto ok = options.validate(); !ok) return ok.error();
  static PlanMemo memo;
  {
    const std::lock_guard<std::mutex> lock(memo.mutex);
    for (const PlanMemo::Entry& entry : memo.entries)
      if (sameRequest(entry.options, entry.shape, options, shape)) return entry.plan;
  }
  auto plan = computePlan(options, shape);
  if (!plan) return plan;
  const std::lock_guard<std::mutex> lock(memo.mutex);
  memo.entries.push_back({options, shape, plan.value()});
  if (memo.entries.size() > 8) memo.entries.pop_front();
  return plan;
}

const std::vector<double>& selectionOrders() { return accountingOrders(); }

std::string candidateLabel(const MechanismOptions& candidate) {
  std::string label = mechanismTitle(candidate.kind);
  if (candidate.family == NoiseFamily::Gaussian && candidate.kind != MechanismKind::DpSgd) label += " (Gaussian)";
  label += ", \u03bb = " + privacy::formatNumber(candidate.learner.lambda);
  if (candidate.kind == MechanismKind::DpSgd && candidate.sgd.learningRate)
    label += ", step " + privacy::formatNumber(*candidate.sgd.learningRate);
  if (candidate.kind == MechanismKind::DpSgd && candidate.sgd.noiseMultiplier)
    label += ", \u03c3 = " + privacy::formatNumber(*candidate.sgd.noiseMultiplier);
  return label;
}

namespace {

void describeSelection(MechanismReport& report, const SelectionPlan& plan) {
  report.epsilon = plan.epsilon;
  report.delta = plan.delta;
  report.chargesDelta = plan.delta > 0;
  report.set(Calibrated::Candidates, static_cast<double>(plan.candidates.size()), "m: mechanisms × λ, fixed from public numbers");
  if (!plan.selects) return;
  report.set(Calibrated::MeanRuns, plan.meanRuns, "E[K]: the mean number of training runs (" + lawName(plan.shape) + " law)");
  if (plan.delta > 0)
    report.set("run_rho", plan.rho, "ρ: each candidate's Rényi curve is at most ρ·α (orders ≤ 64)");
  else
    report.set("run_train_epsilon", plan.trainEpsilon, "each candidate's ε");
  report.set("score_epsilon", plan.scoreEpsilon, "Laplace(1/ε) on each run's count of correct training rows");
  if (plan.delta > 0) report.set("rdp_order", plan.rdpOrder, "order of the selection's RDP → (ε, δ) conversion");
}

std::string guaranteeOf(const SelectionPlan& plan) {
  return "(" + privacy::formatNumber(plan.epsilon) + ", " + privacy::formatNumber(plan.delta) +
         ")-DP under substitution of one training example";
}

std::string ruleStatement(const SelectionPlan& plan) {
  return guaranteeOf(plan) + ": " + candidateLabel(plan.candidates.front()) +
         ", the public rule's choice for this model and delta (nothing spent on choosing)";
}

std::string howAccounted(const SelectionPlan& plan) {
  return plan.delta > 0 ? "Papernot & Steinke 2022 (Theorem 2) on the runs' Rényi curves"
                        : "Liu & Talwar 2019 / Papernot & Steinke 2022: (2 + η)·ε_run";
}

}  // namespace

Result<MechanismReport> calibrateSelection(const SelectionOptions& options, const ProblemShape& shape) {
  auto plan = planSelection(options, shape);
  if (!plan) return plan.error();
  const SelectionPlan& p = plan.value();
  if (!p.selects) {
    // The rule's one mechanism: its own calibration, said to be the rule's choice.
    auto own = calibrate(p.candidates.front(), shape);
    if (!own) return own.error();
    MechanismReport report = std::move(own).value();
    const std::string ownStatement = report.statement;
    describeSelection(report, p);
    report.statement = ruleStatement(p) + "; the model: " + ownStatement;
    return report;
  }
  MechanismReport report = detail::baseReport(p.candidates.front(), NoiseLaw::None);
  report.mechanism = "auto";
  describeSelection(report, p);
  std::string list;
  for (const MechanismOptions& c : p.candidates) list += (list.empty() ? "" : "; ") + candidateLabel(c);
  report.statement = p.selects ? guaranteeOf(p) + ": private selection (" + howAccounted(p) + ") among " +
                                     std::to_string(p.candidates.size()) + " candidates, each trained on all the rows: " +
                                     list
                               : ruleStatement(p);
  return report;
}

Result<PrivateModel> selectPrivately(const SelectionOptions& options, const Dataset& train,
                                     privacy::NoiseSource& noise, const TrainControl& control) {
  if (auto status = detail::requireUnitBall(train); !status) return status.error();
  const ProblemShape shape{train.rows(), train.features(), train.classes()};
  auto planned = planSelection(options, shape);
  if (!planned) return planned.error();
  const SelectionPlan& plan = planned.value();
  if (control.progress.cancelled()) return Error::cancelled();
  if (!plan.selects) {
    auto model = trainPrivately(plan.candidates.front(), train, noise, control);
    if (!model) return model.error();
    PrivateModel out = std::move(model).value();
    const std::string ownStatement = out.report.statement;
    describeSelection(out.report, plan);
    out.report.set(Calibrated::ChosenIndex, 1, "the released candidate (1-based)");
    out.report.set(Calibrated::ChosenLambda, plan.candidates.front().learner.lambda, "the public rule's λ");
    out.report.statement = ruleStatement(plan) + "; the released model: " + ownStatement;
    return out;
  }

  const std::uint64_t runs = privacy::drawRepetitions(plan.shape, plan.gamma, noise);
  TrainControl each;  // from zero: a run must not start from another run's (data-fitted) model
  each.tolerance = control.tolerance;
  each.maxIterations = control.maxIterations;
  each.rows = control.rows;
  std::optional<PrivateModel> best;
  std::size_t bestIndex = 0;
  double bestScore = -std::numeric_limits<double>::infinity();
  for (std::uint64_t run = 0; run < runs; ++run) {
    if (control.progress.cancelled()) return Error::cancelled();
    const std::size_t index = noise.uniformIndex(plan.candidates.size());
    each.progress = Progress(
        [&, run](double fraction) {
          control.progress.report((static_cast<double>(run) + fraction) / static_cast<double>(runs));
        },
        control.progress.stopToken());
    auto model = trainPrivately(plan.candidates[index], train, noise, each);
    if (!model) return model.error();
    const TrainedModel& t = model.value().trained;
    const Eigen::VectorXi predicted = t.model->predict(t.theta, train.X);
    const double correct = static_cast<double>((predicted.array() == train.y.array()).count());
    auto scoreNoise = privacy::drawLaplacePerCoordinate(noise, 1.0 / plan.scoreEpsilon, 1);
    if (!scoreNoise) return scoreNoise.error();
    const double score = correct + scoreNoise.value().noise[0];
    if (score > bestScore) {
      bestScore = score;
      bestIndex = index;
      best = std::move(model).value();
    }
  }
  control.progress.report(1.0);

  PrivateModel out = std::move(*best);
  MechanismReport& report = out.report;
  const std::string chosen = candidateLabel(plan.candidates[bestIndex]);
  const std::string ownStatement = report.statement;
  report.exactPrivacy.reset();  // the selection's guarantee is its Rényi accounting's (ε, δ) only
  describeSelection(report, plan);
  report.set(Calibrated::SelectionRuns, static_cast<double>(runs), "K: training runs drawn from the run law (independent of the data)");
  report.set(Calibrated::ChosenIndex, static_cast<double>(bestIndex + 1), "the released run's candidate (1-based)");
  report.set(Calibrated::ChosenLambda, plan.candidates[bestIndex].learner.lambda, "the released run's λ");
  report.statement = guaranteeOf(plan) + ": private selection (" + howAccounted(plan) + ") of " + chosen + " among " +
                     std::to_string(plan.candidates.size()) + " candidates in " + std::to_string(runs) +
                     " runs on all the rows, by the noisy count of correct training rows; the released run: " +
                     ownStatement;
  return out;
}

}  // namespace dpstudio::mech
