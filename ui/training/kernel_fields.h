#pragma once
// The kernel rows of the Training dock's "Training data" group: random Fourier features for the
// RBF kernel exp(−γ‖x − x'‖²) (docs/algorithms.md §2.4, core/data/random_features.h, preprocess.h
// step 6), so that a linear model — trained privately under any linear mechanism — draws
// curved decision regions. A checkbox turns the map on and shows its rows: D (number of
// features, default 200), γ (checked as typed by RandomFeaturesSpec::validate(), so the
// reason is core's "rff-gamma must be finite and > 0"), the seed of the draws, and a note:
// the draws never look at the data (free privacy-wise), and γ is in the units of the rows the
// map reads (after the norm bound R or unit-row scaling, when chosen).
//
// Not offered with LMGC (setAvailable()): the box is unticked and disabled, the reason its
// tooltip; another model offers it again, unticked (an option never comes back on as a side
// effect of another choice). The rows go into
// the form's own layout, so that they line up with the others.
//
// The values persist in QSettings under the form's prefix + "rff/".

#include <QObject>
#include <QSettings>
#include <QString>

#include <optional>

#include "core/data/random_features.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QFormLayout;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace dpstudio::ui {

class NumberField;

class KernelFields : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultDim = 200;  // enough for a smooth 2-D kernel boundary
  static constexpr int kMaxDim = 5000;     // the GUI holds n × D numbers per part

  explicit KernelFields(QFormLayout* form, QObject* parent = nullptr);

  // The map a training would use: nullopt while the box is off or unavailable. γ is the
  // field's value, or core's default while the field is invalid (problem() then says so).
  std::optional<RandomFeaturesSpec> spec() const;
  bool isUsed() const;
  // γ's problem while the map is used, else empty.
  QString problem() const;

  // The user's choice, as ticking the box would make it; kept (not applied) while unavailable.
  void choose(bool on);
  // available == false: unticked and disabled, `why` as the tooltip; the choice is kept.
  void setAvailable(bool available, const QString& why = {});
  // Whether the rows the map reads are scaled (norm bound R or unit rows): the note says
  // which units γ is in.
  void setRowsScaled(bool scaled);

  void save(QSettings& settings, const QString& prefix) const;
  void restore(QSettings& settings, const QString& prefix);

  QCheckBox* enableBox() const { return enable_; }
  QSpinBox* dimBox() const { return dim_; }
  NumberField* gammaField() const { return gamma_; }
  QSpinBox* seedBox() const { return seed_; }
  QLabel* noteLabel() const { return note_; }

 signals:
  void edited();  // any change that changes spec() or problem()

 private:
  void updateRows();
  void updateNote();

  QFormLayout* form_;
  QCheckBox* enable_;
  QSpinBox* dim_;
  NumberField* gamma_;
  QSpinBox* seed_;
  QLabel* note_;
  bool wanted_ = false;  // the user's choice; forgotten when the kernel becomes unavailable
  bool available_ = true;
  bool rowsScaled_ = false;
  QString enableHelp_;
};

}  // namespace dpstudio::ui
