#include "ui/privacy/audit_settings.h"

#include <QObject>

#include "core/experiment/mechanism_catalog.h"
#include "core/experiment/plan_choice.h"

namespace dpstudio::ui {
namespace {

const experiment::MechanismEntry* catalogued(const QString& key) { return experiment::findMechanism(key.toStdString()); }

bool uses(const QString& key, bool experiment::MechanismUses::*what) {
  const experiment::MechanismEntry* e = catalogued(key);
  return e && e->uses.*what;
}

// Settings core accepts for every mechanism but the one rule probed.
AuditSettings probe(const QString& mechanism, ModelKind model) {
  AuditSettings s;
  s.mechanism = mechanism;
  s.model = model;
  s.delta = auditUsesDelta(mechanism) ? 1e-5 : 0.0;  // DP-SGD and Gaussian noise need δ > 0
  return s;
}

bool accepted(const AuditSettings& s) { return static_cast<bool>(s.validate()); }

}  // namespace

experiment::PrivacyPlan AuditSettings::plan() const {
  experiment::PlanChoice choice;
  choice.mechanism = mechanism.toStdString();
  choice.learner = LearnerSpec{model, lambda, huber};
  choice.epsilon = epsilon;
  choice.delta = delta;
  if (uses(mechanism, &experiment::MechanismUses::familyChoice)) choice.family = family;
  choice.calibration = calibration;
  choice.training.sgd.batchSize = batchSize;
  choice.training.sgd.epochs = epochs;
  choice.prediction.budget = budget;
  choice.prediction.teachers = teachers;
  choice.multiparty.parties = parties;
  // The form offers only catalogued keys and no family for multiparty: nothing to refuse.
  auto plan = experiment::assemblePlan(choice);
  return plan ? std::move(plan).value() : experiment::PrivacyPlan::nonPrivate(choice.learner);
}

Result<audit::AuditOptions> AuditSettings::options() const {
  return experiment::auditOptionsFor(plan(), trials, seed);
}

Status AuditSettings::validate() const {
  auto o = options();
  if (!o) return o.error();
  return Ok{};
}

QStringList auditMechanisms() {
  QStringList keys;
  // Private selection is audited through its candidates (auditOptionsFor refuses it).
  for (const std::string& key : experiment::privateMechanismKeys())
    if (!experiment::findMechanism(key)->selectsMechanism) keys << QString::fromStdString(key);
  return keys;
}

QString auditMechanismTitle(const QString& key) {
  const experiment::MechanismEntry* e = catalogued(key);
  if (!e) return key;
  return QStringLiteral("%1 (%2)").arg(QString::fromStdString(e->title), QString::fromStdString(e->section));
}

QString auditMechanismHelp(const QString& key) {
  const experiment::MechanismEntry* e = catalogued(key);
  return e ? QString::fromStdString(e->help) : QString();
}

bool auditAcceptsModel(const QString& mechanism, ModelKind model) { return accepted(probe(mechanism, model)); }

bool auditOffersGaussian(const QString& mechanism, ModelKind model) {
  // DP-SGD's noise is Gaussian by construction and multiparty aggregation has no family to
  // choose: core would not object to the setting, but it would mean nothing.
  const experiment::MechanismEntry* e = catalogued(mechanism);
  if (!e || !e->uses.familyChoice) return false;
  AuditSettings s = probe(mechanism, model);
  s.family = mech::NoiseFamily::Gaussian;
  return accepted(s);
}

bool auditOffersPublished(const QString& mechanism, ModelKind model) {
  AuditSettings s = probe(mechanism, model);
  s.calibration = mech::Calibration::Published;
  return accepted(s);
}

bool auditUsesDelta(const QString& mechanism) { return uses(mechanism, &experiment::MechanismUses::delta); }
bool auditUsesBudget(const QString& mechanism) { return uses(mechanism, &experiment::MechanismUses::budget); }
bool auditUsesTeachers(const QString& mechanism) { return uses(mechanism, &experiment::MechanismUses::teachers); }
bool auditUsesParties(const QString& mechanism) { return uses(mechanism, &experiment::MechanismUses::parties); }
bool auditUsesSgd(const QString& mechanism) { return uses(mechanism, &experiment::MechanismUses::sgd); }

}  // namespace dpstudio::ui
