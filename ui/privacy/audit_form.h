#pragma once
// The Audit view's form: which mechanism to audit and with what claim — model, ε, δ, λ,
// noise family, calibration (corrected or as published), the mechanism's own settings
// (budget B, teachers T, parties K, DP-SGD's batch and epochs) — how many runs, the seed,
// and which adjacent datasets (core's small built-in problem, or the current dataset).
//
// Rows appear only for settings the chosen mechanism has (audit_settings.h asks core).
// Every number is validated as typed by core's own rule for the whole set of options
// (AuditOptions::validate()), so the form never disagrees with what the audit would reject:
// an invalid field is marked in place with the reason, and problems() lists every reason.
// settings() is meaningful while problems() is empty.
//
// The choices persist in QSettings under "audit/" as they change.

#include <QStringList>
#include <QWidget>

#include "ui/privacy/audit_settings.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NumberField;

class AuditForm : public QWidget {
  Q_OBJECT

 public:
  explicit AuditForm(QWidget* parent = nullptr);

  AuditSettings settings() const;
  QStringList problems() const;  // one line per problem, naming the field
  bool isValid() const { return problems().isEmpty(); }

  void setMechanism(const QString& key);
  void setModel(ModelKind kind);

  // For tests, and for whoever drives the form as a user would.
  QComboBox* mechanismBox() const { return mechanism_; }
  QComboBox* modelBox() const { return model_; }
  NumberField* epsilonField() const { return epsilon_; }
  NumberField* deltaField() const { return delta_; }
  NumberField* lambdaField() const { return lambda_; }
  NumberField* huberField() const { return huber_; }
  QComboBox* distributionBox() const { return distribution_; }
  QComboBox* calibrationBox() const { return calibration_; }
  QSpinBox* budgetBox() const { return budget_; }
  QSpinBox* teachersBox() const { return teachers_; }
  QSpinBox* partiesBox() const { return parties_; }
  QSpinBox* batchSizeBox() const { return batchSize_; }
  NumberField* epochsField() const { return epochs_; }
  QSpinBox* trialsBox() const { return trials_; }
  QSpinBox* seedBox() const { return seed_; }
  QComboBox* dataBox() const { return data_; }
  QLabel* publishedWarning() const { return publishedWarning_; }

 signals:
  void changed();  // any field changed

 private:
  // The "Mechanism and claim" group, built from the rows below in the order it shows them.
  QWidget* buildMechanismRows();
  void addClaimRows();             // mechanism, model, ε, δ, λ, Huber h
  void addNoiseRows();             // noise family, calibration and its warning
  void addMechanismSettingRows();  // B, T, K, DP-SGD's batch and epochs
  void connectMechanismRows();     // checks and change signals, once every row exists
  QWidget* buildRunRows();
  void updateRows();
  void fieldsChanged();
  // settings() with invalid numbers replaced by defaults: what a field's check compares against.
  AuditSettings settingsOrDefaults() const;
  // Core's reason why `key` cannot be `value` with the other fields as they are, or "".
  QString checkField(const QString& key, double value) const;
  QList<NumberField*> numberFields() const;
  bool inUse(const NumberField* field) const;
  QString label(const NumberField* field) const;
  void restoreSettings();
  void saveSettings() const;

  QFormLayout* form_ = nullptr;
  QComboBox* mechanism_ = nullptr;
  QComboBox* model_ = nullptr;
  NumberField* epsilon_ = nullptr;
  NumberField* delta_ = nullptr;
  NumberField* lambda_ = nullptr;
  NumberField* huber_ = nullptr;
  QComboBox* distribution_ = nullptr;
  QComboBox* calibration_ = nullptr;
  QLabel* publishedWarning_ = nullptr;
  QSpinBox* budget_ = nullptr;
  QSpinBox* teachers_ = nullptr;
  QSpinBox* parties_ = nullptr;
  QSpinBox* batchSize_ = nullptr;
  NumberField* epochs_ = nullptr;
  QSpinBox* trials_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QComboBox* data_ = nullptr;
  bool restoring_ = false;
};

}  // namespace dpstudio::ui
