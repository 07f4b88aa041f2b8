#include "core/experiment/plan_choice.h"

#include "core/experiment/mechanism_catalog.h"

namespace dpstudio::experiment {
namespace {

// A training mechanism's or a predictor's options with the choice's shared parameters.
template <typename Options>
Options withShared(Options options, const PlanChoice& choice) {
  options.learner = choice.learner;
  options.epsilon = choice.epsilon;
  options.delta = choice.delta;
  if (choice.family) options.family = *choice.family;
  if (choice.calibration) options.calibration = *choice.calibration;
  return options;
}

}  // namespace

Result<PrivacyPlan> assemblePlan(const PlanChoice& choice) {
  const MechanismEntry* entry = findMechanism(choice.mechanism);
  if (!entry)
    return Error{ErrorKind::Usage, "unknown mechanism '" + choice.mechanism + "' (" + mechanismKeyList() + ")", {}, 0,
                 "mechanism"};
  PrivacyPlan plan;
  switch (entry->plan) {
    case PlanKind::NonPrivate: plan = PrivacyPlan::nonPrivate(choice.learner); break;
    case PlanKind::Training: {
      mech::MechanismOptions o = withShared(choice.training, choice);
      if (entry->selectsMechanism) {
        mech::SelectionSettings settings = choice.selection;
        settings.lambdas = choice.tuneLambdas;
        plan = PrivacyPlan::selection(o, settings);
        break;
      }
      o.kind = entry->training;
      plan = PrivacyPlan::training(o, choice.tuneLambdas);
      break;
    }
    case PlanKind::Prediction: {
      predict::PredictionOptions o = withShared(choice.prediction, choice);
      o.kind = *predict::parsePredictionKind(entry->key);
      plan = PrivacyPlan::prediction(o);
      break;
    }
    case PlanKind::Multiparty: {
      if (choice.family)
        return Error{ErrorKind::Usage, "multiparty aggregation has one noise family (l2-laplace)", {}, 0,
                     "distribution"};
      multiparty::MultipartyOptions o = choice.multiparty;
      o.model = choice.learner.kind;
      o.lambda = choice.learner.lambda;
      o.huber = choice.learner.huber;
      o.epsilon = choice.epsilon;
      if (choice.calibration) o.calibration = *choice.calibration;
      plan = PrivacyPlan::multiparty(o);
      break;
    }
  }
  plan.solver = choice.solver;
  return plan;
}

Result<PrivacyPlan> buildPlan(const PlanChoice& choice) {
  auto plan = assemblePlan(choice);
  if (!plan) return plan;
  if (auto status = plan.value().validate(); !status) return status.error();
  return plan;
}

PlanChoice choiceOf(const PrivacyPlan& plan) {
  PlanChoice choice;
  choice.mechanism = plan.key();
  choice.learner = plan.learner();
  choice.solver = plan.solver;
  if (plan.isPrivate()) {
    choice.epsilon = plan.epsilon();
    choice.delta = plan.delta();
  }
  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    choice.training = t->options;
    choice.tuneLambdas = t->tuneLambdas;
    if (t->selection) {
      choice.selection = *t->selection;
      choice.tuneLambdas = t->selection->lambdas;
    }
  } else if (const auto* p = std::get_if<PrivatePrediction>(&plan.choice)) {
    choice.prediction = p->options;
  } else if (const auto* m = std::get_if<Multiparty>(&plan.choice)) {
    choice.multiparty = m->options;
  }
  return choice;
}

Result<PrivacyPlan> withMechanism(const PrivacyPlan& base, const std::string& key) {
  PlanChoice choice = choiceOf(base);
  choice.mechanism = key;
  return assemblePlan(choice);
}

}  // namespace dpstudio::experiment
