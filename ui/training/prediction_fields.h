#pragma once
// The parameters of the private-prediction mechanisms and multiparty aggregation (docs/algorithms.md
// §3 F, G, I) in the Mechanism form: the budget B of answers (F, G), the number of teachers T
// (G), and the parties (I: an even split of K or a list of fractions, party_split_editor.h)
// with the opt-in all-data DP baseline (a second release, off by default and not persisted)
// and who aggregates (a trusted curator, or paper 004's Paillier protocol, in which nobody
// sees a local model: slower, and not persisted either).
// The rows go into the form's own layout, so that they line up with ε, δ and the others, and
// are shown only for the mechanism that uses them.
//
// Every value is checked as typed by core: PredictionOptions::validate() and, for T, the
// calibration's "at least T training rows"; MultipartyOptions::validate() for each fraction
// and the sum, and partySizes() for a split that would leave a party without rows. The
// options the checks need besides these fields come from the form (the providers), with any
// invalid field there replaced by a valid value, so that a check blames its own field only.
//
// The values persist in QSettings under the form's prefix.

#include <QObject>
#include <QSettings>
#include <QStringList>

#include <functional>
#include <optional>

#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
QT_END_NAMESPACE

namespace dpstudio::ui {

class FormRows;

class NumberField;
class PartySplitEditor;

class PredictionFields : public QObject {
  Q_OBJECT

 public:
  enum class Kind { None, Sensitivity, Subsample, Multiparty };
  using PredictionProvider = std::function<predict::PredictionOptions()>;
  using MultipartyProvider = std::function<multiparty::MultipartyOptions()>;

  // Adds its rows to `form`; `rows` shows and hides them (form_rows.h).
  PredictionFields(QFormLayout* form, FormRows* rows, PredictionProvider prediction, MultipartyProvider multiparty,
                   QObject* parent = nullptr);

  void setKind(Kind kind);  // shows the rows `kind` uses
  Kind kind() const { return kind_; }
  // n of the training part (after the split), for T and the party sizes; nullopt: unknown.
  void setTrainingRows(std::optional<Index> rows);

  // The fields' values into the options, each invalid one replaced by a valid default.
  void applyTo(predict::PredictionOptions& options) const;
  void applyTo(multiparty::MultipartyOptions& options) const;
  QStringList problems() const;  // of the rows shown, one line each, naming the field
  void recheck();

  void save(QSettings& settings, const QString& prefix) const;
  void restore(QSettings& settings, const QString& prefix);

  NumberField* budgetField() const { return budget_; }
  NumberField* teachersField() const { return teachers_; }
  PartySplitEditor* partyEditor() const { return parties_; }
  QCheckBox* baselineBox() const { return baseline_; }
  QComboBox* protocolBox() const { return protocol_; }

 signals:
  void edited();

 private:
  QString predictionProblem(const char* field, const std::function<void(predict::PredictionOptions&)>& change) const;
  QString fractionProblem(int party, double value) const;
  void updateSummary();

  QFormLayout* form_;
  FormRows* formRows_;
  PredictionProvider prediction_;
  MultipartyProvider multiparty_;
  NumberField* budget_;
  NumberField* teachers_;
  PartySplitEditor* parties_;
  QCheckBox* baseline_;
  QComboBox* protocol_;
  QString splitProblem_;  // what is wrong with the split as a whole, or empty
  std::optional<Index> rows_;
  Kind kind_ = Kind::None;
};

}  // namespace dpstudio::ui
