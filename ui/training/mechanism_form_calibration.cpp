// MechanismForm's live calibration: debounced recomputation from the fields, and the
// calibration view and warnings it feeds (split from mechanism_form.cpp).
#include <QLabel>

#include "core/mechanisms/noise_scale.h"
#include "core/mechanisms/sgd_step.h"
#include "core/privacy/validation.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_form.h"

namespace dpstudio::ui {

using mech::MechanismKind;

void MechanismForm::scheduleCalibration() {
  if (mechanism() == MechanismKind::DpSgd) {
    debounce_.start();
    return;
  }
  debounce_.stop();
  computeCalibration();
}

void MechanismForm::flushCalibration() {
  if (!debounce_.isActive()) return;
  debounce_.stop();
  computeCalibration();
}

void MechanismForm::computeCalibration() {
  calibration_.reset();
  warning_->setVisible(false);
  if (!isPrivate()) return;
  if (!shape_) {
    calibrationTitle_->setText(tr("Calibration"));
    calibrationView_->showMessage(noShapeReason_.isEmpty() ? tr("Open a dataset to see the calibration.")
                                                           : noShapeReason_);
    return;
  }
  if (isMultiparty() && shape_->classes != 2) {
    calibrationTitle_->setText(tr("Calibration"));
    calibrationView_->showMessage(tr("Multiparty aggregation trains a binary classifier (paper 004); the data have "
                                     "%1 classes.").arg(shape_->classes));
    return;
  }
  if (!problems().isEmpty() || !learner_.validate()) {
    calibrationTitle_->setText(tr("Calibration"));
    calibrationView_->showMessage(tr("Fix the marked fields to see the calibration."));
    return;
  }
  if (predictionKind() || isMultiparty()) {
    computePredictionCalibration();
    return;
  }
  const PrivacySettings s = settings();
  mech::MechanismOptions options = s.options;
  options.learner = learner_;
  mech::ProblemShape shape = *shape_;
  if (!s.tuneLambdas.empty()) {
    // Tuning trains each candidate on one of m + 1 equal parts (tuning.h): the calibration
    // of the first candidate on its part.
    const auto parts = static_cast<Index>(s.tuneLambdas.size()) + 1;
    shape.rows = shape.rows / parts;
    options.learner.lambda = s.tuneLambdas.front();
    calibrationTitle_->setText(tr("Calibration of candidate 1 (\u03bb = %1) on a part of n = %2, d = %3, C = %4")
                                   .arg(options.learner.lambda, 0, 'g', 4)
                                   .arg(shape.rows).arg(shape.features).arg(shape.classes));
  } else {
    calibrationTitle_->setText(tr("Calibration for n = %1, d = %2, C = %3")
                                   .arg(shape.rows).arg(shape.features).arg(shape.classes));
  }
  showCalibration(mech::calibrate(options, shape, s.noise));  // the scale the run will draw at
  // Output perturbation at a λ whose noise no model survives, or a DP-SGD step beyond what
  // is safe on data in the unit ball: say so before Train.
  std::optional<std::string> caution;
  if (calibration_) caution = mech::noiseSwampsModelWarning(options, *calibration_, shape.classes);
  if (!caution) caution = mech::dpSgdStepWarning(options, shape.features, shape.classes);
  if (caution) {
    const QString previous = warning_->isVisible() ? warning_->text() + QStringLiteral("\n") : QString();
    warning_->setText(previous + tr("\u26a0 %1").arg(QString::fromStdString(*caution)));
    warning_->setVisible(true);
  }
}

void MechanismForm::showCalibration(const Result<mech::MechanismReport>& report) {
  if (!report) {
    calibrationView_->showMessage(QString::fromStdString(report.error().message));
    return;
  }
  calibration_ = report.value();
  calibrationView_->setReport(*calibration_);
  QStringList warnings;
  if (!calibration_->warning.empty()) warnings << QString::fromStdString(calibration_->warning);
  // A δ that allows publishing a whole record is accepted (a teacher may show exactly that)
  // but never silently; n is the training part the calibration is for.
  if (shape_)
    if (const auto doubtful = privacy::doubtfulDeltaWarning(calibration_->delta, static_cast<long>(shape_->rows)))
      warnings << QString::fromStdString(*doubtful);
  if (!warnings.isEmpty()) {
    warning_->setText(tr("\u26a0 %1").arg(warnings.join(QStringLiteral("\n\u26a0 "))));
    warning_->setVisible(true);
  }
}

}  // namespace dpstudio::ui
