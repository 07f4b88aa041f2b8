#pragma once
// The Training dock's parameter form: the privacy mechanism and its parameters
// (mechanism_form.h), which model to train and with what, and how the data are split and
// preprocessed before it sees them. Every field is validated as it is typed,
// by core's own rules where core has them; settings() is meaningful while problems() is
// empty. Laid out as a QFormLayout per group so that later mechanisms add rows, not screens.
//
// The norm bound R is never read off the data. For a built-in dataset with a documented
// public bound (core/sources/public_bounds.h) it is prefilled and the note under it says where
// it comes from; otherwise the box is off and the user enters a bound they know publicly.
//
// The model list offers only what core accepts with the chosen mechanism (the others are
// disabled, core's reason as their tooltip), and a private mechanism needs rows with
// ‖x‖ ≤ 1: a norm bound R or unit rows. The mechanism's live calibration is for the current
// dataset's shape after the split and preprocessing chosen here (setDataset()).
//
// The "Kernel" rows (kernel_fields.h) add random Fourier features after the norm bound: a
// linear model on them is an RBF-kernel machine with curved regions, private under any
// linear mechanism, and the calibration's d becomes D (D + 1 with an intercept). They are not
// offered with LMGC. The features have norm ≤ 1 by construction, so with them a private
// mechanism needs no norm bound R.
//
// The choices (not R, which belongs to the dataset) persist in QSettings under "model/".

#include <QStringList>
#include <QWidget>

#include <memory>

#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSettings;
class QSpinBox;
class QTemporaryDir;
QT_END_NAMESPACE

namespace dpstudio::ui {

class KernelFields;
class MechanismForm;
class NumberField;
class NumberListField;

class ModelSettingsForm : public QWidget {
  Q_OBJECT

 public:
  explicit ModelSettingsForm(QWidget* parent = nullptr);
  ~ModelSettingsForm() override;

  TrainingSettings settings() const;
  QStringList problems() const;  // one line per invalid field, naming it
  // n of the training part after the split, d after the preprocessing, C — what the live
  // calibration and a sweep's value checks use; nullopt (with *why) when it cannot be known.
  std::optional<mech::ProblemShape> trainingShape(QString* why = nullptr) const;
  bool isValid() const { return problems().isEmpty(); }

  // A dataset was opened: prefill R from its public bound, if it has one.
  void setDatasetSpec(const QString& spec);
  // The dataset the calibration's shape (n, d, C) is computed for; nullptr: none.
  void setDataset(std::shared_ptr<const Dataset> dataset);
  // A separate test file is open: nothing is held out (the test fraction is off) and the
  // calibration's n is the whole dataset.
  void setSeparateTest(bool separate);
  void setModelKind(ModelKind kind);
  ModelKind modelKind() const;

  void saveSettings() const;
  // Restores the last session's choices; restoredChanges() then says what differs from the
  // defaults, for people ("ε 1 → 50", "unit rows off → on").
  void restoreSettings();
  QStringList restoredChanges() const { return restoredChanges_; }
  // Every field back to what a first start shows (not R, which belongs to the dataset).
  void resetToDefaults();

  // For tests, and for whoever drives the form as a user would.
  MechanismForm* mechanismForm() const { return mechanism_; }
  QComboBox* modelBox() const { return modelBox_; }
  NumberField* lambdaField() const { return lambda_; }
  NumberField* huberField() const { return huber_; }
  QSpinBox* componentsBox() const { return components_; }
  NumberField* toleranceField() const { return tolerance_; }
  QSpinBox* maxIterationsBox() const { return maxIterations_; }
  NumberField* testFractionField() const { return testFraction_; }
  QSpinBox* splitSeedBox() const { return splitSeed_; }
  QCheckBox* normBoundBox() const { return useNormBound_; }
  NumberField* normBoundField() const { return normBound_; }
  QCheckBox* unitRowsBox() const { return unitRows_; }
  QCheckBox* featureRangeBox() const { return useRange_; }
  NumberListField* featureRangeField() const { return range_; }
  QCheckBox* interceptBox() const { return intercept_; }
  KernelFields* kernelFields() const { return kernel_; }

 signals:
  void changed();                  // any field changed
  void validityChanged(bool valid);

 private:
  // The dataset was read by a schema whose ranges give the norm bound (prepareLoaded).
  bool schemaDeclaresRanges() const;
  QWidget* makeModelGroup();
  QWidget* makeDataGroup();
  void updateModelRows();
  void updateModelChoices();
  void updateShape();
  LearnerSpec learner() const;
  void fieldsChanged();
  void captureDefaults();
  void saveTo(QSettings& settings) const;
  void restoreFrom(QSettings& settings);

  MechanismForm* mechanism_ = nullptr;
  std::shared_ptr<const Dataset> dataset_;
  QFormLayout* modelForm_ = nullptr;
  QComboBox* modelBox_ = nullptr;
  NumberField* lambda_ = nullptr;
  double lambdaDefault_ = 0;  // the default in force (model, private or not): λ_ follows it while unedited
  // The default λ for the model and mechanism chosen; λ follows it when it holds the last default.
  void followDefaultLambda();
  double currentDefaultLambda() const;
  bool restoring_ = false;
  NumberField* huber_ = nullptr;
  QSpinBox* components_ = nullptr;  // LMGC's Gaussians per class
  NumberField* tolerance_ = nullptr;
  QSpinBox* maxIterations_ = nullptr;
  NumberField* testFraction_ = nullptr;
  QSpinBox* splitSeed_ = nullptr;
  QCheckBox* useNormBound_ = nullptr;
  NumberField* normBound_ = nullptr;
  QLabel* normBoundNote_ = nullptr;
  QCheckBox* unitRows_ = nullptr;
  QCheckBox* useRange_ = nullptr;        // every feature's public range lo, hi (§0.2)
  NumberListField* range_ = nullptr;
  QCheckBox* intercept_ = nullptr;
  KernelFields* kernel_ = nullptr;
  bool wasValid_ = true;
  bool separateTest_ = false;
  TrainingSettings defaults_;                  // as the constructor left the fields
  std::unique_ptr<QTemporaryDir> defaultsDir_;  // the same, as saveTo() writes them
  QStringList restoredChanges_;
};

}  // namespace dpstudio::ui
