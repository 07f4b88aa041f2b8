#include "core/experiment/mechanism_catalog.h"

#include <algorithm>

namespace dpstudio::experiment {
namespace {

MechanismUses usesOf(bool delta, bool familyChoice) {
  MechanismUses uses;
  uses.delta = delta;
  uses.familyChoice = familyChoice;
  return uses;
}

std::vector<MechanismEntry> buildCatalog() {
  std::vector<MechanismEntry> c;
  {
    MechanismEntry e;
    e.key = "none";
    e.title = "Non-private";
    e.section = "";
    e.group = MechanismGroup::Baseline;
    e.plan = PlanKind::NonPrivate;
    e.note = "Trains the model exactly: not differentially private. The reference every private model is "
             "measured against.";
    e.help = "The exact minimizer of the regularized loss, with no noise: the baseline.";
    e.uses = usesOf(false, false);
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "output";
    e.title = "Output perturbation";
    e.section = "A";
    e.note = "Noise on the trained parameters.";
    e.help = "Train exactly, then add noise scaled to the model's sensitivity \u0394 = 2K/(n\u03bb) (Chaudhuri et "
             "al.). Any model; \u2113\u2082-Laplace (\u03b5-DP) or Gaussian ((\u03b5, \u03b4)-DP).";
    e.startsFromBaseline = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "objective";
    e.title = "Objective perturbation";
    e.section = "B";
    e.qualifier = "binary models";
    e.note = "Noise in the objective, binary models.";
    e.help = "Add a random linear term to the objective and minimize (Chaudhuri et al. Alg. 2). Logistic "
             "regression and Huber SVM, one-vs-rest for more classes.";
    e.startsFromBaseline = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "loss";
    e.title = "Loss perturbation";
    e.section = "C";
    e.note = "Noise in the loss, linear models.";
    e.help = "A random linear term scaled to the loss's gradient bound, for softmax and the other linear models "
             "(Kifer et al.).";
    e.startsFromBaseline = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "dplmgc";
    e.title = "DP-LMGC";
    e.section = "D";
    e.note = "Noise in LMGC's loss.";
    e.help = "Loss perturbation of the large-margin Gaussian classifier (Pathak & Raj), corrected or as "
             "published.";
    e.startsFromBaseline = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "dpsgd";
    e.title = "DP-SGD";
    e.section = "E";
    e.note = "Noisy clipped gradient steps; Gaussian noise.";
    e.help = "Noisy clipped gradient steps on Poisson-sampled batches, \u03c3 calibrated by the PLD accountant. "
             "Softmax and LMGC.";
    e.uses = usesOf(true, false);
    e.uses.sgd = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "prediction";
    e.title = "Prediction sensitivity";
    e.section = "F";
    e.group = MechanismGroup::PrivatePrediction;
    e.plan = PlanKind::Prediction;
    e.note = "Releases answers, not a model: noisy scores of the non-private \u03b8*.";
    e.help = "A non-private model \u03b8* answers queries with noisy scores, each answer (\u03b5/B)-DP, for a "
             "budget of B answers (Dwork & Feldman; paper 003 Alg. 6/7). Logistic regression, Huber SVM, softmax.";
    e.uses.budget = true;
    e.releasesAnswers = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "subsample";
    e.title = "Subsample-and-aggregate";
    e.section = "G";
    e.group = MechanismGroup::PrivatePrediction;
    e.plan = PlanKind::Prediction;
    e.note = "Releases answers, not a model: a noisy vote of T teachers.";
    e.help = "T non-private teachers on disjoint parts vote; each answer is sampled by the exponential mechanism, "
             "for a budget of B answers (paper 003 Alg. 8). Any model.";
    e.uses.budget = true;
    e.uses.teachers = true;
    e.releasesAnswers = true;
    c.push_back(e);
  }
  {
    MechanismEntry e;
    e.key = "multiparty";
    e.title = "Multiparty aggregation";
    e.section = "I";
    e.group = MechanismGroup::Multiparty;
    e.plan = PlanKind::Multiparty;
    e.qualifier = "binary data";
    e.note = "K parties train locally; their average is released with noise (paper 004). Binary data; \u03bb is "
             "paper 004's, of (1/n\u2c7c)\u03a3\u2113 + \u03bb\u2016w\u2016\u00b2.";
    e.help = "K parties each train regularized logistic regression (or the Huber SVM) on their own rows; the "
             "average is released with noise calibrated to the smallest party (Pathak, Rane & Raj 2010). Binary "
             "data only.";
    e.uses = usesOf(false, false);
    e.uses.parties = true;
    c.push_back(e);
  }
  return c;
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

const std::vector<MechanismEntry>& mechanismCatalog() {
  static const std::vector<MechanismEntry> catalog = buildCatalog();
  return catalog;
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
