#include "core/experiment/sweep.h"

#include "core/experiment/result_baselines.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include <boost/math/distributions/students_t.hpp>
// collaborative_call_once: the trials that need one shared computation wait for it by
// helping with its parallel loops, never by blocking a worker the computation needs.
#include <tbb/blocked_range.h>
#include <tbb/collaborative_call_once.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/data/preprocess.h"
#include "core/data/split.h"
#include "core/experiment/answering.h"
#include "core/experiment/plan_run.h"
#include "core/util/number_text.h"

namespace dpstudio::experiment {
namespace {

using Clock = std::chrono::steady_clock;

// The data a trial trains and tests on: the prepared data, or a variant of it (n, dims,
// classes axes). Shared pointers so that variants that keep the test part share it.
struct DataVariant {
  std::shared_ptr<const Dataset> train;
  std::shared_ptr<const Dataset> test;
  // train's rows in the learners' layout, built once for every fit of the variant's trials
  // (MNIST's sparse copy costs more than an output-perturbation trial).
  std::shared_ptr<const FeatureMatrix> trainRows;
};

// Work computed once and shared by the trials that need it, released when the last of them
// has finished (a sweep over n on MNIST would otherwise keep every subset).
template <class T>
class SharedWork {
 public:
  // Before any trial runs (single-threaded): one more trial will use `key`.
  void want(const std::string& key) {
    auto& entry = entries_[key];
    if (!entry) entry = std::make_unique<Entry>();
    ++entry->users;
  }

  template <class Compute>
  Result<std::shared_ptr<const T>> get(const std::string& key, Compute&& compute, long long& computed) {
    Entry& entry = *entries_.at(key);
    tbb::collaborative_call_once(entry.once, [&] {
      Result<T> value = compute();
      if (value) entry.value = std::make_shared<const T>(std::move(value).value());
      else entry.error = value.error();
      std::lock_guard lock(countMutex_);
      ++computed;
    });
    if (entry.error) return *entry.error;
    return entry.value;
  }

  // A trial that wanted `key` is done with it.
  void release(const std::string& key) {
    Entry& entry = *entries_.at(key);
    if (--entry.users == 0) entry.value.reset();
  }

 private:
  struct Entry {
    tbb::collaborative_once_flag once;
    std::shared_ptr<const T> value;
    std::optional<Error> error;
    std::atomic<long long> users{0};
  };
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  std::mutex countMutex_;
};

std::string learnerKey(const LearnerSpec& learner, const SolverSettings& solver) {
  return modelKindName(learner.kind) + "/" + exactNumber(learner.lambda) + "/" + exactNumber(learner.huber) + "/" +
         exactNumber(solver.tolerance) + "/" + std::to_string(solver.maxIterations);
}

// What a trial measured.
struct TrialOutcome {
  double accuracy = 0;
  std::optional<TrialMeasures> measures;
};

// Whether a trial of `plan` measures what a published bound bounds (trial_measures.h).
bool measuresBounds(const PrivacyPlan& plan, const SweepControl& control) {
  return control.measureBoundedQuantities && plan.isPrivate() && whyNoBound(plan).empty();
}

// The plan a trial runs. A multiparty trial measures the aggregate's accuracy: through the
// trusted curator whatever protocol the plan names (Paillier's keys and comparisons would take
// most of the sweep) and without the all-data DP baseline, a second release no trial measures.
PrivacyPlan trialPlan(PrivacyPlan plan) {
  if (auto* m = std::get_if<Multiparty>(&plan.choice)) {
    m->options.protocol = multiparty::AggregationProtocolKind::TrustedCurator;
    m->options.allDataBaseline = false;
  }
  return plan;
}

// The shared work a trial needs, by key.
struct TrialNeeds {
  std::string variant;
  std::optional<std::string> baseline;
  std::optional<std::string> exact;  // output perturbation's start: the baseline polished to τ
  std::optional<std::string> predictor;
  std::optional<std::string> teachers;
  std::optional<std::string> parties;
};

class SweepRunner {
 public:
  SweepRunner(const SweepSpec& spec, const PreparedData& data, const SweepControl& control)
      : spec_(spec), data_(data), control_(control) {
    base_.train = std::shared_ptr<const Dataset>(&data.train, [](const Dataset*) {});
    base_.test = std::shared_ptr<const Dataset>(&data.test, [](const Dataset*) {});
  }

