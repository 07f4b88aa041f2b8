#pragma once
// Shared set-up of the sweep tests: built-in data with every row scaled to unit norm (a
// per-example transform, no privacy cost), and the plans the sweeps run. Two well-separated
// Gaussian blobs in 10 dimensions, 2 800 training rows: enough rows that the mechanisms'
// noise at ε = 10 leaves the non-private accuracy (≈ 0.91) nearly intact and at ε = 0.01
// does not.

#include "core/sources/builtin.h"
#include "core/experiment/sweep.h"
#include "tests/common/test_support.h"

namespace dpstudio::test {

inline PreparedData unitRowData(const std::string& name, double testFraction = 0.3) {
  SplitAndPreprocess settings;
  settings.testFraction = testFraction;
  settings.splitSeed = 7;
  settings.preprocess.unitRows = true;
  return orDie(prepareLoaded(orDie(loadBuiltin(name)), std::nullopt, settings));
}

inline PreparedData blobs() { return unitRowData("blobs:classes=2,dim=10,separation=2,per_class=2000"); }

inline experiment::SweepSeries series(const std::string& key, const experiment::PrivacyPlan& plan) {
  return {key, key, plan};
}

inline experiment::PrivacyPlan outputPlan(ModelKind model, double lambda = 1e-2) {
  mech::MechanismOptions o;
  o.kind = mech::MechanismKind::Output;
  o.learner = {model, lambda, 0.5};
  return experiment::PrivacyPlan::training(o);
}

inline experiment::PrivacyPlan objectivePlan(double lambda = 1e-2) {
  mech::MechanismOptions o;
  o.kind = mech::MechanismKind::Objective;
  o.learner = {ModelKind::LogisticRegression, lambda, 0.5};
  return experiment::PrivacyPlan::training(o);
}

inline experiment::PrivacyPlan predictionPlan(predict::PredictionKind kind, ModelKind model, long long budget,
                                              Index teachers = 8) {
  predict::PredictionOptions o;
  o.kind = kind;
  o.learner = {model, 1e-2, 0.5};
  o.budget = budget;
  o.teachers = teachers;
  return experiment::PrivacyPlan::prediction(o);
}

// Trials as comparable values: everything but the wall-clock seconds.
inline std::vector<std::tuple<int, int, int, std::uint64_t, double>> comparable(
    const std::vector<experiment::TrialRecord>& trials) {
  std::vector<std::tuple<int, int, int, std::uint64_t, double>> out;
  for (const auto& t : trials) out.emplace_back(t.id.series, t.id.valueIndex, t.id.repeat, t.seed, t.accuracy);
  return out;
}

}  // namespace dpstudio::test
