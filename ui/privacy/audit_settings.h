#pragma once
// What the Audit view's form chooses, as plain values, and how they become a PrivacyPlan,
// which core's experiment layer maps to audit::AuditOptions as it does `dpstudio-cli
// audit`'s: the training mechanisms A–E, prediction sensitivity (F), subsample-and-aggregate
// (G) and multiparty aggregation (I).
//
// Which settings a mechanism has is asked of core, not listed here: a model, the Gaussian
// family or the "as published" calibration is offered exactly when core's validate()
// accepts it for that mechanism with otherwise valid settings. Pure functions.

#include <QString>
#include <QStringList>

#include <cstdint>

#include "core/audit/audit.h"
#include "core/experiment/audit_plan.h"

namespace dpstudio::ui {

struct AuditSettings {
  QString mechanism = QStringLiteral("output");  // a key of auditMechanisms()
  ModelKind model = ModelKind::LogisticRegression;
  double epsilon = 1.0;   // the claim audited
  double delta = 0.0;     // not used by multiparty aggregation ((ε, 0)-DP)
  double lambda = 0.1;    // λ of the learner (multiparty: of λ‖w‖², paper 004)
  double huber = 0.5;
  mech::NoiseFamily family = mech::NoiseFamily::L2Laplace;
  mech::Calibration calibration = mech::Calibration::Corrected;
  long long trials = 2000;  // N runs on D and N on D'
  std::uint64_t seed = 1;
  long long budget = 1;     // B: prediction, subsample
  Index teachers = 4;       // T: subsample
  Index parties = 2;        // K: multiparty (even split)
  Index batchSize = 16;     // DP-SGD: expected batch
  double epochs = 5;        // DP-SGD
  bool onDataset = false;   // audit the current dataset's training part, else core's built-in problem

  bool operator==(const AuditSettings&) const = default;

  // The form's choice as a plan, and the audit of it (experiment/audit_plan.h: the mapping
  // `dpstudio-cli audit` uses too); validate() says what core refuses, naming the field.
  experiment::PrivacyPlan plan() const;
  Result<audit::AuditOptions> options() const;
  Status validate() const;
};

// "output", "objective", "loss", "dplmgc", "dpsgd", "prediction", "subsample", "multiparty".
QStringList auditMechanisms();
QString auditMechanismTitle(const QString& key);  // "Output perturbation (A)", …
QString auditMechanismHelp(const QString& key);   // one sentence for a tooltip

// Whether core accepts, for this mechanism, the model / Gaussian noise / the "as published"
// calibration (each with otherwise default, valid settings).
bool auditAcceptsModel(const QString& mechanism, ModelKind model);
bool auditOffersGaussian(const QString& mechanism, ModelKind model);
bool auditOffersPublished(const QString& mechanism, ModelKind model);

bool auditUsesDelta(const QString& mechanism);     // all but multiparty
bool auditUsesBudget(const QString& mechanism);    // prediction, subsample
bool auditUsesTeachers(const QString& mechanism);  // subsample
bool auditUsesParties(const QString& mechanism);   // multiparty
bool auditUsesSgd(const QString& mechanism);       // dpsgd

}  // namespace dpstudio::ui