  Result<SweepResult> run();

 private:
  int variantIndex(const TrialId& id) const {
    switch (spec_.axis) {
      case SweepAxis::Rows:
      case SweepAxis::Dims: return 1 + id.valueIndex * spec_.repeats + id.repeat;
      case SweepAxis::Classes: return 1 + id.valueIndex;
      default: return 0;
    }
  }
  TrialNeeds needsOf(const TrialId& id) const;
  Result<DataVariant> makeVariant(const TrialId& id) const;
  Result<TrialRecord> runTrial(const TrialId& id, const TrialNeeds& needs);
  RunControl runControl(const PrivacyPlan& plan, const TrialNeeds& needs);
  Result<TrialOutcome> outcomeOf(PlanRun& run, const PrivacyPlan& plan, const TrialId& id, const RunData& data,
                                 privacy::NoiseSource& noise);

  const SweepSpec& spec_;
  const PreparedData& data_;
  const SweepControl& control_;
  DataVariant base_;
  SharedWork<DataVariant> variants_;
  SharedWork<FittedModel> baselines_;
  SharedWork<Eigen::VectorXd> exacts_;
  SharedWork<predict::PrivatePredictor> predictors_;
  SharedWork<std::shared_ptr<const predict::TeacherEnsemble>> teachers_;
  SharedWork<std::vector<multiparty::LocalModel>> parties_;
  SweepWork work_;
  std::atomic<long long> warmStarts_{0};
};

TrialNeeds SweepRunner::needsOf(const TrialId& id) const {
  const SweepSeries& series = spec_.series[static_cast<std::size_t>(id.series)];
  const PrivacyPlan plan = spec_.planAt(series, spec_.values[static_cast<std::size_t>(id.valueIndex)]);
  TrialNeeds needs;
  const std::string variant = "v" + std::to_string(variantIndex(id)) + "|";
  needs.variant = variant;
  const std::string learner = variant + learnerKey(plan.learner(), plan.solver);
  if (std::holds_alternative<NonPrivate>(plan.choice)) {
    needs.baseline = learner;
  } else if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    // Output perturbation starts at the baseline; so do the perturbed problems (B, C, D) of a
    // sweep trial (sweep.h, "Reuse"). Tuning trains other λ on other rows: no shared start.
    if (startsFromBaseline(*t)) needs.baseline = learner;
    if (startsFromExactMinimizer(*t)) needs.exact = learner + "|exact";
  } else if (const auto* p = std::get_if<PrivatePrediction>(&plan.choice)) {
    if (p->options.kind == predict::PredictionKind::Sensitivity) needs.predictor = learner;
    else needs.teachers = learner + "|T" + std::to_string(p->options.teachers) + "|s" +
                          std::to_string(p->options.partitionSeed);
  } else if (const auto* m = std::get_if<Multiparty>(&plan.choice)) {
    std::string split = "|K" + std::to_string(m->options.partyCount()) + "|s" + std::to_string(m->options.partitionSeed);
    for (double f : m->options.fractions) split += "|" + exactNumber(f);
    needs.parties = variant + learnerKey(m->options.localLearner(), plan.solver) + split;
    // Measuring the bounds' quantities needs w*, the non-private reference's own model.
    if (measuresBounds(plan, control_)) needs.baseline = variant + learnerKey(plan.baselineLearner(), plan.solver);
  }
  return needs;
}

Result<DataVariant> SweepRunner::makeVariant(const TrialId& id) const {
  const double value = spec_.values[static_cast<std::size_t>(id.valueIndex)];
  const std::uint64_t seed = dataSeed(spec_, id.valueIndex, id.repeat);
  DataVariant variant = base_;
  switch (spec_.axis) {
    case SweepAxis::Rows: {
      const std::vector<Index> rows = seededSample(data_.train.rows(), static_cast<Index>(value), seed);
      variant.train = std::make_shared<const Dataset>(data_.train.subset(rows));
      return variant;
    }
    case SweepAxis::Dims: {
      // Data-independent, so private for free; the projected rows may leave the unit ball, and
      // clipping each row back to norm 1 is a per-example transform (docs/algorithms.md §0.2).
      const Eigen::MatrixXd projection =
          randomProjectionMatrix(data_.train.features(), static_cast<Index>(value), seed);
      auto project = [&](const Dataset& from) {
        auto to = std::make_shared<Dataset>();
        to->X = from.X * projection;
        applyNormBound(to->X, 1.0);
        to->y = from.y;
        to->classNames = from.classNames;
        for (Index j = 0; j < to->X.cols(); ++j) to->featureNames.push_back("p" + std::to_string(j + 1));
        to->provenance = from.provenance;
        return std::shared_ptr<const Dataset>(std::move(to));
      };
      variant.train = project(data_.train);
      variant.test = project(data_.test);
      return variant;
    }
    case SweepAxis::Classes: {
      const int classes = static_cast<int>(value);
      auto firstClasses = [&](const Dataset& from) {
        std::vector<Index> rows;
        for (Index i = 0; i < from.rows(); ++i)
          if (from.y[i] < classes) rows.push_back(i);
        Dataset to = from.subset(rows);
        to.classNames.resize(static_cast<std::size_t>(classes));
        return std::make_shared<const Dataset>(std::move(to));
      };
      variant.train = firstClasses(data_.train);
      variant.test = firstClasses(data_.test);
      if (variant.train->rows() < 2 || variant.test->rows() < 1)
        return Error{ErrorKind::BadData, "the first " + std::to_string(classes) + " classes leave too few rows",
                     {}, 0, "values"};
      return variant;
    }
    default: return variant;
  }
}

// A provider of RunReuse served from `cache` under `key`; none without a key.
template <class T>
WorkProvider<T> provider(SharedWork<T>& cache, const std::optional<std::string>& key, long long& computed) {
  if (!key) return {};
  return [&cache, &computed, key = *key](const std::function<Result<T>()>& compute) {
    return cache.get(key, compute, computed);
  };
}

// A trial runs its plan through runPlan, with the work it shares with other trials served from
// the sweep's caches (sweep.h, "Reuse") and only what the trial measures computed.
RunControl SweepRunner::runControl(const PrivacyPlan& plan, const TrialNeeds& needs) {
  RunControl control;
  control.progress = Progress({}, control_.progress.stopToken());
  control.trainBaseline = false;
  control.diagnostics = false;
  control.experimentWarmStart = true;
  RunReuse& reuse = control.reuse;
  // Multiparty's baseline is w*, the parties' learner's reference model (needsOf).
  const bool parties = std::holds_alternative<Multiparty>(plan.choice);
  (parties ? reuse.allData : reuse.baseline) = provider(baselines_, needs.baseline, work_.baselines);
  reuse.exactStart = provider(exacts_, needs.exact, work_.exactMinimizers);
  reuse.predictor = provider(predictors_, needs.predictor, work_.predictors);
  reuse.teachers = provider(teachers_, needs.teachers, work_.teacherSets);
  reuse.parties = provider(parties_, needs.parties, work_.partySets);
  return control;
}

// What a trial measured, from its run: a predictor's accuracy over a seeded sample of answered
// test rows, else the test accuracy of the release (or of the non-private model), and the
// bounded quantities where asked (trial_measures.h).
Result<TrialOutcome> SweepRunner::outcomeOf(PlanRun& run, const PrivacyPlan& plan, const TrialId& id,
                                            const RunData& data, privacy::NoiseSource& noise) {
  if (run.prediction) {
    const std::uint64_t sampleSeed = trialSeed(spec_, id) ^ 0x73616d706c65ULL;  // "sample"
    auto answered = answerTestSample(*run.prediction, data.test, noise, sampleSeed);
    if (!answered) return answered.error();
    return TrialOutcome{answered.value().accuracy(), {}};
  }
  if (!run.release) return TrialOutcome{run.baseline.testAccuracy.value_or(0), {}};
  const ModelRelease& release = *run.release;
  if (release.report.warmStarted) ++warmStarts_;
  TrialOutcome outcome{release.testAccuracy.value_or(0), {}};
  // The reference θ* (multiparty: w*) is there exactly when the trial needs it (needsOf).
  if (measuresBounds(plan, control_) && run.baseline.model.model) {
    outcome.measures = measureExcessRisk(plan.baselineLearner(), *release.model.model, release.model.theta,
                                         run.baseline.model.theta, data.train, data.test);
    if (run.multiparty) outcome.measures->distance = run.multiparty->distance;
  }
  return outcome;
}

Result<TrialRecord> SweepRunner::runTrial(const TrialId& id, const TrialNeeds& needs) {
  const auto start = Clock::now();
  const SweepSeries& series = spec_.series[static_cast<std::size_t>(id.series)];
  const double value = spec_.values[static_cast<std::size_t>(id.valueIndex)];
  const PrivacyPlan plan = trialPlan(spec_.planAt(series, value));
  TrialRecord record{id, series.key, value, trialSeed(spec_, id), 0, 0};

  auto variant = variants_.get(needs.variant, [&]() -> Result<DataVariant> {
    auto made = variantIndex(id) == 0 ? Result<DataVariant>(base_) : makeVariant(id);
    if (!made) return made;
    DataVariant withRows = std::move(made).value();
    withRows.trainRows = std::make_shared<const FeatureMatrix>(FeatureMatrix::withSparseIfWorthIt(withRows.train->X));
    return withRows;
  }, work_.dataVariants);
  if (!variant) return variant.error();
  auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, record.seed);
  if (!noise) return noise.error();
  const RunData data{*variant.value()->train, *variant.value()->test, variant.value()->trainRows};
  auto run = experiment::runPlan(plan, data, *noise.value(), runControl(plan, needs));
  if (!run) return run.error();
  auto outcome = outcomeOf(run.value(), plan, id, data, *noise.value());
  if (!outcome) return outcome.error();
  record.accuracy = outcome.value().accuracy;
  record.measures = std::move(outcome.value().measures);
  record.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return record;
}

