#include "core/experiment/mechanism_catalog.h"

#include <algorithm>

#include "core/mechanisms/training_mechanism.h"

namespace dpstudio::experiment {
namespace {

using G = MechanismGroup;
using P = PlanKind;

// What each mechanism reads of the shared parameters: training mechanisms (ε, δ, family),
// DP-SGD (Gaussian by construction), the predictors (+ B; subsample + T), multiparty (ε, K).
constexpr MechanismUses kTraining{};
constexpr MechanismUses kOutput{.strongConvexity = true};
constexpr MechanismUses kNone{.delta = false, .familyChoice = false};
constexpr MechanismUses kSelection{.familyChoice = false};
constexpr MechanismUses kSgd{.familyChoice = false, .sgd = true};
constexpr MechanismUses kSensitivity{.budget = true};
// Subsample-and-aggregate samples by the exponential mechanism: no noise family to choose.
constexpr MechanismUses kSubsample{.familyChoice = false, .budget = true, .teachers = true};
constexpr MechanismUses kParties{.delta = false, .familyChoice = false, .parties = true};

std::deque<MechanismEntry> builtInCatalog() {
  return {
      {.key = "none", .title = "Non-private", .group = G::Baseline, .plan = P::NonPrivate,
       .note = "Trains the model exactly: not differentially private. The reference every private model is "
               "measured against.",
       .help = "The exact minimizer of the regularized loss, with no noise: the baseline.", .uses = kNone},
      {.key = "auto", .title = "Private selection", .section = "K",
       .note = "Chooses the mechanism and \u03bb privately; every candidate trains on all the rows.",
       .help = "Runs randomly chosen candidates (each training mechanism that fits the model, with a few \u03bb; "
               "DP-SGD too when \u03b4 > 0) a random number of times and releases the run with the best noisy "
               "training accuracy (Liu & Talwar; Papernot & Steinke). The whole selection spends the \u03b5 and "
               "\u03b4 given.",
       .uses = kSelection, .selectsMechanism = true},
      {.training = mech::MechanismKind::Output, .section = "A",
       .note = "Noise on the trained parameters.",
       .help = "Train exactly, then add noise scaled to the model's sensitivity \u0394 = 2K/(n\u03bb) (Chaudhuri "
               "et al.). Any model; \u2113\u2082-Laplace (\u03b5-DP) or Gaussian ((\u03b5, \u03b4)-DP).",
       .uses = kOutput, .startsFromBaseline = true},
      {.training = mech::MechanismKind::Objective, .section = "B", .qualifier = "binary models",
       .note = "Noise in the objective, binary models.",
       .help = "Add a random linear term to the objective and minimize (Chaudhuri et al. Alg. 2). Logistic "
               "regression and Huber SVM, one-vs-rest for more classes.",
       .uses = kTraining, .startsFromBaseline = true},
      {.training = mech::MechanismKind::Loss, .section = "C", .note = "Noise in the loss, linear models.",
       .help = "A random linear term scaled to the loss's gradient bound, for softmax and the other linear models "
               "(Kifer et al.).",
       .uses = kTraining, .startsFromBaseline = true},
      {.training = mech::MechanismKind::DpLmgc, .section = "D", .note = "Noise in LMGC's loss.",
       .help = "Loss perturbation of the large-margin Gaussian classifier (Pathak & Raj), corrected or as "
               "published.",
       .uses = kTraining, .startsFromBaseline = true},
      {.training = mech::MechanismKind::DpSgd, .section = "E", .note = "Noisy clipped gradient steps; Gaussian noise.",
       .help = "Noisy clipped gradient steps on Poisson-sampled batches, \u03c3 calibrated by the PLD accountant. "
               "Any model.",
       .uses = kSgd},
      {.key = "prediction", .title = "Prediction sensitivity", .section = "F", .group = G::PrivatePrediction,
       .plan = P::Prediction, .note = "Releases answers, not a model: noisy scores of the non-private \u03b8*.",
       .help = "A non-private model \u03b8* answers queries with noisy scores, each answer (\u03b5/B)-DP, for a "
               "budget of B answers (Dwork & Feldman; paper 003 Alg. 6/7). Logistic regression, Huber SVM, "
               "softmax.",
       .uses = kSensitivity, .releasesAnswers = true},
      {.key = "subsample", .title = "Subsample-and-aggregate", .section = "G", .group = G::PrivatePrediction,
       .plan = P::Prediction, .note = "Releases answers, not a model: a noisy vote of T teachers.",
       .help = "T non-private teachers on disjoint parts vote; each answer is sampled by the exponential "
               "mechanism, for a budget of B answers (paper 003 Alg. 8). Any model.",
       .uses = kSubsample, .releasesAnswers = true},
      {.key = "multiparty", .title = "Multiparty aggregation", .section = "I", .group = G::Multiparty,
       .plan = P::Multiparty, .qualifier = "binary data",
       .note = "K parties train locally; their average is released with noise (paper 004). Binary data; \u03bb "
               "is paper 004's, of (1/n\u2c7c)\u03a3\u2113 + \u03bb\u2016w\u2016\u00b2.",
       .help = "K parties each train regularized logistic regression (or the Huber SVM) on their own rows; the "
               "average is released with noise calibrated to the smallest party (Pathak, Rane & Raj 2010). "
               "Binary data only.",
       .uses = kParties},
  };
}

std::string sentenceTitle(std::string title) {
  if (!title.empty() && title[0] >= 'a' && title[0] <= 'z') title[0] = static_cast<char>(title[0] - 'a' + 'A');
  return title;
}

// A training entry's key and title are its implementation's.
MechanismEntry completed(MechanismEntry entry) {
  if (!entry.training.isNone()) {
    entry.key = entry.training.mechanism().key();
    entry.title = sentenceTitle(entry.training.mechanism().title());
  }
  return entry;
}

std::deque<MechanismEntry>& catalogStorage() {
  static std::deque<MechanismEntry> catalog = [] {
    std::deque<MechanismEntry> entries;
    for (MechanismEntry& e : builtInCatalog()) entries.push_back(completed(std::move(e)));
    return entries;
  }();
  return catalog;
}

}  // namespace

std::string groupTitle(MechanismGroup group) {
  switch (group) {
    case MechanismGroup::Baseline: return "Baselines";
    case MechanismGroup::PrivateTraining: return "Private training";
    case MechanismGroup::PrivatePrediction: return "Private prediction";
    case MechanismGroup::Multiparty: return "Multiparty";
  }
  return {};
}

const std::deque<MechanismEntry>& mechanismCatalog() { return catalogStorage(); }

Status addMechanism(MechanismEntry entry) {
  const auto refuse = [](const std::string& message) { return Error{ErrorKind::Usage, message, {}, 0, "mechanism"}; };
  if (entry.training.isNone() || entry.plan != PlanKind::Training || entry.selectsMechanism)
    return refuse("an added mechanism is a private-training mechanism with its implementation");
  entry = completed(std::move(entry));
  if (entry.key.empty() || findMechanism(entry.key)) return refuse("the mechanism key '" + entry.key + "' is taken");
  if (entry.note.empty() || entry.help.empty()) return refuse("the mechanism '" + entry.key + "' needs a note and help");
  catalogStorage().push_back(std::move(entry));
  return Ok{};
}

std::optional<mech::MechanismKind> trainingMechanism(std::string_view key) {
  if (key == "none") return mech::MechanismKind::None;
  const MechanismEntry* entry = findMechanism(key);
  if (!entry || entry->training.isNone()) return std::nullopt;
  return entry->training;
}

const MechanismEntry* findMechanism(std::string_view key) {
  const auto& catalog = mechanismCatalog();
  auto it = std::find_if(catalog.begin(), catalog.end(), [&](const MechanismEntry& e) { return e.key == key; });
  return it == catalog.end() ? nullptr : &*it;
}

std::string mechanismKeyList(const std::vector<PlanKind>& plans) {
  std::vector<std::string> keys;
  for (const MechanismEntry& e : mechanismCatalog())
    if (plans.empty() || std::find(plans.begin(), plans.end(), e.plan) != plans.end()) keys.push_back(e.key);
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += i + 1 == keys.size() ? " or " : ", ";
    out += keys[i];
  }
  return out;
}

}  // namespace dpstudio::experiment
