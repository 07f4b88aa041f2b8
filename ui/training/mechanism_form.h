#pragma once
// The privacy part of the Training dock's form: which mechanism trains the model — grouped as
// the baseline (none), the private-training mechanisms of docs/algorithms.md §3 A–E, the
// private-prediction mechanisms (§3 F, G: a budget B of answers, T teachers) and multiparty
// aggregation (§3 I: K parties, prediction_fields.h) — with its
// parameters (ε, δ, noise family, calibration mode, DP-SGD's batch, clip norm, epochs and
// step size, LMGC's λ₂ for output perturbation), private λ tuning (§3 H) over a list of
// candidates, and where the noise comes from (experiment: seeded; release: the OS CSPRNG).
//
// Only what core accepts can be chosen: a mechanism, noise family or calibration that
// MechanismOptions::validate() rejects for the current choices is disabled in its list with
// core's reason as the tooltip, and every number is checked as typed by validate() itself,
// the reason shown in place. Rows a mechanism does not use are hidden.
//
// Below the parameters, the calibration a training would use, computed live by
// mech::calibrate() (predict::calibratePrediction(), multiparty::calibrateMultiparty() with
// n_(1) from the split of the training part) from the parameters and the problem's shape (n
// of the training part, d after preprocessing, C) — data-free, so cheap; DP-SGD's σ search is debounced. An "as
// published" calibration shows its warning (the report's, from docs/algorithms.md) in place.
//
// The choices persist in QSettings under "model/mechanism/".

#include <memory>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <optional>

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/selection.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"
#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QSettings;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QVBoxLayout;
QT_END_NAMESPACE

namespace dpstudio::ui {

class FormRows;

class CalibrationView;
class NumberField;
class NumberListField;
class PredictionFields;

class MechanismForm : public QWidget {
  Q_OBJECT

 public:
  explicit MechanismForm(QWidget* parent = nullptr);
  ~MechanismForm() override;

  // The training mechanism chosen; None also when a §3 F, G or I entry is.
  mech::MechanismKind mechanism() const;
  void setMechanism(mech::MechanismKind kind);
  static QString multipartyChoice() { return QStringLiteral("multiparty"); }
  // The list's entry by name: mechanismName(), predictionKindName(), or multipartyChoice().
  QString choice() const;
  bool setChoice(const QString& name);  // false for a name the list does not hold
  std::optional<predict::PredictionKind> predictionKind() const;  // §3 F or G chosen
  bool isMultiparty() const;                                      // §3 I chosen
  static QString selectionChoice() { return QStringLiteral("auto"); }
  bool isSelection() const { return choice() == selectionChoice(); }  // §3 K chosen
  // Whether the user picked an entry of the Mechanism list themselves (not a program, not
  // a start-up option) since the form was made.
  bool userChoseMechanism() const { return userChoseMechanism_; }
  bool isPrivate() const {
    return mechanism() != mech::MechanismKind::None || predictionKind() || isMultiparty() || isSelection();
  }
  // Whether core needs rows with ‖x‖ ≤ 1 (a public norm bound) for the choice.
  bool needsUnitRows() const;

  // Meaningful while problems() is empty.
  PrivacySettings settings() const;
  QStringList problems() const;  // one line per invalid field or choice, naming it
  // Why core refuses `model` with the chosen mechanism and distribution, or an empty string.
  QString modelProblem(ModelKind model) const;

  // What the checks and the calibration depend on besides this form.
  void setLearner(const LearnerSpec& learner);
  // The problem the calibration is for; nullopt with the reason when there is none.
  void setProblemShape(const std::optional<mech::ProblemShape>& shape, const QString& reason = {});

  // The calibration shown, when one could be computed; flushCalibration() computes a
  // pending (debounced) one now.
  const std::optional<mech::MechanismReport>& calibration() const { return calibration_; }
  void flushCalibration();

  void saveSettings() const;
  void restoreSettings();
  void saveTo(QSettings& settings) const;
  void restoreFrom(QSettings& settings);

