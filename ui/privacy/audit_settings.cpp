#include "ui/privacy/audit_settings.h"

#include <QObject>

namespace dpstudio::ui {
namespace {

std::optional<mech::MechanismKind> trainingKind(const QString& key) {
  if (key == QLatin1String("prediction") || key == QLatin1String("subsample") || key == QLatin1String("multiparty"))
    return std::nullopt;
  return mech::parseMechanism(key.toStdString());
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
  const LearnerSpec learner{model, lambda, huber};
  if (auto kind = trainingKind(mechanism)) {
    mech::MechanismOptions o;
    o.kind = *kind;
    o.learner = learner;
    o.epsilon = epsilon;
    o.delta = delta;
    o.family = family;
    o.calibration = calibration;
    o.sgd.batchSize = batchSize;
    o.sgd.epochs = epochs;
    return experiment::PrivacyPlan::training(o);
  }
  if (mechanism == QLatin1String("multiparty")) {
    multiparty::MultipartyOptions o;
    o.model = model;
    o.huber = huber;
    o.lambda = lambda;
    o.epsilon = epsilon;
    o.parties = parties;
    o.calibration = calibration;
    return experiment::PrivacyPlan::multiparty(o);
  }
  predict::PredictionOptions o;
  o.kind = mechanism == QLatin1String("subsample") ? predict::PredictionKind::Subsample
                                                   : predict::PredictionKind::Sensitivity;
  o.learner = learner;
  o.epsilon = epsilon;
  o.delta = delta;
  o.budget = budget;
  o.teachers = teachers;
  o.family = family;
  o.calibration = calibration;
  return experiment::PrivacyPlan::prediction(o);
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
  return {QStringLiteral("output"),     QStringLiteral("objective"),  QStringLiteral("loss"),
          QStringLiteral("dplmgc"),     QStringLiteral("dpsgd"),      QStringLiteral("prediction"),
          QStringLiteral("subsample"),  QStringLiteral("multiparty")};
}

QString auditMechanismTitle(const QString& key) {
  if (key == QLatin1String("output")) return QObject::tr("Output perturbation (A)");
  if (key == QLatin1String("objective")) return QObject::tr("Objective perturbation (B)");
  if (key == QLatin1String("loss")) return QObject::tr("Loss perturbation (C)");
  if (key == QLatin1String("dplmgc")) return QObject::tr("DP-LMGC (D)");
  if (key == QLatin1String("dpsgd")) return QObject::tr("DP-SGD (E)");
  if (key == QLatin1String("prediction")) return QObject::tr("Prediction sensitivity (F)");
  if (key == QLatin1String("subsample")) return QObject::tr("Subsample-and-aggregate (G)");
  if (key == QLatin1String("multiparty")) return QObject::tr("Multiparty aggregation (I)");
  return key;
}

QString auditMechanismHelp(const QString& key) {
  if (key == QLatin1String("output"))
    return QObject::tr("Train exactly, then add noise scaled to the minimizer's sensitivity.");
  if (key == QLatin1String("objective"))
    return QObject::tr("Add a random linear term to the objective (Chaudhuri et al. Alg. 2); binary models.");
  if (key == QLatin1String("loss")) return QObject::tr("Perturb the loss of a multi-class linear model.");
  if (key == QLatin1String("dplmgc"))
    return QObject::tr("The private large-margin Gaussian classifier, corrected or as published.");
  if (key == QLatin1String("dpsgd"))
    return QObject::tr("Noisy clipped gradient steps, \u03c3 calibrated by the PLD accountant.");
  if (key == QLatin1String("prediction"))
    return QObject::tr("Noisy scores of a strongly convex model for a budget of B answers; the audit asks "
                       "the canary B times.");
  if (key == QLatin1String("subsample"))
    return QObject::tr("T teachers vote; the label is sampled by the exponential mechanism, B answers.");
  if (key == QLatin1String("multiparty"))
    return QObject::tr("K parties train locally; their average is perturbed (paper 004).");
  return {};
}

bool auditAcceptsModel(const QString& mechanism, ModelKind model) { return accepted(probe(mechanism, model)); }

bool auditOffersGaussian(const QString& mechanism, ModelKind model) {
  // DP-SGD's noise is Gaussian by construction and multiparty aggregation has no family to
  // choose: core would not object to the setting, but it would mean nothing.
  if (mechanism == QLatin1String("dpsgd") || mechanism == QLatin1String("multiparty")) return false;
  AuditSettings s = probe(mechanism, model);
  s.family = mech::NoiseFamily::Gaussian;
  return accepted(s);
}

bool auditOffersPublished(const QString& mechanism, ModelKind model) {
  AuditSettings s = probe(mechanism, model);
  s.calibration = mech::Calibration::Published;
  return accepted(s);
}

bool auditUsesDelta(const QString& mechanism) { return mechanism != QLatin1String("multiparty"); }
bool auditUsesBudget(const QString& mechanism) {
  return mechanism == QLatin1String("prediction") || mechanism == QLatin1String("subsample");
}
bool auditUsesTeachers(const QString& mechanism) { return mechanism == QLatin1String("subsample"); }
bool auditUsesParties(const QString& mechanism) { return mechanism == QLatin1String("multiparty"); }
bool auditUsesSgd(const QString& mechanism) { return mechanism == QLatin1String("dpsgd"); }

}  // namespace dpstudio::ui
