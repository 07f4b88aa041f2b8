#pragma once
// The sweep engine: runs a SweepSpec's trials on the process's worker pool (oneTBB, shared
// with the objectives' own parallel loops: no oversubscription), streams each finished
// trial, and can be cancelled at any moment, keeping every finished trial. The trial table
// is the same for the same spec whatever the thread count or completion order (each trial
// depends only on its seed, and every parallel loop inside it is chunk-deterministic).
//
// Each trial is one experiment::runPlan (plan_run.h) with its own seeded noise source; the
// sweep turns the PlanRun into what it records (test accuracy, a predictor's accuracy over a
// seeded sample of answered test rows, the bounded quantities). runPlan skips what no trial
// measures (RunControl: no baseline beside a release, no diagnostics), and its multiparty
// trials aggregate through the trusted curator without the all-data DP release.
//
// Reuse — a sweep repeats one mechanism many times on the same data, and only the noise
// differs between repetitions. The sweep's caches serve this work to the trials' runs
// (RunControl::reuse), each computed once per key by the first trial that asks:
//   · the non-private minimizer (the reference line; output perturbation's warm start,
//     which still releases the minimizer to the tolerance fixed in advance): once per
//     (data variant, learner); polished once more to output perturbation's τ (which depends
//     on n, λ and K, not on ε), so that each output trial only checks the gradient there
//     and draws its noise;
//   · prediction sensitivity's θ*: once per (data variant, learner); each trial restores a
//     predictor with its own (ε, δ, B) calibration and a fresh budget;
//   · subsample-and-aggregate's T teachers: once per (data variant, learner, T);
//   · multiparty's local models: once per (data variant, learner, split); each trial draws
//     the aggregate's noise;
//   · objective and loss perturbation and DP-LMGC: each trial still solves its own
//     perturbed problem (its noise is in the objective), but from the baseline's minimizer
//     instead of zero (mech::trainPrivatelyFromSolution; objective and loss perturbation
//     first move it by the added terms' exact effect). A sweep is an experiment, not a
//     release, so a data-fitted start is allowed here and nowhere else (RunControl::
//     experimentWarmStart; train and the GUI start from zero). The curve still measures
//     what a release would give: the stopping rule ‖∇J(θ)‖ ≤ max(a, r·‖θ‖) depends on the
//     point reached, never on the start, with a and r fixed in advance, so warm and cold
//     runs stop in the same set, and by strong convexity within ‖∇J‖/μ of the same
//     minimizer (mechanism.h says more).
//     SweepWork::warmStarts counts them.
// DP-SGD's iterate is its release, and private λ tuning trains other problems on other
// rows: both start as a release would in every trial.
//
// Each private series is judged against the non-private model of its learner, which the
// sweep adds as series "nonprivate" (one per distinct learner) unless the spec has it.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sources/prepare.h"
#include "core/experiment/curve.h"
#include "core/experiment/sweep_spec.h"
#include "core/experiment/trial_measures.h"
#include "core/util/progress.h"

namespace dpstudio::experiment {

struct TrialRecord {
  TrialId id;
  std::string series;  // key
  double value = 0;
  std::uint64_t seed = 0;
  double accuracy = 0;  // test accuracy (predictors: over their answered sample)
  double seconds = 0;   // wall-clock time of the trial (shared work it computed included)
  // What the published bounds are drawn beside (trial_measures.h): only for the series a
  // bound applies to (DP-LMGC, multiparty with logistic regression), and only when the sweep
  // asked (SweepControl::measureBoundedQuantities). Written to the trial table.
  std::optional<TrialMeasures> measures = std::nullopt;
};

// Counts of the shared work actually done, to show that reuse is real.
struct SweepWork {
  long long baselines = 0;   // non-private minimizers trained
  long long exactMinimizers = 0;  // baselines polished to output perturbation's τ
  long long predictors = 0;  // prediction-sensitivity θ* trained
  long long teacherSets = 0; // teacher ensembles trained
  long long partySets = 0;   // sets of multiparty local models trained
  long long dataVariants = 0;
  long long warmStarts = 0;  // trials whose perturbed problem (B, C, D) started at the baseline
};

struct SweepResult {
  SweepSpec spec;                   // with the reference series added
  std::vector<TrialRecord> trials;  // the finished ones, in expandTrials() order
  long long totalTrials = 0;
  bool cancelled = false;
  double seconds = 0;
  SweepWork work;
};

struct SweepControl {
  int threads = 0;  // 0: every core
  // Run only the trials of shard `shardIndex` (0-based) of `shardCount`: trial i of
  // expandTrials() belongs to shard i mod shardCount.
  int shardIndex = 0;
  int shardCount = 1;
  Progress progress;  // fraction of this shard's trials done; its stop token cancels
  // Measure what the published bounds bound (TrialRecord::measures). Off by default: the CLI
  // does not draw the bounds; the GUI's privacy–utility view does.
  bool measureBoundedQuantities = false;
  // Called once per finished trial, from worker threads, one call at a time.
  std::function<void(const TrialRecord&)> onTrial;
};

// The spec with the non-private reference series it needs (sweep.h's header comment).
SweepSpec withReferenceSeries(const SweepSpec& spec);

// What the data are, for SweepSpec::dataset (the fingerprint: shards of one sweep must see the
// same data): the training and test sources, the preprocessing steps and the shape. The CLI
// and the GUI's paper presets, preparing the same request, give the same identity.
std::string dataIdentity(const PreparedData& data);

// Runs the (shard's) trials on `data` (its test part must have rows). Errors before any
// trial (validation) are returned; a trial's own error stops the sweep and is returned.
Result<SweepResult> runSweep(const SweepSpec& spec, const PreparedData& data, const SweepControl& control = {});

// What a summary needs to know of a sweep, and what a trial table carries so that shards
// can be merged without the data: the series (key, title, private or not), the axis, its
// values, the repetitions and the fingerprint.
struct SweepLayout {
  struct Series {
    std::string key;
    std::string title;
    bool isPrivate = true;
    bool operator==(const Series&) const = default;
  };
  std::string fingerprint;
  std::string title;  // the data, for the chart's title: "builtin:digits"
  SweepAxis axis = SweepAxis::Epsilon;
  std::vector<double> values;
  int repeats = 1;
  std::vector<Series> series;
  long long totalTrials = 0;  // of the whole sweep, every shard
  // The test part's largest class share — always answering its most common class — on an
  // axis that keeps the test part's classes (every axis but classes): a reference line
  // beside every curve (issue 32 item 4). Measured on the data: NOT private.
  std::optional<double> mostCommonClass;

  bool operator==(const SweepLayout&) const = default;
};
// `data`: the prepared data the sweep runs on, for mostCommonClass (none without it).
SweepLayout layoutOf(const SweepSpec& spec, const PreparedData* data = nullptr);

// The label of the most-common-class reference line.
inline constexpr const char* kMostCommonClassLine = "always the most common class";

// Mean, sample standard deviation, count and 95 % Student-t interval per (series, value).
Curve summarize(const SweepLayout& layout, const std::vector<TrialRecord>& trials);

}  // namespace dpstudio::experiment