Result<SweepResult> SweepRunner::run() {
  const auto start = Clock::now();
  SweepResult result;
  result.spec = spec_;
  const std::vector<TrialId> all = expandTrials(spec_);
  std::vector<TrialId> mine;
  const int shards = std::max(1, control_.shardCount);
  for (std::size_t i = 0; i < all.size(); ++i)
    if (static_cast<int>(i % static_cast<std::size_t>(shards)) == control_.shardIndex) mine.push_back(all[i]);
  result.totalTrials = static_cast<long long>(mine.size());

  std::vector<TrialNeeds> needs;
  needs.reserve(mine.size());
  for (const TrialId& id : mine) {
    TrialNeeds n = needsOf(id);
    variants_.want(n.variant);
    if (n.baseline) baselines_.want(*n.baseline);
    if (n.exact) exacts_.want(*n.exact);
    if (n.predictor) predictors_.want(*n.predictor);
    if (n.teachers) teachers_.want(*n.teachers);
    if (n.parties) parties_.want(*n.parties);
    needs.push_back(std::move(n));
  }

  std::vector<std::optional<TrialRecord>> finished(mine.size());
  std::atomic<long long> done{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // the first error, and one onTrial call at a time
  std::optional<Error> failure;
  const Progress& progress = control_.progress;

  auto body = [&](std::size_t i) {
    if (stop.load() || progress.cancelled()) return;
    const TrialNeeds& n = needs[i];
    // A trial that waits inside its own parallel loops must not pick up another whole trial
    // (which would hold its memory and delay it); isolation keeps stealing within the trial.
    auto record = tbb::this_task_arena::isolate([&] { return runTrial(mine[i], n); });
    variants_.release(n.variant);
    if (n.baseline) baselines_.release(*n.baseline);
    if (n.exact) exacts_.release(*n.exact);
    if (n.predictor) predictors_.release(*n.predictor);
    if (n.teachers) teachers_.release(*n.teachers);
    if (n.parties) parties_.release(*n.parties);
    if (!record) {
      if (record.error().kind == ErrorKind::Cancelled) return;
      std::lock_guard lock(mutex);
      if (!failure) failure = record.error();
      stop = true;
      return;
    }
    finished[i] = record.value();
    {
      std::lock_guard lock(mutex);
      if (control_.onTrial) control_.onTrial(record.value());
    }
    const long long count = ++done;
    progress.report(static_cast<double>(count) / static_cast<double>(std::max<std::size_t>(1, mine.size())));
  };

  const int threads = control_.threads > 0 ? control_.threads : tbb::this_task_arena::max_concurrency();
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, mine.size(), 1),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i) body(i);
                      });
  });
  if (failure) return *failure;
  for (auto& record : finished)
    if (record) result.trials.push_back(std::move(*record));
  result.cancelled = static_cast<long long>(result.trials.size()) < result.totalTrials;
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.work = work_;
  result.work.warmStarts = warmStarts_.load();
  return result;
}

