// MechanismForm's live calibration: debounced recomputation from the fields, and the
// calibration view and warnings it feeds (split from mechanism_form.cpp).
#include <QFutureWatcher>
#include <QLabel>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

#include "core/mechanisms/selection.h"
#include "core/prediction/prediction_options.h"

#include "core/experiment/plan_warnings.h"
#include "core/mechanisms/pre_run_warnings.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_form.h"

namespace dpstudio::ui {


void MechanismForm::scheduleCalibration() {
  // DP-SGD's σ and a selection's candidates are searches: not on every keystroke.
  if (uses().sgd || isSelection()) {
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
  emit calibrationChanged();
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
  if (isSelection()) {
    computeSelectionCalibration();
    return;
  }
  const PrivacySettings s = settings();
  mech::MechanismOptions options = s.options;
  options.learner = learner_;
  // Private tuning: the calibration of candidate 1 on one part (core's calibratedProblem).
  const mech::CalibratedProblem problem = mech::calibratedProblem(options, s.tuneLambdas, *shape_);
  if (!s.tuneLambdas.empty())
    calibrationTitle_->setText(tr("Calibration of candidate 1 (\u03bb = %1) on a part of n = %2, d = %3, C = %4")
                                   .arg(problem.options.learner.lambda, 0, 'g', 4)
                                   .arg(problem.shape.rows).arg(problem.shape.features).arg(problem.shape.classes));
  else
    calibrationTitle_->setText(tr("Calibration for n = %1, d = %2, C = %3")
                                   .arg(problem.shape.rows).arg(problem.shape.features).arg(problem.shape.classes));
  // The scale the run will draw at, and what core warns of before it (δ against the whole
  // training part's n: the guarantee is over all of it).
  showCalibration(mech::calibrateProblem(options, s.tuneLambdas, *shape_, s.noise), *shape_);
}

// Private selection's plan: instant for the public rule's one mechanism; with "among all"
// it bisects over Rényi curves (a second or two with DP-SGD), off the GUI thread, and the
// latest request wins.
void MechanismForm::computeSelectionCalibration() {
  mech::SelectionOptions options = currentSelection();
  options.shared.learner = learner_;
  const mech::ProblemShape shape = *shape_;
  calibrationTitle_->setText(tr("Calibration for n = %1, d = %2, C = %3").arg(shape.rows).arg(shape.features).arg(shape.classes));
  const int generation = ++selectionGeneration_;
  if (!options.settings.tune) {
    // The rule's one mechanism: its own calibration and its warnings.
    showCalibration(mech::calibrateSelection(options, shape), shape);
    return;
  }
  calibrationView_->showMessage(tr("Computing the budget of each run\u2026"));
  using Outcome = std::shared_ptr<const Result<mech::MechanismReport>>;
  auto* watcher = new QFutureWatcher<Outcome>(this);
  connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher, generation, shape] {
    watcher->deleteLater();
    if (generation == selectionGeneration_ && isSelection()) showCalibration(*watcher->result(), shape);
  });
  watcher->setFuture(QtConcurrent::run(
      [options, shape] { return Outcome(std::make_shared<const Result<mech::MechanismReport>>(mech::calibrateSelection(options, shape))); }));
}

void MechanismForm::showCalibration(const Result<mech::MechanismReport>& report, const mech::ProblemShape& shape) {
  calibration_.reset();
  if (!report) {
    calibrationView_->showMessage(QString::fromStdString(report.error().message));
    emit calibrationChanged();
    return;
  }
  calibration_ = report.value();
  emit calibrationChanged();
  calibrationView_->setReport(*calibration_);
  // The calibration's own warning (as published), then core's pre-run warnings (δ not
  // below 1/n, noise that swamps the model, a DP-SGD step beyond what is safe): said
  // before Train, as `dpstudio-cli train` says them.
  QStringList warnings;
  if (!calibration_->warning.empty()) warnings << QString::fromStdString(calibration_->warning);
  TrainingSettings planned;
  planned.learner = learner_;
  planned.privacy = settings();
  for (const std::string& warning : experiment::planWarnings(planned.plan(), *calibration_, shape))
    warnings << QString::fromStdString(warning);
  if (!warnings.isEmpty()) {
    warning_->setText(tr("\u26a0 %1").arg(warnings.join(QStringLiteral("\n\u26a0 "))));
    warning_->setVisible(true);
  }
}

}  // namespace dpstudio::ui
