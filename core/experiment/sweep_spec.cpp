#include "core/experiment/sweep_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "core/util/number_text.h"

namespace dpstudio::experiment {
namespace {

struct AxisInfo {
  SweepAxis axis;
  const char* name;
  const char* title;
  bool log;
  bool changesData;
  bool integer;
};

constexpr AxisInfo kAxes[] = {
    {SweepAxis::Epsilon, "epsilon", "Privacy parameter \u03b5", true, false, false},
    {SweepAxis::Budget, "budget", "Inference budget B (answers)", true, false, true},
    {SweepAxis::Delta, "delta", "Privacy parameter \u03b4", true, false, false},
    {SweepAxis::Rows, "n", "Training rows n", true, true, true},
    {SweepAxis::Dims, "dims", "Dimension D after random projection", false, true, true},
    {SweepAxis::Classes, "classes", "Classes C", false, true, true},
    {SweepAxis::Lambda, "lambda", "Regularization \u03bb", true, false, false},
    {SweepAxis::Teachers, "teachers", "Teachers T", true, false, true},
    {SweepAxis::Parties, "parties", "Parties K", false, false, true},
};

const AxisInfo& info(SweepAxis axis) {
  for (const AxisInfo& a : kAxes)
    if (a.axis == axis) return a;
  return kAxes[0];
}

Error invalid(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}
Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

// splitmix64: a well-mixed 64-bit hash step (Steele, Lea & Flood 2014).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t hashText(const std::string& text) {  // FNV-1a, then mixed
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return mix(h);
}

void describeLearner(std::ostringstream& out, const LearnerSpec& learner) {
  out << "learner=" << modelKindName(learner.kind) << "," << exactNumber(learner.lambda) << ","
      << exactNumber(learner.huber) << ";";
}

// DP-SGD's heavy-ball β when given (the schedule's follows from the rest of the key).
std::string momentumKey(const mech::MechanismOptions& o) {
  return o.kind == mech::MechanismKind::DpSgd && o.sgd.momentum ? ",momentum=" + exactNumber(*o.sgd.momentum)
                                                                 : std::string();
}

// Every field of a plan, canonically: what the fingerprint hashes.
std::string describePlan(const PrivacyPlan& plan) {
  std::ostringstream out;
  out << "plan=" << plan.key() << ";solver=" << exactNumber(plan.solver.tolerance) << "," << plan.solver.maxIterations
      << ";";
  describeLearner(out, plan.learner());
  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    const mech::MechanismOptions& o = t->options;
    out << "eps=" << exactNumber(o.epsilon) << ";delta=" << exactNumber(o.delta)
        << ";family=" << noiseFamilyName(o.family) << ";cal=" << calibrationName(o.calibration)
        << ";l2=" << exactNumber(o.lmgcStrongConvexity) << ";sgd=" << o.sgd.batchSize << ","
        << exactNumber(o.sgd.clipNorm) << "," << exactNumber(o.sgd.epochs) << ","
        << (o.sgd.learningRate ? exactNumber(*o.sgd.learningRate) : std::string("auto"))
        << "," << (o.sgd.noiseMultiplier ? exactNumber(*o.sgd.noiseMultiplier) : "auto")
        << (o.kind == mech::MechanismKind::DpSgd && o.sgd.scheduleFromProblem ? ",scheduled" : "")
        << momentumKey(o) << ";tune=";
    for (double lambda : t->tuneLambdas) out << exactNumber(lambda) << ",";
    if (t->selection) {
      out << ";select=" << exactNumber(t->selection->meanRuns) << ","
          << (t->selection->law == mech::RunLaw::Geometric ? "geometric" : "logarithmic") << ",";
      for (double lambda : t->selection->lambdas) out << exactNumber(lambda) << ",";
    }
  } else if (const auto* p = std::get_if<PrivatePrediction>(&plan.choice)) {
    const predict::PredictionOptions& o = p->options;
    out << "eps=" << exactNumber(o.epsilon) << ";delta=" << exactNumber(o.delta) << ";budget=" << o.budget
        << ";teachers=" << o.teachers << ";family=" << noiseFamilyName(o.family)
        << ";cal=" << calibrationName(o.calibration) << ";partition=" << o.partitionSeed;
  } else if (const auto* m = std::get_if<Multiparty>(&plan.choice)) {
    const multiparty::MultipartyOptions& o = m->options;
    out << "eps=" << exactNumber(o.epsilon) << ";parties=" << o.parties << ";fractions=";
    for (double f : o.fractions) out << exactNumber(f) << ",";
    out << ";cal=" << calibrationName(o.calibration) << ";partition=" << o.partitionSeed
        << ";alldata=" << o.allDataBaseline;
  }
  return out.str();
}

bool isInteger(double v) { return std::isfinite(v) && v == std::floor(v); }

}  // namespace

std::string axisName(SweepAxis axis) { return info(axis).name; }
std::string axisTitle(SweepAxis axis) { return info(axis).title; }
bool axisIsLogScaled(SweepAxis axis) { return info(axis).log; }
bool axisChangesData(SweepAxis axis) { return info(axis).changesData; }
bool axisIsInteger(SweepAxis axis) { return info(axis).integer; }

