#include "core/mechanisms/tuning.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>

#include "core/mechanisms/mechanism_internal.h"
#include "core/privacy/validation.h"
#include "core/util/parallel.h"

namespace dpstudio::mech {
namespace {

Error invalidTuning(const std::string& message) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, "tune-lambdas"};
}

// Fisher–Yates with unbiased indices from the noise source: the split is part of the
// mechanism's randomness (and replays in experiment mode).
std::vector<Index> randomPermutation(privacy::NoiseSource& noise, Index n) {
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[static_cast<std::size_t>(noise.uniformIndex(i))]);
  return order;
}

// Part `part` (0-based) of ⌊n/(m+1)⌋ consecutive permuted rows.
Dataset partOf(const Dataset& train, const std::vector<Index>& order, Index part, Index rows) {
  const auto begin = order.begin() + static_cast<std::ptrdiff_t>(part * rows);
  return train.subset(std::vector<Index>(begin, begin + static_cast<std::ptrdiff_t>(rows)));
}

double errorCount(const PrivateModel& candidate, const Dataset& validation) {
  const TrainedModel& t = candidate.trained;
  const Eigen::VectorXi predicted = t.model->predict(t.theta, validation.X);
  return static_cast<double>((predicted.array() != validation.y.array()).count());
}

std::string joinLambdas(const std::vector<double>& lambdas) {
  std::string out;
  for (double lambda : lambdas) out += (out.empty() ? "" : ", ") + privacy::formatNumber(lambda);
  return out;
}

}  // namespace

Status TuningOptions::validate() const {
  if (base.kind == MechanismKind::None)
    return invalidTuning("private tuning needs a private mechanism (output, objective, loss, dplmgc or dpsgd)");
  if (lambdas.empty()) return invalidTuning("tune-lambdas needs at least one candidate lambda");
  for (std::size_t i = 0; i < lambdas.size(); ++i)
    if (!(std::isfinite(lambdas[i]) && lambdas[i] > 0))
      return invalidTuning("tune-lambdas must be finite and > 0, found " + privacy::formatNumber(lambdas[i]) +
                           " (candidate " + std::to_string(i + 1) + ")");
  MechanismOptions each = base;
  for (double lambda : lambdas) {
    each.learner.lambda = lambda;
    if (auto status = each.validate(); !status) return status;
  }
  return Ok{};
}

Result<PrivateModel> tunePrivately(const TuningOptions& options, const Dataset& train,
                                   privacy::NoiseSource& noise, const TrainControl& control) {
  // Everything that can be refused is refused before any noise is drawn.
  if (auto status = options.validate(); !status) return status.error();
  if (auto status = detail::requireUnitBall(train); !status) return status.error();
  const Index m = static_cast<Index>(options.lambdas.size());
  const Index partRows = train.rows() / (m + 1);
  if (partRows < 1)
    return invalidTuning("tuning over " + std::to_string(m) + " candidates needs at least " + std::to_string(m + 1) +
                         " training rows (one part per candidate and one for validation)");
  if (control.progress.cancelled()) return Error::cancelled();

  const std::vector<Index> order = randomPermutation(noise, train.rows());
  const Dataset validation = partOf(train, order, m, partRows);
  const bool experiment = noise.kind() == privacy::NoiseKind::Experiment;
  const std::uint64_t candidateSeed = experiment ? noise.nextU64() : 0;

  TrainControl each;  // no warm start (it would not fit a part), the caller's stop token
  each.tolerance = control.tolerance;
  each.maxIterations = control.maxIterations;
  each.progress = Progress({}, control.progress.stopToken());
  std::vector<std::optional<Result<PrivateModel>>> results(static_cast<std::size_t>(m));
  std::mutex progressMutex;
  Index finished = 0;
  auto trainCandidate = [&](Index i, privacy::NoiseSource& source) {
    MechanismOptions candidate = options.base;
    candidate.learner.lambda = options.lambdas[static_cast<std::size_t>(i)];
    results[static_cast<std::size_t>(i)] = trainPrivately(candidate, partOf(train, order, i, partRows), source, each);
    const std::lock_guard<std::mutex> lock(progressMutex);
    control.progress.report(static_cast<double>(++finished) / static_cast<double>(m));
  };
  if (experiment) {
    const bool spread = workerThreads() > 1 && m > 1;
    parallelFor(m, [&](Index i) {
      std::optional<ScopedWorkerThreads> single;
      if (spread) single.emplace(1);  // the candidates are the parallel work
      privacy::ExperimentNoise own(candidateSeed, static_cast<std::uint64_t>(i));
      trainCandidate(i, own);
    });
  } else {
    for (Index i = 0; i < m; ++i) trainCandidate(i, noise);
  }
  for (const auto& result : results)
    if (!result->ok() && result->error().kind == ErrorKind::Cancelled) return Error::cancelled();
  for (const auto& result : results)
    if (!result->ok()) return result->error();

  Eigen::VectorXd utility(m);
  double epsilon = options.base.epsilon;
  for (Index i = 0; i < m; ++i) {
    const PrivateModel& candidate = results[static_cast<std::size_t>(i)]->value();
    utility[i] = -errorCount(candidate, validation);
    epsilon = std::max(epsilon, candidate.report.epsilon);
  }
  const double beta = options.base.epsilon / 2.0;
  auto chosen = privacy::sampleExponentialMechanism(noise, beta, utility);
  if (!chosen) return chosen.error();
  const Index k = chosen.value();

  PrivateModel out = std::move(*results[static_cast<std::size_t>(k)]).value();
  MechanismReport& report = out.report;
  const double lambda = options.lambdas[static_cast<std::size_t>(k)];
  report.exactPrivacy.reset();  // the choice among candidates is an exponential mechanism: (ε, δ) only
  report.set(Calibrated::Candidates, static_cast<double>(m), "m: the number of candidate lambdas");
  report.set(Calibrated::ChosenLambda, lambda, "the candidate released, chosen with probability ∝ exp(−ε·z_i/2)");
  report.set(Calibrated::ChosenIndex, static_cast<double>(k + 1), "its position among the candidates (1-based)");
  report.set(Calibrated::PartRows, static_cast<double>(partRows), "⌊n/(m+1)⌋ rows per part");
  report.set("selection_beta", beta, "β = ε/2: exponential mechanism on −z_i (errors on the validation part)");
  report.epsilon = epsilon;
  report.noiseSource = experiment ? noise.provenance().describe() + "; candidate " + std::to_string(k + 1) +
                                        " drew from its own stream (seed " + std::to_string(candidateSeed) +
                                        ", trial " + std::to_string(k) + ")"
                                  : noise.provenance().describe();
  const double delta = report.chargedDelta();
  const std::string guarantee =
      options.base.calibration == Calibration::Published
          ? std::string("no valid guarantee (the base mechanism is as published)")
          : "(" + privacy::formatNumber(epsilon) + ", " + privacy::formatNumber(delta) +
                ")-DP under substitution of one training example";
  report.statement = guarantee + ": private tuning of lambda over " +
                     std::to_string(m) + " candidates {" + joinLambdas(options.lambdas) +
                     "} (Chaudhuri, Monteleoni & Sarwate 2011, Alg. 3), each trained on its own 1/" +
                     std::to_string(m + 1) + " of the rows, one released by the exponential mechanism on the "
                     "errors on the last part; the released model: " + report.statement;
  return out;
}

}  // namespace dpstudio::mech