double tQuantile975(Index count) {
  if (count < 2) return 0;
  boost::math::students_t_distribution<double> t(static_cast<double>(count - 1));
  return boost::math::quantile(t, 0.975);
}

std::string learnerTitle(const LearnerSpec& learner) {
  std::ostringstream out;
  out << modelKindName(learner.kind) << ", \u03bb = " << learner.lambda;
  return out.str();
}

}  // namespace

std::string dataIdentity(const PreparedData& data) {
  std::string identity = data.train.provenance.source + "|" + data.test.provenance.source;
  for (const std::string& step : data.train.provenance.steps) identity += "|" + step;
  identity += "|" + std::to_string(data.train.rows()) + "x" + std::to_string(data.train.features()) + "/" +
              std::to_string(data.test.rows());
  return identity;
}

SweepSpec withReferenceSeries(const SweepSpec& spec) {
  SweepSpec out = spec;
  std::vector<LearnerSpec> have;
  for (const SweepSeries& s : spec.series)
    if (!s.plan.isPrivate()) have.push_back(s.plan.learner());
  int added = 0;
  for (const SweepSeries& s : spec.series) {
    if (!s.plan.isPrivate()) continue;
    const LearnerSpec learner = s.plan.baselineLearner();
    if (std::find(have.begin(), have.end(), learner) != have.end()) continue;
    have.push_back(learner);
    SweepSeries reference;
    reference.key = added == 0 ? "nonprivate" : "nonprivate-" + std::to_string(added + 1);
    // Multiparty's reference is paper 004's all-data w*, whose λ is that of λ‖w‖².
    const auto* parties = std::get_if<Multiparty>(&s.plan.choice);
    reference.title = parties ? "Non-private, all data (" + learnerTitle(s.plan.learner()) + " of λ‖w‖²)"
                              : "Non-private (" + learnerTitle(learner) + ")";
    reference.plan = PrivacyPlan::nonPrivate(learner);
    reference.plan.solver = s.plan.solver;
    out.series.push_back(std::move(reference));
    ++added;
  }
  return out;
}

