#include "core/experiment/privacy_plan.h"

#include <algorithm>
#include <cstdio>

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/selection.h"
#include "core/mechanisms/tuning.h"
#include "core/util/overloaded.h"

namespace dpstudio::experiment {
PrivacyPlan PrivacyPlan::nonPrivate(const LearnerSpec& learner) { return {NonPrivate{learner}, {}}; }

PrivacyPlan PrivacyPlan::training(const mech::MechanismOptions& options, std::vector<double> tuneLambdas) {
  if (options.kind == mech::MechanismKind::None) return nonPrivate(options.learner);
  return {TrainingMechanism{options, std::move(tuneLambdas), std::nullopt}, {}};
}

PrivacyPlan PrivacyPlan::selection(const mech::MechanismOptions& options, const mech::SelectionSettings& settings) {
  TrainingMechanism choice{options, {}, settings};
  choice.options.kind = mech::MechanismKind::None;
  return {choice, {}};
}

bool PrivacyPlan::isSelection() const {
  const auto* t = std::get_if<TrainingMechanism>(&choice);
  return t && t->selection;
}

PrivacyPlan PrivacyPlan::prediction(const predict::PredictionOptions& options) {
  return {PrivatePrediction{options}, {}};
}

PrivacyPlan PrivacyPlan::multiparty(const multiparty::MultipartyOptions& options) { return {Multiparty{options}, {}}; }

std::string PrivacyPlan::key() const {
  return std::visit(Overloaded{
                        [](const NonPrivate&) { return std::string("none"); },
                        [](const TrainingMechanism& t) {
                          return t.selection ? std::string("auto") : mech::mechanismName(t.options.kind);
                        },
                        [](const PrivatePrediction& p) { return predict::predictionKindName(p.options.kind); },
                        [](const Multiparty&) { return std::string("multiparty"); },
                    },
                    choice);
}

LearnerSpec PrivacyPlan::learner() const {
  return std::visit(Overloaded{
                        [](const NonPrivate& n) { return n.learner; },
                        [](const TrainingMechanism& t) { return t.options.learner; },
                        [](const PrivatePrediction& p) { return p.options.learner; },
                        [](const Multiparty& m) {
                          return LearnerSpec{m.options.model, m.options.lambda, m.options.huber};
                        },
                    },
                    choice);
}

LearnerSpec PrivacyPlan::baselineLearner() const {
  if (const auto* m = std::get_if<Multiparty>(&choice)) return m->options.localLearner();
  return learner();
}

PrivacyPlan PrivacyPlan::withLearner(const LearnerSpec& learner) const {
  PrivacyPlan plan = *this;
  std::visit(Overloaded{
                 [&](NonPrivate& n) { n.learner = learner; },
                 [&](TrainingMechanism& t) { t.options.learner = learner; },
                 [&](PrivatePrediction& p) { p.options.learner = learner; },
                 [&](Multiparty& m) {
                   m.options.model = learner.kind;
                   m.options.lambda = learner.lambda;
                   m.options.huber = learner.huber;
                 },
             },
             plan.choice);
  return plan;
}

double PrivacyPlan::epsilon() const {
  return std::visit(Overloaded{
                        [](const NonPrivate&) { return 0.0; },
                        [](const auto& private_) { return private_.options.epsilon; },
                    },
                    choice);
}

double PrivacyPlan::delta() const {
  return std::visit(Overloaded{
                        [](const NonPrivate&) { return 0.0; },
                        [](const Multiparty&) { return 0.0; },
                        [](const auto& private_) { return private_.options.delta; },
                    },
                    choice);
}

PrivacyPlan PrivacyPlan::withEpsilon(double epsilon) const {
  PrivacyPlan plan = *this;
  std::visit(Overloaded{
                 [](NonPrivate&) {},
                 [&](auto& private_) { private_.options.epsilon = epsilon; },
             },
             plan.choice);
  return plan;
}

PrivacyPlan PrivacyPlan::withDelta(double delta) const {
  PrivacyPlan plan = *this;
  std::visit(Overloaded{
                 [](NonPrivate&) {},
                 [](Multiparty&) {},
                 [&](auto& private_) { private_.options.delta = delta; },
             },
             plan.choice);
  return plan;
}

Status PrivacyPlan::validate() const {
  return std::visit(Overloaded{
                        [](const NonPrivate& n) { return n.learner.validate(); },
                        [](const TrainingMechanism& t) {
                          if (t.selection) return mech::SelectionOptions{t.options, *t.selection}.validate();
                          if (t.tuneLambdas.empty()) return t.options.validate();
                          return mech::TuningOptions{t.options, t.tuneLambdas}.validate();
                        },
                        [](const auto& private_) { return private_.options.validate(); },
                    },
                    choice);
}

Result<mech::MechanismReport> PrivacyPlan::calibrate(const mech::ProblemShape& shape) const {
  return std::visit(
      Overloaded{
          [&](const NonPrivate& n) {
            mech::MechanismOptions none;
            none.learner = n.learner;
            return mech::calibrate(none, shape);
          },
          [&](const TrainingMechanism& t) {
            if (t.selection) return mech::calibrateSelection({t.options, *t.selection}, shape);
            return mech::calibrate(t.options, shape);
          },
          [&](const PrivatePrediction& p) { return predict::calibratePrediction(p.options, shape); },
          [&](const Multiparty& m) -> Result<mech::MechanismReport> {
            auto sizes = multiparty::partySizes(shape.rows, m.options);
            if (!sizes) return sizes.error();
            const Index smallest = *std::min_element(sizes.value().begin(), sizes.value().end());
            return multiparty::calibrateMultiparty(m.options, smallest, shape.features);
          },
      },
      choice);
}

}  // namespace dpstudio::experiment

