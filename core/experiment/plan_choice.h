#pragma once
// The one place a PrivacyPlan is made from the choice a front end offers (docs/algorithms.md
// §3; issue 31 item 2): which mechanism — a key of core's catalogue (mechanism_catalog.h) —,
// the parameters every plan shares, and each plan kind's own options for the rest. The CLI
// (`train`, `sweep`, `audit`), the GUI's Mechanism and Audit forms, the paper presets and
// withMechanism() fill a PlanChoice and call buildPlan(); none of them decides which
// alternative a key is, copies the shared parameters into it, or validates on its own.

#include <optional>
#include <string>
#include <vector>

#include "core/experiment/privacy_plan.h"

namespace dpstudio::experiment {

struct PlanChoice {
  std::string mechanism = "none";  // a key of mechanismCatalog()
  LearnerSpec learner;             // multiparty: its model, λ (of λ‖w‖²) and h
  double epsilon = 1.0;
  double delta = 0.0;              // not read by multiparty aggregation, (ε, 0)-DP
  // Unset: the chosen kind's own options decide. A family for multiparty is refused (it has
  // one); DP-SGD's Gaussian noise is its own and it ignores the family.
  std::optional<mech::NoiseFamily> family;
  std::optional<mech::Calibration> calibration;
  // The rest of each kind's options (DP-SGD's settings, λ₂, the budget B, the teachers T,
  // the parties K or the split, partition seeds); only the chosen kind's is read.
  mech::MechanismOptions training;
  predict::PredictionOptions prediction;
  multiparty::MultipartyOptions multiparty;
  // A training mechanism's private choice of λ (§3 H); private selection's λ grid (§3 K).
  std::vector<double> tuneLambdas;
  mech::SelectionSettings selection;  // private selection's run law (its lambdas: tuneLambdas)
  SolverSettings solver;
};

// The plan of `choice`, not yet validated (a form shows what validate() refuses). Errors:
// an unknown mechanism (field "mechanism", the keys listed), a noise family for multiparty
// (field "distribution").
Result<PrivacyPlan> assemblePlan(const PlanChoice& choice);
// assemblePlan(), then PrivacyPlan::validate(): every error names its field.
Result<PrivacyPlan> buildPlan(const PlanChoice& choice);

// The choice a plan was built from: buildPlan(choiceOf(plan)) gives the plan back. The
// kinds the plan is not keep their defaults, so another key keeps only what all share.
PlanChoice choiceOf(const PrivacyPlan& plan);

}  // namespace dpstudio::experiment
