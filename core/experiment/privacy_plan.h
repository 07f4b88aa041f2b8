#pragma once
// How a run is made private, as one type: the choice every front end makes (the GUI's
// Mechanism form, `dpstudio-cli train`, `sweep`) and the experiment layer runs
// (plan_run.h). Exactly one of
//
//   NonPrivate          the baseline alone;
//   TrainingMechanism   a private training mechanism (docs/algorithms.md §3 A–E), optionally with
//                       λ chosen privately among candidates (§3 H);
//   PrivatePrediction   prediction sensitivity or subsample-and-aggregate (§3 F, G);
//   Multiparty          the perturbed average of K parties' models (§3 I);
//
// so that combinations that mean nothing (a training mechanism *and* a predictor) cannot
// be written down. Each alternative holds core's own options, whose learner is the plan's.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/selection_settings.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"

namespace dpstudio::experiment {

struct NonPrivate {
  LearnerSpec learner;
  bool operator==(const NonPrivate&) const = default;
};
struct TrainingMechanism {
  mech::MechanismOptions options;   // kind ≠ None, unless `selection` is set
  std::vector<double> tuneLambdas;  // not empty: choose λ privately among these (§3 H)
  // Set: the mechanism and λ are chosen privately on all the rows (§3 K, `--mechanism auto`);
  // options give the learner and the selection's whole (ε, δ), and options.kind is None.
  std::optional<mech::SelectionSettings> selection;
  bool operator==(const TrainingMechanism&) const = default;
};
struct PrivatePrediction {
  predict::PredictionOptions options;
  bool operator==(const PrivatePrediction&) const = default;
};
struct Multiparty {
  multiparty::MultipartyOptions options;
  bool operator==(const Multiparty&) const = default;
};

// The optimizer's stopping rule for every model a plan trains (as dpstudio-cli's defaults).
struct SolverSettings {
  double tolerance = 1e-8;  // relative gradient tolerance
  int maxIterations = 3000;
  bool operator==(const SolverSettings&) const = default;
};

struct PrivacyPlan {
  std::variant<NonPrivate, TrainingMechanism, PrivatePrediction, Multiparty> choice;
  SolverSettings solver;

  static PrivacyPlan nonPrivate(const LearnerSpec& learner);
  // kind None gives nonPrivate(options.learner).
  static PrivacyPlan training(const mech::MechanismOptions& options, std::vector<double> tuneLambdas = {});
  // Private selection among mechanisms and λ (§3 K): options give the learner, ε and δ.
  static PrivacyPlan selection(const mech::MechanismOptions& options, const mech::SelectionSettings& settings);
  bool isSelection() const;
  static PrivacyPlan prediction(const predict::PredictionOptions& options);
  static PrivacyPlan multiparty(const multiparty::MultipartyOptions& options);

  bool isPrivate() const { return !std::holds_alternative<NonPrivate>(choice); }
  // The mechanism's key, as the CLI's --mechanism names it: "none", "output", "objective",
  // "loss", "dplmgc", "dpsgd", "prediction", "subsample", "multiparty", "auto".
  std::string key() const;

  // The model trained (multiparty: its model, λ of λ‖w‖² and h, as a learner spec).
  LearnerSpec learner() const;
  // For people, and a sweep's legend: "Output perturbation", "DP-SGD, Gaussian",
  // "Prediction sensitivity (as published)", "Multiparty, K = 5 even", "All data, DP".
  std::string title() const;

  // Whether the rows are divided by their RMS norm when nothing else scales them
  // (PreprocessSpec::scaleToData): for a non-private LMGC only, whose objective is not
  // scale-invariant and whose solver crawls on raw features. Reported and marked NOT private,
  // as the model itself is.
  bool scalesRowsToData() const { return !isPrivate() && learner().kind == ModelKind::Lmgc; }

  // The learner of the non-private model this plan is judged against: learner(), but for
  // multiparty the parties' own (mean scale, λ_learner = 2λ: paper 004's w*).
  LearnerSpec baselineLearner() const;
  // The same plan with another learner (model, λ, h); multiparty takes its model, λ and h.
  PrivacyPlan withLearner(const LearnerSpec& learner) const;

  // (ε, δ) the plan claims; (0, 0) without privacy. Multiparty is (ε, 0).
  double epsilon() const;
  double delta() const;
  // The same plan with another ε / δ (a sweep's axis). δ is ignored by multiparty.
  PrivacyPlan withEpsilon(double epsilon) const;
  PrivacyPlan withDelta(double delta) const;

  // Names the offending parameter, before any work (each alternative's own validate()).
  Status validate() const;
  // The noise parameters a run on data of this shape would use, without data. Multiparty
  // derives the party sizes from shape.rows (partySizes()).
  Result<mech::MechanismReport> calibrate(const mech::ProblemShape& shape) const;

  bool operator==(const PrivacyPlan&) const = default;
};

// The mechanisms a plan can be switched to, by key, in the order the GUI lists them:
// "output", "objective", "loss", "dplmgc", "dpsgd", "prediction", "subsample", "multiparty".
std::vector<std::string> privateMechanismKeys();

// `base` with the mechanism `key` instead (a key of privateMechanismKeys() or "none"): the
// same learner, solver, ε and δ (multiparty keeps ε only); the mechanism's own options are
// base's when base is of the same alternative (a training mechanism's noise family,
// calibration and DP-SGD settings; a predictor's B, T and calibration; multiparty's split),
// otherwise core's defaults. Whether the result fits the learner is validate()'s to say.
// Errors: an unknown key, naming it.
Result<PrivacyPlan> withMechanism(const PrivacyPlan& base, const std::string& key);

}  // namespace dpstudio::experiment
