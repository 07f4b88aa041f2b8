#pragma once
// Shared set-up of the sweep tests: breast_cancer scaled into the unit ball (the norm bound
// is public: R = max row norm of the shipped file is not used, rows are scaled per example)
// and small sweeps over it.

#include "core/data/builtin.h"
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