std::optional<SweepAxis> parseAxis(const std::string& name) {
  for (const AxisInfo& a : kAxes)
    if (name == a.name) return a.axis;
  if (name == "rows") return SweepAxis::Rows;
  return std::nullopt;
}

std::vector<double> defaultAxisValues(SweepAxis axis, const mech::ProblemShape& shape) {
  const double rows = static_cast<double>(std::max<Index>(shape.rows, 2));
  std::vector<double> values;
  // Distinct integers among `candidates` within [low, high], ascending; `high` when none is.
  const auto integers = [&values](std::vector<double> candidates, double low, double high) {
    for (double c : candidates) {
      const double v = std::floor(c);
      if (v >= low && v <= high && (values.empty() || v > values.back())) values.push_back(v);
    }
    if (values.empty()) values.push_back(std::max(low, std::floor(high)));
  };
  switch (axis) {
    case SweepAxis::Epsilon: return {0.1, 0.3, 1, 3, 10};
    case SweepAxis::Delta: return {1e-8, 1e-6, 1e-4, 1e-2};
    case SweepAxis::Lambda: return {1e-4, 1e-3, 1e-2, 1e-1};
    case SweepAxis::Budget: return {1, 10, 100, 1000};
    case SweepAxis::Rows: integers({rows / 16, rows / 8, rows / 4, rows / 2, rows}, 2, rows); break;
    case SweepAxis::Dims: {
      const double d = static_cast<double>(std::max<Index>(shape.features, 1));
      integers({1, 2, 5, 10, 20, 50, 100, 200, d}, 1, d);
      break;
    }
    case SweepAxis::Classes:
      for (Index c = 2; c <= std::max<Index>(shape.classes, 2); ++c) values.push_back(static_cast<double>(c));
      break;
    case SweepAxis::Teachers: integers({4, 16, 64, 256}, 1, std::max(1.0, rows / 2)); break;
    case SweepAxis::Parties: integers({1, 2, 5, 10, 20}, 1, std::max(1.0, rows / 2)); break;
  }
  return values;
}

PrivacyPlan SweepSpec::planAt(const SweepSeries& of, double value) const {
  const PrivacyPlan& plan = of.plan;
  switch (axis) {
    case SweepAxis::Epsilon: return plan.withEpsilon(value);
    case SweepAxis::Delta: return plan.withDelta(value);
    case SweepAxis::Lambda: {
      LearnerSpec learner = plan.learner();
      learner.lambda = value;
      return plan.withLearner(learner);
    }
    // The options are copied out and a new plan built from them: editing a copy of the plan
    // through get_if drew GCC 12's -Wmaybe-uninitialized (a false positive in std::variant).
    case SweepAxis::Budget:
    case SweepAxis::Teachers: {
      const auto* p = std::get_if<PrivatePrediction>(&plan.choice);
      if (!p) return plan;
      predict::PredictionOptions options = p->options;
      if (axis == SweepAxis::Budget) options.budget = static_cast<long long>(value);
      else options.teachers = static_cast<Index>(value);
      PrivacyPlan changed = PrivacyPlan::prediction(options);
      changed.solver = plan.solver;
      return changed;
    }
    case SweepAxis::Parties: {
      const auto* m = std::get_if<Multiparty>(&plan.choice);
      if (!m) return plan;
      multiparty::MultipartyOptions options = m->options;
      options.parties = static_cast<Index>(value);
      options.fractions.clear();
      PrivacyPlan changed = PrivacyPlan::multiparty(options);
      changed.solver = plan.solver;
      return changed;
    }
    case SweepAxis::Rows:
    case SweepAxis::Dims:
    case SweepAxis::Classes: return plan;
  }
  return plan;
}