Result<SweepResult> runSweep(const SweepSpec& spec, const PreparedData& data, const SweepControl& control) {
  if (data.test.rows() == 0)
    return Error{ErrorKind::Usage, "a sweep measures test accuracy: it needs a test part (--test or --test-fraction > 0)",
                 {}, 0, "test-fraction"};
  if (control.shardCount < 1 || control.shardIndex < 0 || control.shardIndex >= control.shardCount)
    return Error{ErrorKind::Usage, "the shard must be K/N with 1 <= K <= N", {}, 0, "shard"};
  const SweepSpec full = withReferenceSeries(spec);
  if (auto status = full.validate({data.train.rows(), data.train.features(), data.train.classes()}); !status)
    return status.error();
  SweepRunner runner(full, data, control);
  return runner.run();
}

SweepLayout layoutOf(const SweepSpec& spec, const PreparedData* data) {
  SweepLayout layout;
  if (data && spec.axis != SweepAxis::Classes) layout.mostCommonClass = mostCommonClassAccuracy(data->test);
  layout.fingerprint = spec.fingerprint();
  // A file by its name, not its absolute path: the title has the plot's width to itself.
  layout.title = std::filesystem::path(spec.dataset).filename().string();
  if (layout.title.empty()) layout.title = spec.dataset;
  layout.axis = spec.axis;
  layout.values = spec.values;
  layout.repeats = spec.repeats;
  for (const SweepSeries& s : spec.series) layout.series.push_back({s.key, s.title, s.plan.isPrivate()});
  layout.totalTrials = static_cast<long long>(expandTrials(spec).size());
  return layout;
}