namespace dpstudio::experiment {
namespace {

std::string calibrationSuffix(mech::Calibration calibration) {
  return calibration == mech::Calibration::Published ? " (as published)" : "";
}

std::string multipartyTitle(const multiparty::MultipartyOptions& options) {
  // Paper 004's names: one party holding every row is "all data, DP".
  if (options.partyCount() == 1) return "All data, DP";
  if (options.fractions.empty()) return "Multiparty, K = " + std::to_string(options.partyCount()) + " even";
  std::string title = "Multiparty ";
  for (std::size_t i = 0; i < options.fractions.size(); ++i) {
    char buffer[24];
    std::snprintf(buffer, sizeof buffer, "%s%g", i ? "/" : "", 100 * options.fractions[i]);
    title += buffer;
  }
  return title + " %";
}

}  // namespace

std::string PrivacyPlan::title() const {
  return std::visit(
      Overloaded{
          [](const NonPrivate&) { return std::string("Non-private"); },
          [](const TrainingMechanism& t) {
            if (t.selection) return findMechanism("auto")->title;
            std::string title = findMechanism(mech::mechanismName(t.options.kind))->title;
            if (t.options.family == mech::NoiseFamily::Gaussian) title += ", Gaussian";
            if (!t.tuneLambdas.empty()) title += ", \u03bb tuned privately";
            return title + calibrationSuffix(t.options.calibration);
          },
          [](const PrivatePrediction& p) {
            const bool sensitivity = p.options.kind == predict::PredictionKind::Sensitivity;
            std::string title = findMechanism(predict::predictionKindName(p.options.kind))->title;
            if (sensitivity && p.options.family == mech::NoiseFamily::Gaussian) title += ", Gaussian";
            return title + calibrationSuffix(p.options.calibration);
          },
          [](const Multiparty& m) { return multipartyTitle(m.options) + calibrationSuffix(m.options.calibration); },
      },
      choice);
}

std::vector<std::string> privateMechanismKeys() {
  std::vector<std::string> keys;
  for (const MechanismEntry& e : mechanismCatalog())
    if (e.plan != PlanKind::NonPrivate) keys.push_back(e.key);
  return keys;
}

}  // namespace dpstudio::experiment