  // For tests, and for whoever drives the form as a user would.
  QComboBox* mechanismBox() const { return mechanismBox_; }
  NumberField* epsilonField() const { return epsilon_; }
  NumberField* deltaField() const { return delta_; }
  QComboBox* distributionBox() const { return distribution_; }
  QComboBox* calibrationBox() const { return calibrationMode_; }
  NumberField* lambda2Field() const { return lambda2_; }
  NumberField* batchField() const { return batch_; }
  NumberField* clipField() const { return clip_; }
  NumberField* epochsField() const { return epochs_; }
  NumberField* learningRateField() const { return learningRate_; }
  QCheckBox* tuneBox() const { return tune_; }
  QCheckBox* selectAllBox() const { return selectAll_; }
  NumberListField* tuneLambdasField() const { return tuneLambdas_; }
  QComboBox* noiseSourceBox() const { return noiseSource_; }
  QSpinBox* seedBox() const { return seed_; }
  CalibrationView* calibrationView() const { return calibrationView_; }
  QLabel* calibrationWarning() const { return warning_; }
  PredictionFields* predictionFields() const { return predictionFields_; }
  // Whether a parameter's row is shown (hidden rows are not used by the mechanism).
  bool isRowShown(QWidget* field) const;

 signals:
  void changed();  // any choice or field changed
  void mechanismChanged(dpstudio::mech::MechanismKind kind);
  void calibrationChanged();  // calibration() was recomputed (it may now be empty)

 private:
  // buildRows() adds the groups of rows below to the form, in order, then the checks and
  // the connections, which read every field.
  void buildRows();
  void addPrivacyRows();  // mechanism, ε, δ, noise family, calibration, LMGC's λ₂
  void addDpSgdRows();    // batch, clip norm, epochs, learning rate
  void addTuningRows();   // Alg. 3's private choice of λ
  void addNoiseSourceRows();
  void addCalibrationReport(QVBoxLayout* outer);  // below the form: title, values, warning
  void installChecks();
  void connectFields();
  void updateRows();
  void updateChoices();
  // The shared parameters the chosen entry reads (its catalogue entry's).
  experiment::MechanismUses uses() const;
  void fieldsChanged();
  void recheckFields();
  void scheduleCalibration();
  void computeCalibration();
  void computePredictionCalibration();
  // The live text for a calibration, or core's reason there is none; "as published" warns.
  // The report (or why there is none) and core's warnings for the plan the form shows.
  void showCalibration(const Result<mech::MechanismReport>& report, const mech::ProblemShape& shape);
  // The options as chosen, every number replaced by a valid default while its field is
  // invalid (so that checks blame the right field).
  mech::MechanismOptions currentOptions() const;
  mech::SelectionOptions currentSelection() const;
  void computeSelectionCalibration();
  predict::PredictionOptions currentPredictionOptions() const;
  multiparty::MultipartyOptions currentMultipartyOptions() const;
  QString predictionProblemOf(const char* field,
                              const std::function<void(predict::PredictionOptions&)>& change) const;
  QString multipartyProblemOf(const char* field,
                              const std::function<void(multiparty::MultipartyOptions&)>& change) const;
  // core's complaint about `field` with the options changed by `change`, if it names it.
  QString problemOf(const char* field, const std::function<void(mech::MechanismOptions&)>& change) const;
  static Status choiceStatus(const mech::MechanismOptions& options);
  QString choiceProblem(const mech::MechanismOptions& options) const;

  QFormLayout* form_ = nullptr;
  std::unique_ptr<FormRows> rows_;  // shows and hides form_'s rows (form_rows.h)
  QComboBox* mechanismBox_ = nullptr;
  QLabel* mechanismNote_ = nullptr;
  NumberField* epsilon_ = nullptr;
  NumberField* delta_ = nullptr;
  QComboBox* distribution_ = nullptr;
  QComboBox* calibrationMode_ = nullptr;
  NumberField* lambda2_ = nullptr;
  NumberField* batch_ = nullptr;
  NumberField* clip_ = nullptr;
  NumberField* epochs_ = nullptr;
  NumberField* learningRate_ = nullptr;
  QCheckBox* tune_ = nullptr;
  NumberListField* tuneLambdas_ = nullptr;
  QCheckBox* selectAll_ = nullptr;  // §3 K: private selection among every mechanism
  int selectionGeneration_ = 0;     // the latest background calibration of a selection
  bool userChoseMechanism_ = false;
  QComboBox* noiseSource_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QLabel* noiseNote_ = nullptr;
  QLabel* calibrationTitle_ = nullptr;
  CalibrationView* calibrationView_ = nullptr;
  QLabel* warning_ = nullptr;
  PredictionFields* predictionFields_ = nullptr;

  LearnerSpec learner_;
  std::optional<mech::ProblemShape> shape_;
  QString noShapeReason_;
  std::optional<mech::MechanismReport> calibration_;
  QTimer debounce_;
  bool updating_ = false;  // choices being adjusted: one changed() at the end
};

}  // namespace dpstudio::ui
