#include "core/audit/audit.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>

#include "core/audit/audit_targets.h"
#include "core/util/parallel.h"

namespace dpstudio::audit {
namespace {

Error invalid(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}

// Runs per parallel chunk: large enough to amortize the thread hand-off, small enough for
// smooth progress and prompt cancellation. The chunking does not affect the results.
constexpr long long kTrialsPerChunk = 64;

struct Samples {
  std::vector<double> onD, onDprime;
};

Result<Samples> runTrials(const detail::PreparedAudit& prepared, const AuditOptions& options,
                          const Progress& progress) {
  const long long N = options.trials;
  Samples samples{std::vector<double>(static_cast<std::size_t>(N)), std::vector<double>(static_cast<std::size_t>(N))};
  const long long chunks = (N + kTrialsPerChunk - 1) / kTrialsPerChunk;
  std::vector<std::optional<Error>> errors(static_cast<std::size_t>(chunks));
  std::atomic<long long> done{0};
  std::mutex progressMutex;
  parallelFor(chunks, [&](Index chunk) {
    const ScopedWorkerThreads single(1);  // the trials are the parallel work
    const long long begin = chunk * kTrialsPerChunk, end = std::min(N, begin + kTrialsPerChunk);
    for (long long i = begin; i < end; ++i) {
      if (progress.cancelled()) {
        errors[static_cast<std::size_t>(chunk)] = Error::cancelled();
        return;
      }
      privacy::ExperimentNoise noiseD(options.seed, static_cast<std::uint64_t>(2 * i));
      privacy::ExperimentNoise noiseDprime(options.seed, static_cast<std::uint64_t>(2 * i + 1));
      auto s0 = prepared.onD(noiseD);
      auto s1 = prepared.onDprime(noiseDprime);
      if (!s0 || !s1) {
        errors[static_cast<std::size_t>(chunk)] = s0 ? s1.error() : s0.error();
        return;
      }
      samples.onD[static_cast<std::size_t>(i)] = s0.value();
      samples.onDprime[static_cast<std::size_t>(i)] = s1.value();
    }
    const long long finished = done += end - begin;
    const std::lock_guard<std::mutex> lock(progressMutex);
    progress.report(static_cast<double>(finished) / static_cast<double>(N));
  });
  for (const auto& error : errors)
    if (error && error->kind == ErrorKind::Cancelled) return Error::cancelled();
  for (const auto& error : errors)
    if (error) return *error;
  return samples;
}

}  // namespace

Status AuditOptions::validate() const {
  if (trials < 100) return invalid("the audit needs at least 100 trials, found " + std::to_string(trials), "trials");
  if (!(selectionFraction > 0.05 && selectionFraction < 0.95))
    return invalid("the selection fraction must be in (0.05, 0.95)", "selection-fraction");
  if (maxThresholds < 1) return invalid("at least one threshold is needed", "thresholds");
  switch (target) {
    case AuditTarget::Training:
      if (training.kind == mech::MechanismKind::None)
        return invalid("the audit needs a private mechanism (not 'none')", "mechanism");
      return training.validate();
    case AuditTarget::Prediction: return prediction.validate();
    case AuditTarget::Multiparty: return multiparty.validate();
  }
  return invalid("unknown audit target", "mechanism");
}

std::string AuditOptions::mechanismName() const {
  switch (target) {
    case AuditTarget::Training: return mech::mechanismName(training.kind);
    case AuditTarget::Prediction: return predict::predictionKindName(prediction.kind);
    case AuditTarget::Multiparty: return "multiparty";
  }
  return "unknown";
}

Result<AuditResult> runAudit(const AuditOptions& options, const AuditProblem& problem, const Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  if (auto status = options.validate(); !status) return status.error();
  if (problem.D.rows() != problem.Dprime.rows() || problem.D.rows() < 1)
    return Error::badData("D and D' must have the same, non-zero number of rows");
  if (progress.cancelled()) return Error::cancelled();
  auto prepared = options.target == AuditTarget::Training     ? detail::prepareTraining(options, problem)
                  : options.target == AuditTarget::Prediction ? detail::preparePrediction(options, problem)
                                                              : detail::prepareMultiparty(options, problem);
  if (!prepared) return prepared.error();
  auto samples = runTrials(prepared.value(), options, progress);
  if (!samples) return samples.error();

  const auto& s = samples.value();
  const auto split = static_cast<std::ptrdiff_t>(static_cast<double>(options.trials) * options.selectionFraction);
  const std::vector<double> selectD(s.onD.begin(), s.onD.begin() + split), certifyD(s.onD.begin() + split, s.onD.end());
  const std::vector<double> selectDprime(s.onDprime.begin(), s.onDprime.begin() + split),
      certifyDprime(s.onDprime.begin() + split, s.onDprime.end());

  AuditResult result;
  const detail::PreparedAudit& p = prepared.value();
  result.mechanism = options.mechanismName();
  result.calibration = p.calibration;
  result.epsilon = p.epsilon;
  result.delta = p.delta;
  result.trials = options.trials;
  result.statistic = p.statistic;
  result.problem = problem.description;
  result.warning = p.warning;
  result.certificate = selectAndCertify(selectD, selectDprime, certifyD, certifyDprime, p.delta, kRateConfidence,
                                        options.maxThresholds);
  result.epsilonLower = result.certificate.epsilonLower;
  result.violation = result.epsilonLower > result.epsilon;
  result.detectableEpsilon = detectableEpsilon(static_cast<long long>(certifyD.size()),
                                               static_cast<long long>(certifyDprime.size()), p.delta, kRateConfidence);
  result.curve = rateCurve(s.onD, s.onDprime, p.delta, kRateConfidence, options.maxThresholds);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace dpstudio::audit