Curve summarize(const SweepLayout& spec, const std::vector<TrialRecord>& trials) {
  const std::string& dataTitle = spec.title;
  Curve curve;
  curve.axis = axisName(spec.axis);
  curve.axisTitle = axisTitle(spec.axis);
  curve.logAxis = axisIsLogScaled(spec.axis);
  curve.title = dataTitle + ": test accuracy against " + curve.axis + " (" + std::to_string(spec.repeats) +
                (spec.repeats == 1 ? " repetition)" : " repetitions)");
  curve.note = "An experiment on the data, not a private release: nothing was recorded in the privacy ledger.";
  // A non-private series on an axis that changes neither its data nor its learner is one
  // number: a reference line.
  const bool flat = !axisChangesData(spec.axis) && spec.axis != SweepAxis::Lambda;
  std::map<std::pair<int, int>, std::vector<double>> groups;
  for (const TrialRecord& t : trials) groups[{t.id.series, t.id.valueIndex}].push_back(t.accuracy);
  for (int s = 0; s < static_cast<int>(spec.series.size()); ++s) {
    const SweepLayout::Series& series = spec.series[static_cast<std::size_t>(s)];
    if (flat && !series.isPrivate) {
      double sum = 0;
      long long count = 0;
      for (const auto& [key, values] : groups)
        if (key.first == s)
          for (double v : values) sum += v, ++count;
      if (count > 0) curve.references.push_back({series.title, sum / static_cast<double>(count)});
      continue;
    }
    curve.series.push_back({series.key, series.title});
    for (int v = 0; v < static_cast<int>(spec.values.size()); ++v) {
      const auto it = groups.find({s, v});
      if (it == groups.end()) continue;
      const std::vector<double>& values = it->second;
      CurvePoint point;
      point.series = series.key;
      point.value = spec.values[static_cast<std::size_t>(v)];
      point.count = static_cast<Index>(values.size());
      double sum = 0;
      for (double x : values) sum += x;
      point.mean = sum / static_cast<double>(point.count);
      double squares = 0;
      for (double x : values) squares += (x - point.mean) * (x - point.mean);
      point.std = point.count > 1 ? std::sqrt(squares / static_cast<double>(point.count - 1)) : 0.0;
      const double half = tQuantile975(point.count) * point.std / std::sqrt(static_cast<double>(point.count));
      point.low95 = std::max(0.0, point.mean - half);
      point.high95 = std::min(1.0, point.mean + half);
      curve.points.push_back(point);
    }
  }
  // After the series' own references: the non-private line stays the first.
  if (spec.mostCommonClass) curve.references.push_back({kMostCommonClassLine, *spec.mostCommonClass});
  return curve;
}

}  // namespace dpstudio::experiment