Status SweepSpec::validate(const mech::ProblemShape& shape) const {
  if (series.empty()) return usage("a sweep needs at least one mechanism", "mechanisms");
  std::set<std::string> keys;
  for (const SweepSeries& s : series)
    if (!keys.insert(s.key).second) return usage("mechanism '" + s.key + "' is listed twice", "mechanisms");
  if (repeats < 1) return usage("repeats must be >= 1, found " + std::to_string(repeats), "repeats");
  if (values.empty()) return usage("a sweep needs at least one value", "values");
  const std::string name = axisName(axis);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    const std::string where = " (value " + std::to_string(i + 1) + " of --values, axis " + name + ")";
    if (!std::isfinite(v)) return invalid("values must be finite, found " + exactNumber(v) + where, "values");
    if (axisIsInteger(axis) && !isInteger(v))
      return usage("values of axis " + name + " must be integers, found " + exactNumber(v) + where, "values");
    switch (axis) {
      case SweepAxis::Epsilon:
        if (v <= 0) return invalid("epsilon must be > 0, found " + exactNumber(v) + where, "values");
        break;
      case SweepAxis::Delta:
        if (v < 0 || v >= 1) return invalid("delta must be in [0, 1), found " + exactNumber(v) + where, "values");
        break;
      case SweepAxis::Lambda:
        if (v <= 0) return invalid("lambda must be > 0, found " + exactNumber(v) + where, "values");
        break;
      case SweepAxis::Budget:
        if (v < 1) return invalid("the budget B must be >= 1, found " + exactNumber(v) + where, "values");
        break;
      case SweepAxis::Teachers:
        if (v < 1 || v > static_cast<double>(shape.rows))
          return invalid("teachers T must be in [1, n = " + std::to_string(shape.rows) + "], found " + exactNumber(v) +
                             where, "values");
        break;
      case SweepAxis::Parties:
        if (v < 1 || v > static_cast<double>(shape.rows))
          return invalid("parties K must be in [1, n = " + std::to_string(shape.rows) + "], found " + exactNumber(v) +
                             where, "values");
        break;
      case SweepAxis::Rows:
        if (v < 2 || v > static_cast<double>(shape.rows))
          return usage("n must be in [2, " + std::to_string(shape.rows) + "] (the training rows), found " +
                           exactNumber(v) + where, "values");
        break;
      case SweepAxis::Dims:
        if (v < 1) return usage("dims must be >= 1, found " + exactNumber(v) + where, "values");
        break;
      case SweepAxis::Classes:
        if (v < 2 || v > static_cast<double>(shape.classes))
          return usage("classes must be in [2, " + std::to_string(shape.classes) + "], found " + exactNumber(v) + where,
                       "values");
        break;
    }
  }
  // The budget B is a predictor's: a released model (a training mechanism, multiparty) leaks the
  // same whatever the number of answers, so it is a horizontal line on that axis (paper 003
  // Fig. 2) — but a budget axis needs at least one series it moves.
  const auto isPredictor = [](const SweepSeries& s) { return std::holds_alternative<PrivatePrediction>(s.plan.choice); };
  if (axis == SweepAxis::Budget && std::none_of(series.begin(), series.end(), isPredictor))
    return usage("axis budget moves no series: only prediction and subsample have a budget (a released model is a "
                 "horizontal line on it)",
                 "axis");
  for (const SweepSeries& s : series) {
    const bool predictor = isPredictor(s);
    const bool subsample =
        predictor && std::get<PrivatePrediction>(s.plan.choice).options.kind == predict::PredictionKind::Subsample;
    const bool parties = std::holds_alternative<Multiparty>(s.plan.choice);
    const bool applies = !s.plan.isPrivate() || (axis == SweepAxis::Teachers && subsample) ||
                         (axis == SweepAxis::Parties && parties) || (axis == SweepAxis::Delta && !parties) ||
                         (axis != SweepAxis::Teachers && axis != SweepAxis::Parties && axis != SweepAxis::Delta);
    if (!applies)
      return usage("axis " + name + " does not apply to mechanism '" + s.key + "'" +
                       (axis == SweepAxis::Teachers ? " (only subsample has teachers)"
                        : axis == SweepAxis::Parties  ? " (only multiparty has parties)"
                                                      : " (multiparty is (epsilon, 0)-DP)"),
                   "axis");
    for (std::size_t i = 0; i < values.size(); ++i) {
      const PrivacyPlan plan = planAt(s, values[i]);
      if (auto status = plan.validate(); !status) {
        Error error = status.error();
        error.message = "mechanism '" + s.key + "' at " + name + " = " + exactNumber(values[i]) + ": " + error.message;
        return error;
      }
    }
  }
  return Ok{};
}

std::string SweepSpec::fingerprint() const {
  std::ostringstream out;
  out << "dpstudio-sweep-1;data=" << dataset << ";axis=" << axisName(axis) << ";repeats=" << repeats
      << ";seed=" << seed << ";values=";
  for (double v : values) out << exactNumber(v) << ",";
  for (const SweepSeries& s : series) out << "|series=" << s.key << ";" << describePlan(s.plan);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hashText(out.str())));
  return hex;
}

std::vector<TrialId> expandTrials(const SweepSpec& spec) {
  std::vector<TrialId> trials;
  trials.reserve(spec.values.size() * static_cast<std::size_t>(std::max(spec.repeats, 0)) * spec.series.size());
  for (int v = 0; v < static_cast<int>(spec.values.size()); ++v)
    for (int r = 0; r < spec.repeats; ++r)
      for (int s = 0; s < static_cast<int>(spec.series.size()); ++s) trials.push_back({s, v, r});
  return trials;
}

std::uint64_t trialSeed(const SweepSpec& spec, const TrialId& id) {
  std::uint64_t h = mix(spec.seed ^ 0x747269616cULL);  // "trial"
  h = mix(h ^ hashText(spec.series[static_cast<std::size_t>(id.series)].key));
  h = mix(h ^ static_cast<std::uint64_t>(id.valueIndex));
  return mix(h ^ (static_cast<std::uint64_t>(id.repeat) << 20));
}

std::uint64_t dataSeed(const SweepSpec& spec, int valueIndex, int repeat) {
  std::uint64_t h = mix(spec.seed ^ 0x64617461ULL);  // "data"
  h = mix(h ^ static_cast<std::uint64_t>(valueIndex));
  return mix(h ^ (static_cast<std::uint64_t>(repeat) << 20));
}

}  // namespace dpstudio::experiment
