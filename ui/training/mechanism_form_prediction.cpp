// The Mechanism form's private-prediction and multiparty choices (docs/algorithms.md §3 F, G, I):
// their options, checks and live calibration. The rows themselves are prediction_fields.h's.

#include "ui/training/mechanism_form.h"

#include <QComboBox>
#include <QLabel>

#include <algorithm>

#include "core/prediction/multiparty_options.h"
#include "ui/training/calibration_view.h"
#include "ui/training/prediction_fields.h"
#include "ui/widgets/number_field.h"

namespace dpstudio::ui {
namespace {

using mech::Calibration;
using mech::NoiseFamily;

// δ when a field that needs one is invalid: any valid value will do (as mechanism_form.cpp).
constexpr double kCheckDelta = 1e-5;

QString message(const Status& status) { return QString::fromStdString(status.error().message); }

}  // namespace

QString MechanismForm::choice() const { return mechanismBox_->currentData().toString(); }

bool MechanismForm::setChoice(const QString& name) {
  const int index = mechanismBox_->findData(name);
  if (index < 0) return false;
  mechanismBox_->setCurrentIndex(index);
  return true;
}

std::optional<predict::PredictionKind> MechanismForm::predictionKind() const {
  return predict::parsePredictionKind(choice().toStdString());
}

bool MechanismForm::isMultiparty() const { return choice() == multipartyChoice(); }

bool MechanismForm::needsUnitRows() const {
  // The teachers of subsample-and-aggregate are black boxes to its proof: any rows will do.
  return isPrivate() && predictionKind() != predict::PredictionKind::Subsample;
}

predict::PredictionOptions MechanismForm::currentPredictionOptions() const {
  predict::PredictionOptions o;
  o.kind = predictionKind().value_or(predict::PredictionKind::Sensitivity);
  o.learner.kind = learner_.kind;
  if (learner_.validate()) o.learner = learner_;
  const bool subsample = o.kind == predict::PredictionKind::Subsample;
  // Subsample-and-aggregate has no noise family (its row is hidden).
  o.family = subsample ? NoiseFamily::L2Laplace
                       : mech::parseNoiseFamily(distribution_->currentData().toString().toStdString())
                             .value_or(NoiseFamily::L2Laplace);
  // F's two calibrations differ only for Gaussian noise; the row is hidden otherwise.
  o.calibration = !subsample && o.family == NoiseFamily::L2Laplace
                      ? Calibration::Corrected
                      : mech::parseCalibration(calibrationMode_->currentData().toString().toStdString())
                            .value_or(Calibration::Corrected);
  o.epsilon = epsilon_->value().value_or(1.0);
  // δ where the guarantee has one: F with Gaussian noise, G when the user gives one (0 is
  // an ε-DP budget).
  if (subsample) o.delta = delta_->value().value_or(0.0);
  else o.delta = o.family == NoiseFamily::Gaussian ? delta_->value().value_or(kCheckDelta) : 0.0;
  if (predictionFields_) predictionFields_->applyTo(o);
  return o;
}

multiparty::MultipartyOptions MechanismForm::currentMultipartyOptions() const {
  multiparty::MultipartyOptions o;
  o.model = learner_.kind;
  // An invalid λ or h is the model form's to report; checks here use valid ones.
  if (learner_.validate()) {
    o.lambda = learner_.lambda;
    o.huber = learner_.huber;
  }
  o.calibration =
      mech::parseCalibration(calibrationMode_->currentData().toString().toStdString()).value_or(Calibration::Corrected);
  o.epsilon = epsilon_->value().value_or(1.0);
  if (predictionFields_) predictionFields_->applyTo(o);
  return o;
}

QString MechanismForm::predictionProblemOf(const char* field,
                                           const std::function<void(predict::PredictionOptions&)>& change) const {
  predict::PredictionOptions o = currentPredictionOptions();
  change(o);
  const Status status = o.validate();
  return !status && status.error().field == field ? message(status) : QString();
}

QString MechanismForm::multipartyProblemOf(const char* field,
                                           const std::function<void(multiparty::MultipartyOptions&)>& change) const {
  multiparty::MultipartyOptions o = currentMultipartyOptions();
  change(o);
  const Status status = o.validate();
  return !status && status.error().field == field ? message(status) : QString();
}

void MechanismForm::computePredictionCalibration() {
  const mech::ProblemShape& shape = *shape_;
  Result<mech::MechanismReport> report = Error{};
  if (predictionKind()) {
    calibrationTitle_->setText(tr("Calibration for n = %1, d = %2, C = %3")
                                   .arg(shape.rows).arg(shape.features).arg(shape.classes));
    predict::PredictionOptions options = currentPredictionOptions();
    options.learner = learner_;
    report = predict::calibratePrediction(options, shape);
  } else {
    // Core's n_(1): the smallest party of the training part's split.
    const multiparty::MultipartyOptions options = currentMultipartyOptions();
    auto sizes = multiparty::partySizes(shape.rows, options);
    if (!sizes) {
      calibrationTitle_->setText(tr("Calibration"));
      calibrationView_->showMessage(QString::fromStdString(sizes.error().message));
      return;
    }
    const Index smallest = *std::min_element(sizes.value().begin(), sizes.value().end());
    calibrationTitle_->setText(tr("Calibration for K = %1 parties, n\u208d\u2081\u208e = %2, d = %3")
                                   .arg(options.partyCount()).arg(smallest).arg(shape.features));
    report = multiparty::calibrateMultiparty(options, smallest, shape.features);
  }
  showCalibration(report, shape);
}

}  // namespace dpstudio::ui
