#pragma once
// The controls of a privacy–utility sweep: which mechanisms to compare, the swept axis and
// its values, the repetitions and the master seed. Everything else — the data, the model,
// λ, ε and δ where they are not swept, each mechanism's own options — is the Training dock's:
// setBase() gives the form the dock's settings, and sweepSpec() turns them and the choices
// into core's SweepSpec (one series per mechanism, experiment::withMechanism()).
//
// A mechanism that does not fit the dock's settings (DP-LMGC without LMGC, DP-SGD at δ = 0,
// multiparty with softmax, …) is disabled with core's reason as its tooltip; the axis list
// holds the axes that apply to the mechanisms ticked; values and repetitions are checked as
// typed. problems() says what stops a sweep, one line per field.
//
// Or a paper figure (preset_chooser.h): the preset brings its data, mechanisms, axis and
// values, so those controls give way to its description; repetitions and seed stay, the
// repetitions set to the preset's reduced default.

#include <QStringList>
#include <QWidget>

#include <map>
#include <optional>
#include <string>

#include "core/experiment/sweep_spec.h"
#include "ui/training/training_document.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class ColumnGrid;
class NumberListField;
class PresetChooser;

class SweepForm : public QWidget {
  Q_OBJECT

 public:
  explicit SweepForm(QWidget* parent = nullptr);

  // The Training dock's settings and the training data's shape (rows after the split, features
  // the model reads, classes). An invalid dock is given as its problems.
  void setBase(const TrainingSettings& settings, const mech::ProblemShape& shape);
  void setBaseProblem(const QString& problem);

  // The mechanisms ticked, by key (experiment::privateMechanismKeys()).
  std::vector<std::string> mechanisms() const;
  void setMechanisms(const std::vector<std::string>& keys);
  experiment::SweepAxis axis() const;
  bool setAxis(experiment::SweepAxis axis);  // false when it does not apply
  void setValues(const std::vector<double>& values);
  void setRepeats(int repeats);
  void setSeed(int seed);

  // A paper figure is chosen: the sweep is the preset's (presetChooser() says which and on
  // what data), not the Training dock's.
  bool presetMode() const;
  PresetChooser* presetChooser() const { return chooser_; }

  QStringList problems() const;
  bool isValid() const { return problems().isEmpty(); }
  // Whether the form's own line says why there is nothing to sweep (no dataset, or the
  // Training dock's problem), so that the page need not say it a second time.
  bool showsBaseProblem() const { return !presetMode() && !base_; }
  // The sweep the controls describe (meaningful while isValid()); dataset: its identity
  // (in preset mode usually empty: the session fills it in once the data are loaded).
  experiment::SweepSpec sweepSpec(const std::string& dataset) const;

  QCheckBox* mechanismBox(const std::string& key) const;
  QComboBox* axisBox() const { return axis_; }
  NumberListField* valuesField() const { return values_; }
  QSpinBox* repeatsBox() const { return repeats_; }

 signals:
  void changed();

 private:
  // The constructor's rows: a tick box per mechanism, "Sweep <axis> over <values>", and
  // the repetitions and seed (which presets use too).
  ColumnGrid* makeMechanismBoxes();
  QHBoxLayout* makeAxisRow();
  QHBoxLayout* makeRunRow();
  void refreshMechanisms();
  void refreshAxes();
  void axisChosen();
  // The dock's plan; with no mechanism chosen, output perturbation at the dock's ε and δ.
  experiment::PrivacyPlan basePlan() const;
  std::optional<experiment::PrivacyPlan> planFor(const std::string& key, QString* problem) const;

  std::optional<TrainingSettings> base_;
  QString baseProblem_;
  mech::ProblemShape shape_{};
  void presetChosen();

  PresetChooser* chooser_ = nullptr;
  QWidget* dockControls_ = nullptr;  // mechanisms and axis: hidden while a preset is chosen
  std::map<std::string, QCheckBox*> boxes_;
  QComboBox* axis_ = nullptr;
  NumberListField* values_ = nullptr;
  QSpinBox* repeats_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QLabel* baseLabel_ = nullptr;
  experiment::SweepAxis shownValuesAxis_ = experiment::SweepAxis::Epsilon;
  bool valuesEdited_ = false;  // the user typed values: an axis change does not overwrite them
};

}  // namespace dpstudio::ui
