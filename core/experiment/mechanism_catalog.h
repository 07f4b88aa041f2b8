#pragma once
// The mechanisms dpstudio offers, as one table: what each is called (the key the CLI's
// --mechanism, bundles and the ledger use; its title and the section of the algorithms
// reference), how it is grouped and explained to people, which of the shared parameters it
// reads, and how the experiment layer treats it. Every list of mechanisms — the CLI's help
// and error messages, the GUI's Mechanism and Audit lists and their notes, the sweep's warm
// starts, PrivacyPlan's titles and keys — reads this table, so a mechanism is added here
// once and not in a dozen places the compiler does not flag. A private-training mechanism's
// entry names its implementation (mech::TrainingMechanism, core/mechanisms/
// training_mechanism.h), from which its key and title come. Plain data; no Qt.

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/mechanisms/mechanism.h"
#include "core/util/result.h"

namespace dpstudio::experiment {

// The PrivacyPlan alternative a mechanism is run as (privacy_plan.h).
enum class PlanKind { NonPrivate, Training, Prediction, Multiparty };

// How people are shown the list: section headers of the GUI's Mechanism list.
enum class MechanismGroup { Baseline, PrivateTraining, PrivatePrediction, Multiparty };
std::string groupTitle(MechanismGroup group);  // "Baselines", "Private training", …

// Which of the parameters shared by all plans a mechanism reads (the GUI shows, and the
// audit asks for, exactly these).
struct MechanismUses {
  bool delta = true;         // (ε, δ): all but multiparty aggregation, which is (ε, 0)-DP
  bool familyChoice = true;  // ℓ2-Laplace or Gaussian: not DP-SGD (Gaussian by construction),
                             // subsample-and-aggregate (exponential mechanism), multiparty
  bool budget = false;       // B answers: private prediction
  bool teachers = false;     // T teachers: subsample-and-aggregate
  bool parties = false;      // K parties: multiparty aggregation
  bool sgd = false;          // batch size, epochs, clip norm, step size: DP-SGD
  bool strongConvexity = false;  // LMGC's λ₂ (docs/algorithms.md §3 A): output perturbation
};

struct MechanismEntry {
  // A private-training mechanism (PlanKind::Training, not selection): its implementation.
  // The entry's key and title are then the implementation's (left empty here).
  mech::MechanismKind training;
  std::string key;      // "output": the CLI's --mechanism, bundles, the ledger
  std::string title;    // "Output perturbation"
  std::string section;  // "A": its section of the algorithms reference (docs/algorithms.md §3 A)
  MechanismGroup group = MechanismGroup::PrivateTraining;
  PlanKind plan = PlanKind::Training;
  std::string qualifier;  // what limits it, for the GUI list: "binary models", or empty
  std::string note;       // one line shown under the list when it is chosen
  std::string help;       // a tooltip or help paragraph: what it does, for which models
  MechanismUses uses;
  // A sweep may start its perturbed problems from the non-private minimizer (trained once
  // per learner): the mechanisms that minimize a perturbation of the baseline's objective.
  bool startsFromBaseline = false;
  bool releasesAnswers = false;  // releases answers to queries, not a model
  // Chooses the training mechanism and λ itself, privately (§3 K): a PrivacyPlan::selection.
  bool selectsMechanism = false;
};

// Every mechanism, "none" first, in the order the GUI lists them. References stay valid
// for the life of the program (addMechanism does not move the entries).
const std::deque<MechanismEntry>& mechanismCatalog();
// nullptr for an unknown key.
const MechanismEntry* findMechanism(std::string_view key);
// The private-training mechanism of a key: None for "none", nullopt for any key that is
// not a training mechanism's (selection, the predictors, multiparty, an unknown key).
std::optional<mech::MechanismKind> trainingMechanism(std::string_view key);

// Adds a training mechanism defined outside core (a plug-in, a test's mechanism) after the
// built-in ones: every list, the plan builder, the sweep, the audit and the bundle then
// offer it. Call before any other thread reads the catalogue. Refuses an entry without an
// implementation, a plan kind other than Training, or a key already taken.
Status addMechanism(MechanismEntry entry);
// "none, output, objective, … or multiparty": the keys as a sentence, for help and errors;
// `plans` limits it to those run as these plan kinds (empty: all).
std::string mechanismKeyList(const std::vector<PlanKind>& plans = {});

}  // namespace dpstudio::experiment
