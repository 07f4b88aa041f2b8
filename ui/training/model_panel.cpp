#include "ui/training/model_panel.h"

#include <QKeyEvent>
#include <QKeySequence>

#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>

#include <QHBoxLayout>

#include <algorithm>

#include "core/experiment/result_baselines.h"
#include "core/experiment/sgd_convergence.h"
#include "ui/dataset/dataset_document.h"
#include "ui/training/calibration_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/prediction_answers_box.h"

namespace dpstudio::ui {
namespace {

// " · 33.3 % most common class": the accuracy of always answering the test part's most
// common class, the floor a model must clear (measured for comparison, not private).
QString mostCommonClassText(const TrainingResult& r) {
  const std::optional<double> common = experiment::mostCommonClassAccuracy(r.data->test);
  return common ? QObject::tr(" \u00b7 %1 most common class").arg(formatPercent(*common)) : QString();
}

const QString kWarningStyle = QStringLiteral(
    "QLabel { color: #8a1c00; background: #fff1e6; border: 1px solid #e8a87c;"
    " border-radius: 3px; padding: 4px; }");
const QString kPrivateStyle = QStringLiteral(
    "QLabel { color: #1b4d20; background: #eef7ee; border: 1px solid #9ccc9f;"
    " border-radius: 3px; padding: 4px; }");

QLabel* valueLabel() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setWordWrap(true);
  return label;
}

QString terminationText(const OptimizeSummary& s) {
  switch (s.termination) {
    case Termination::Converged: return QObject::tr("converged after %n iteration(s)", nullptr, s.iterations);
    case Termination::MaxIterations:
      return QObject::tr("iteration limit reached (%n); not converged", nullptr, s.iterations);
    case Termination::LineSearchFailed:
      return QObject::tr("stopped after %n iteration(s): no step improved the objective "
                         "(usually at machine precision)", nullptr, s.iterations);
    case Termination::NumericalError:
      return QObject::tr("numerical error after %n iteration(s)", nullptr, s.iterations);
    case Termination::Completed: return QObject::tr("completed its %n planned step(s)", nullptr, s.iterations);
    case Termination::Cancelled: return QObject::tr("cancelled");
  }
  return {};
}

QKeySequence trainShortcut() { return QKeySequence(QObject::tr("Ctrl+T")); }

}  // namespace

ModelPanel::ModelPanel(DatasetDocument* datasets, TrainingDocument* training, QWidget* parent)
    : QWidget(parent), datasets_(datasets), training_(training) {
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(makeRestoredBanner());
  form_ = new ModelSettingsForm;
  layout->addWidget(form_);

  trainButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Train"));
  trainButton_->setDefault(true);
  trainButton_->setShortcut(trainShortcut());
  redrawButton_ = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Redraw noise"));
  redrawButton_->setShortcut(QKeySequence(tr("Ctrl+R")));
  sweepButton_ = new QPushButton(tr("Sweep"));
  sweepButton_->setObjectName(QStringLiteral("sweepButton"));
  sweepButton_->setShortcut(QKeySequence(tr("Ctrl+Shift+S")));
  sweepButton_->setToolTip(tr("Draw accuracy against privacy: sweep these settings over \u03b5 (or another "
                              "parameter) for several mechanisms, in the Privacy\u2013utility tab. An experiment "
                              "on your data, not a release (Ctrl+Shift+S)"));
  // The buttons live outside the scrolling form (TrainingDock puts actionBar() under it), so
  // they stay where they are whatever rows the mechanism shows.
  actionBar_ = new QWidget;
  auto* actions = new QVBoxLayout(actionBar_);
  actions->setContentsMargins(0, 0, 0, 0);
  problemLabel_ = new QLabel;
  problemLabel_->setWordWrap(true);
  problemLabel_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
  problemLabel_->setAccessibleName(tr("Problems"));
  actions->addWidget(problemLabel_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(trainButton_, 1);
  buttons->addWidget(redrawButton_, 1);
  buttons->addWidget(sweepButton_, 1);
  actions->addLayout(buttons);
  messageLabel_ = new QLabel;
  messageLabel_->setWordWrap(true);
  layout->addWidget(messageLabel_);
  answersBox_ = new PredictionAnswersBox;
  layout->addWidget(answersBox_);
  layout->addWidget(makeSpreadRow());
  layout->addWidget(makeResultGroup());
  layout->addStretch(1);

  connect(trainButton_, &QPushButton::clicked, this, &ModelPanel::requestTrain);
  connect(redrawButton_, &QPushButton::clicked, this, [this] {
    if (!redrawButton_->isEnabled()) return;
    messageLabel_->clear();
    emit redrawRequested();
  });
  connect(sweepButton_, &QPushButton::clicked, this, &ModelPanel::sweepRequested);
  connect(form_, &ModelSettingsForm::changed, this, &ModelPanel::refreshButton);
  form_->setDataset(datasets_->dataset());
  connect(datasets_, &DatasetDocument::datasetChanged, this, [this] {
    form_->setDatasetSpec(datasets_->source().spec);
    form_->setSeparateTest(false);
    form_->setDataset(datasets_->dataset());
    messageLabel_->clear();
    refreshButton();
  });
  connect(datasets_, &DatasetDocument::testDatasetChanged, this,
          [this] { form_->setSeparateTest(static_cast<bool>(datasets_->testDataset())); });
  connect(training_, &TrainingDocument::modelChanged, this, &ModelPanel::refreshResult);
  // A predictor's noise and accuracy grow with its answers.
  connect(training_, &TrainingDocument::answersChanged, this, &ModelPanel::refreshResult);
  connect(answersBox_, &PredictionAnswersBox::answerRequested, this, &ModelPanel::answerRequested);
  connect(training_, &TrainingDocument::modelChanged, this, &ModelPanel::refreshButton);
  refreshButton();
  refreshResult();
}

QWidget* ModelPanel::makeSpreadRow() {
  spreadRow_ = new QWidget;
  spreadRow_->setObjectName(QStringLiteral("spreadRow"));
  auto* layout = new QVBoxLayout(spreadRow_);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* row = new QHBoxLayout;
  spreadCount_ = new QSpinBox;
  spreadCount_->setObjectName(QStringLiteral("spreadCount"));
  spreadCount_->setRange(2, 200);
  spreadCount_->setValue(20);
  spreadCount_->setAccessibleName(tr("Private models to draw"));
  spreadButton_ = new QPushButton(tr("Draw 20 private models"));
  spreadButton_->setObjectName(QStringLiteral("spreadButton"));
  spreadButton_->setToolTip(tr("Train these settings again with fresh noise, N times (the non-private model once), "
                               "and draw every private model's boundaries faintly: how much the noise moves the "
                               "model. An experiment on your data: not released, not in the ledger."));
  row->addWidget(spreadCount_);
  row->addWidget(spreadButton_, 1);
  layout->addLayout(row);
  auto* note = new QLabel(tr("An experiment on your data: the draws are not released and not recorded."));
  note->setWordWrap(true);
  note->setStyleSheet(QStringLiteral("color: palette(mid);"));
  layout->addWidget(note);
  connect(spreadCount_, &QSpinBox::valueChanged, this,
          [this](int count) { spreadButton_->setText(tr("Draw %1 private models").arg(count)); });
  connect(spreadButton_, &QPushButton::clicked, this, [this] { emit spreadRequested(spreadCount_->value()); });
  spreadRow_->setVisible(false);
  return spreadRow_;
}

QWidget* ModelPanel::makeRestoredBanner() {
  restoredBanner_ = new QFrame;
  restoredBanner_->setObjectName(QStringLiteral("restoredBanner"));
  restoredBanner_->setStyleSheet(QStringLiteral(
      "QFrame#restoredBanner { background: #eef3fb; border: 1px solid #9fb6d9; border-radius: 3px; }"));
  auto* layout = new QVBoxLayout(restoredBanner_);
  restoredLabel_ = new QLabel;
  restoredLabel_->setWordWrap(true);
  restoredLabel_->setAccessibleName(tr("Restored settings"));
  layout->addWidget(restoredLabel_);
  auto* buttons = new QHBoxLayout;
  auto* defaults = new QPushButton(tr("Use Defaults"));
  defaults->setObjectName(QStringLiteral("useDefaultsButton"));
  defaults->setToolTip(tr("Every setting below back to what a first start shows."));
  auto* keep = new QPushButton(tr("Keep"));
  keep->setObjectName(QStringLiteral("keepRestoredButton"));
  buttons->addStretch(1);
  buttons->addWidget(defaults);
  buttons->addWidget(keep);
  layout->addLayout(buttons);
  restoredBanner_->hide();
  connect(defaults, &QPushButton::clicked, this, [this] {
    form_->resetToDefaults();
    restoredBanner_->hide();
  });
  connect(keep, &QPushButton::clicked, restoredBanner_, &QWidget::hide);
  return restoredBanner_;
}

void ModelPanel::showRestored(const QStringList& changes) {
  restoredBanner_->setVisible(!changes.isEmpty());
  restoredLabel_->setText(tr("Restored from your last session: %1.").arg(changes.join(QStringLiteral("; "))));
}

QWidget* ModelPanel::makeResultGroup() {
  auto* group = new QGroupBox(tr("Result"));
  resultForm_ = new QFormLayout(group);
  staleLabel_ = new QLabel;
  staleLabel_->setWordWrap(true);
  staleLabel_->setStyleSheet(kWarningStyle);
  staleLabel_->setAccessibleName(tr("Stale result"));
  resultForm_->addRow(staleLabel_);
  resultForm_->setRowVisible(staleLabel_, false);
  noModelLabel_ = new QLabel(tr("No model yet: choose the settings above and press Train."));
  noModelLabel_->setWordWrap(true);
  noModelLabel_->setForegroundRole(QPalette::PlaceholderText);
  resultForm_->addRow(noModelLabel_);
  privacyLabel_ = new QLabel;
  privacyLabel_->setWordWrap(true);
  privacyLabel_->setStyleSheet(kWarningStyle);
  resultForm_->addRow(privacyLabel_);
  modelLabel_ = valueLabel();
  featuresLabel_ = valueLabel();
  featuresLabel_->setToolTip(tr("The model reads these features instead of the rows: a linear model on them is an "
                                "RBF-kernel machine. The draws never looked at the data (no privacy cost) and are "
                                "published with the model."));
  mechanismLabel_ = valueLabel();
  noiseLabel_ = valueLabel();
  reportView_ = new CalibrationView;
  releaseWarning_ = new QLabel;
  releaseWarning_->setWordWrap(true);
  releaseWarning_->setStyleSheet(kWarningStyle);
  releaseWarning_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  trainAccuracyLabel_ = valueLabel();
  testAccuracyLabel_ = valueLabel();
  optimizerLabel_ = valueLabel();
  objectiveLabel_ = valueLabel();
  timeLabel_ = valueLabel();
  partiesLabel_ = valueLabel();
  distanceLabel_ = valueLabel();
  baselineLabel_ = valueLabel();
  protocolLabel_ = valueLabel();
  transcriptButton_ = new QPushButton(tr("Transcript…"));
  transcriptButton_->setToolTip(tr("Every message of the protocol as a sequence diagram: who sent what to whom, "
                                   "its size, and what its receiver learns."));
  connect(transcriptButton_, &QPushButton::clicked, this, [this] { showTranscript(); });
  protocolRow_ = new QWidget;
  // The button under the label: beside it, a long label pushes it out of a narrow dock.
  auto* protocolLayout = new QVBoxLayout(protocolRow_);
  protocolLayout->setContentsMargins(0, 0, 0, 0);
  protocolLayout->addWidget(protocolLabel_);
  protocolLayout->addWidget(transcriptButton_, 0, Qt::AlignLeft);
  resultForm_->addRow(tr("Model:"), modelLabel_);
  resultForm_->addRow(tr("Features:"), featuresLabel_);
  resultForm_->addRow(tr("Mechanism:"), mechanismLabel_);
  resultForm_->addRow(tr("Noise drawn:"), noiseLabel_);
  resultForm_->addRow(tr("Calibration:"), reportView_);
  resultForm_->addRow(releaseWarning_);
  resultForm_->addRow(tr("Parties:"), partiesLabel_);
  resultForm_->addRow(tr("‖ŵ − w*‖:"), distanceLabel_);
  resultForm_->addRow(tr("All-data DP:"), baselineLabel_);
  resultForm_->addRow(tr("Aggregation:"), protocolRow_);
  resultForm_->addRow(tr("Train accuracy:"), trainAccuracyLabel_);
  resultForm_->addRow(tr("Test accuracy:"), testAccuracyLabel_);
  resultForm_->addRow(tr("Optimizer:"), optimizerLabel_);
  resultForm_->addRow(tr("Objective:"), objectiveLabel_);
  resultForm_->addRow(tr("Time:"), timeLabel_);
  return group;
}

void ModelPanel::requestTrain() {
  if (!trainButton_->isEnabled()) return;
  form_->saveSettings();
  messageLabel_->clear();
  emit trainRequested(form_->settings());
}

void ModelPanel::setTraining(bool training) {
  trainingRunning_ = training;
  answersBox_->setBusy(training);
  trainButton_->setText(training ? tr("Training\u2026") : tr("Train"));
  // setText() replaces a button's shortcut with its text's mnemonic (none here): without
  // this, Ctrl+T stopped working after the first training.
  trainButton_->setShortcut(trainShortcut());
  refreshButton();
}

void ModelPanel::keyPressEvent(QKeyEvent* event) {
  if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) &&
      (event->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier && trainButton_->isEnabled()) {
    trainButton_->animateClick();
    event->accept();
    return;
  }
  QWidget::keyPressEvent(event);
}

void ModelPanel::showTrainingMessage(const QString& message, bool error) {
  messageLabel_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b00020; }") : QString());
  messageLabel_->setText(message);
}

void ModelPanel::refreshButton() {
  const QStringList problems = form_->problems();
  problemLabel_->setText(problems.join(QLatin1Char('\n')));
  problemLabel_->setVisible(!problems.isEmpty());
  const bool hasData = datasets_->hasDataset();
  trainButton_->setEnabled(problems.isEmpty() && hasData && !trainingRunning_);
  const bool shown = training_->isModelOf(datasets_->dataset());
  const QStringList changes =
      shown ? settingsChanges(training_->result()->settings, form_->settings()) : QStringList();
  refreshStale(changes);
  refreshAnswersBox();
  const bool redrawable = shown && training_->result()->isPrivate();
  // Draw N: a private model release (not a predictor's answers), as Redraw.
  spreadRow_->setVisible(shown && training_->result()->release.has_value());
  spreadButton_->setEnabled(!trainingRunning_ && problems.isEmpty() && changes.isEmpty());
  redrawButton_->setEnabled(redrawable && !trainingRunning_ && problems.isEmpty() && changes.isEmpty());
  redrawButton_->setToolTip(
      !redrawable ? tr("Train a private model first: Redraw noise shows how much its noise moves it.")
      : !problems.isEmpty() ? tr("Fix the marked fields first:\n%1").arg(problems.join(QLatin1Char('\n')))
      : !changes.isEmpty()
          ? tr("The settings above changed since the model shown was trained (%1). Redraw noise repeats the "
               "settings of the model shown, so it is off: press Train to train with the settings above.")
                .arg(changes.join(QStringLiteral(", ")))
      : training_->result()->isPrediction()
          ? tr("A new repetition of the private predictor shown (Ctrl+R): the same non-private model, a new budget "
               "of B answers and new noise (the next seed in experiment mode). It is a release of its own, recorded "
               "in the privacy ledger at its first answer.")
          : tr("Train the private model shown again with a new noise draw (Ctrl+R): the next seed in "
               "experiment mode, fresh OS randomness in release mode. Each draw is a release of its own "
               "and is recorded in the privacy ledger."));
  if (!problems.isEmpty())
    trainButton_->setToolTip(tr("Fix the marked fields first:\n%1").arg(problems.join(QLatin1Char('\n'))));
  else if (!hasData)
    trainButton_->setToolTip(tr("Open a dataset first."));
  else if (trainingRunning_)
    trainButton_->setToolTip(tr("A model is training; Cancel is in the status bar."));
  else
    trainButton_->setToolTip(tr("Train the model on the current dataset (Ctrl+T). The view then shows its "
                                "decision regions."));
}

void ModelPanel::refreshAnswersBox() {
  // The group belongs to the predictor shown while the dock is still about predictors: after
  // switching the dock to another mechanism it goes (the stale mark says what is shown).
  const bool prediction = training_->hasModel() && training_->result()->isPrediction();
  answersBox_->setVisible(prediction && form_->mechanismForm()->predictionKind().has_value());
}

void ModelPanel::refreshStale(const QStringList& changes) {
  const bool stale = !changes.isEmpty();
  resultForm_->setRowVisible(staleLabel_, stale);
  if (stale)
    staleLabel_->setText(tr("\u26a0 Stale: the settings above changed since this result was trained (%1). It "
                            "still shows the earlier settings; press Train to use the new ones.")
                             .arg(changes.join(QStringLiteral(", "))));
  const QString note = stale ? tr("stale: settings changed since (%1)").arg(changes.join(QStringLiteral(", ")))
                             : QString();
  if (note != staleNote_) {
    staleNote_ = note;
    emit staleChanged(note);
  }
}

void ModelPanel::refreshResult() {
  const bool has = training_->hasModel();
  const bool isPrivate = has && training_->result()->isPrivate();
  noModelLabel_->setVisible(!has);
  for (QLabel* label : {privacyLabel_, modelLabel_, trainAccuracyLabel_, testAccuracyLabel_, optimizerLabel_,
                        objectiveLabel_, timeLabel_})
    resultForm_->setRowVisible(label, has);
  for (QWidget* widget : std::initializer_list<QWidget*>{mechanismLabel_, noiseLabel_, reportView_})
    resultForm_->setRowVisible(widget, isPrivate);
  resultForm_->setRowVisible(releaseWarning_, false);
  const std::optional<RandomFeaturesSpec> map =
      has ? training_->result()->settings.data.preprocess.randomFeatures : std::nullopt;
  resultForm_->setRowVisible(featuresLabel_, map.has_value());
  if (map)
    featuresLabel_->setText(featureMapDisplayName(*map) +
                            (training_->result()->settings.data.preprocess.intercept ? tr(", + intercept")
                                                                                      : QString()));
  for (QLabel* label : {partiesLabel_, distanceLabel_, baselineLabel_}) resultForm_->setRowVisible(label, false);
  resultForm_->setRowVisible(protocolRow_, false);
  const bool prediction = has && training_->result()->isPrediction();
  refreshAnswersBox();
  answersBox_->setAnswers(prediction ? training_->answers().get() : nullptr);
  if (!has) return;

  const TrainingResult& r = *training_->result();
  if (prediction) {
    showPrediction(r);
    return;
  }
  showPrivacyStatement(r);
  showModelDescription(r);
  if (isPrivate) {
    showRelease(r);
  } else {
    trainAccuracyLabel_->setText(formatPercent(r.trainAccuracy));
    testAccuracyLabel_->setText(r.testAccuracy ? formatPercent(*r.testAccuracy) + mostCommonClassText(r)
                                               : tr("\u2014 (no test part)"));
    timeLabel_->setToolTip(QString());
  }
  showOptimizer(r);
  const QLocale locale;
  const double seconds = isPrivate ? r.release->seconds : r.seconds;
  timeLabel_->setText(seconds < 1.0 ? tr("%1 ms").arg(locale.toString(seconds * 1000.0, 'f', 0))
                                    : tr("%1 s").arg(locale.toString(seconds, 'f', 2)));
}

void ModelPanel::showPrivacyStatement(const TrainingResult& r) {
  if (!r.isPrivate()) {
    privacyLabel_->setStyleSheet(kWarningStyle);
    privacyLabel_->setText(tr("\u26a0 Not private: no mechanism"));
    privacyLabel_->setToolTip(tr("The model is trained exactly on the data and can reveal information "
                                 "about individual rows."));
    return;
  }
  const mech::MechanismReport& report = r.release->report;
  const bool published = report.calibration == mech::Calibration::Published;
  privacyLabel_->setStyleSheet(published ? kWarningStyle : kPrivateStyle);
  privacyLabel_->setText((published ? tr("\u26a0 ") : QString()) + QString::fromStdString(report.statement));
  privacyLabel_->setToolTip(tr("The privacy statement of the released (private) model. The non-private model "
                               "beside it is a reference and is not released."));
}

void ModelPanel::showModelDescription(const TrainingResult& r) {
  const LearnerSpec& spec = r.settings.learner;
  const QLocale locale;
  QString model = tr("%1, \u03bb = %2").arg(modelDisplayName(spec.kind), QString::number(spec.lambda, 'g', 4));
  if (spec.kind == ModelKind::HuberSvm || spec.kind == ModelKind::Lmgc)
    model += tr(", h = %1").arg(spec.huber, 0, 'g', 4);
  model += tr("\non %1: %2 training rows, %3 test rows")
               .arg(r.datasetName, locale.toString(static_cast<qlonglong>(r.data->train.rows())),
                    locale.toString(static_cast<qlonglong>(r.data->test.rows())));
  modelLabel_->setText(model);
}

void ModelPanel::showRelease(const TrainingResult& r) {
  const PrivateRelease& release = *r.release;
  const mech::MechanismReport& report = release.report;
  QString mechanism = tr("%1, %2 calibration; %3 noise from %4")
                          .arg(privacyDisplayName(r.settings.privacy),
                               QString::fromStdString(report.calibrationWord()), noiseDisplayName(report.noise),
                               QString::fromStdString(release.noise.describe()));
  if (const auto chosen = report.find(mech::Calibrated::ChosenLambda))
    mechanism += tr("\n\u03bb chosen privately: %1 (the \u03bb above is the non-private model's)")
                     .arg(*chosen, 0, 'g', 4);
  mechanismLabel_->setText(mechanism);
  QStringList norms;
  for (double norm : report.noiseNorms) norms << formatDerivedValue(norm);
  noiseLabel_->setText(
      tr("\u2016b\u2016 = %1 (E\u2016b\u2016 = %2)")
          .arg(norms.isEmpty() ? tr("\u2014") : norms.join(QStringLiteral(", ")), formatDerivedValue(report.expectedNoiseNorm)));
  noiseLabel_->setToolTip(
      (report.noiseNorms.size() > 1 ? tr("One draw per released part (one-vs-rest: one per class).")
                                    : tr("The norm of the noise actually drawn, and its expectation.")) +
      tr(" Not private: beside the released model it says how far the exact one is — a diagnostic for "
         "experiments, never to be published with the model."));
  reportView_->setReport(report);
  if (!report.warning.empty()) {
    releaseWarning_->setText(tr("\u26a0 %1").arg(QString::fromStdString(report.warning)));
    resultForm_->setRowVisible(releaseWarning_, true);
  }
  if (r.multiparty) showMultiparty(r);
  const QString reference = r.multiparty ? tr("all-data non-private") : tr("non-private");
  const auto pair = [&reference](double privateValue, double baseline) {
    return tr("%1 private \u00b7 %2 %3").arg(formatPercent(privateValue), formatPercent(baseline), reference);
  };
  trainAccuracyLabel_->setText(pair(release.trainAccuracy, r.trainAccuracy));
  testAccuracyLabel_->setText(release.testAccuracy && r.testAccuracy
                                  ? pair(*release.testAccuracy, *r.testAccuracy) + mostCommonClassText(r)
                                  : tr("\u2014 (no test part)"));
  const auto warn = [this](const std::string& warning) {
    const QString text = tr("\u26a0 %1").arg(QString::fromStdString(warning));
    releaseWarning_->setText(resultForm_->isRowVisible(releaseWarning_) ? releaseWarning_->text() + QStringLiteral("\n") + text
                                                                       : text);
    resultForm_->setRowVisible(releaseWarning_, true);
  };
  // DP-SGD: the same steps without noise tell underfitting apart from the price of privacy.
  if (r.noiseFreeSgdAccuracy) {
    testAccuracyLabel_->setText(testAccuracyLabel_->text() +
                                tr("\n%1 DP-SGD without noise").arg(formatPercent(*r.noiseFreeSgdAccuracy)));
    testAccuracyLabel_->setToolTip(tr("DP-SGD without noise: the same steps, batches and clipping with noise "
                                      "multiplier 0, scored on the test part (measured on the data, NOT private, "
                                      "not released)."));
    if (r.testAccuracy)
      if (auto underfit = experiment::sgdUnderfitsWarning(*r.noiseFreeSgdAccuracy, *r.testAccuracy)) warn(*underfit);
  } else {
    testAccuracyLabel_->setToolTip(QString());
  }
  // A release no better than always answering the most common class has learned nothing
  // usable at this privacy level: say so where the accuracy is read.
  const std::optional<double> common = experiment::mostCommonClassAccuracy(r.data->test);
  if (release.testAccuracy && common)
    if (auto useless = experiment::noBetterThanMostCommonClassWarning(*release.testAccuracy, *common)) warn(*useless);
  timeLabel_->setToolTip(tr("Private training; the non-private model took %1 s.").arg(r.seconds, 0, 'f', 2));
}

void ModelPanel::showOptimizer(const TrainingResult& r) {
  // Multiparty trains K + 1 exact minimizers, not one run to report.
  for (QLabel* label : {optimizerLabel_, objectiveLabel_}) resultForm_->setRowVisible(label, !r.multiparty);
  const TrainedModel& shown = r.shownModel();
  const OptimizeSummary& summary = shown.summary;
  const QLocale locale;
  if (shown.classSummaries.empty()) {
    optimizerLabel_->setText(terminationText(summary));
    objectiveLabel_->setText(tr("%1 (gradient norm %2)")
                                 .arg(locale.toString(summary.objective, 'g', 6),
                                      locale.toString(summary.gradientNorm, 'g', 2)));
    return;
  }
  // One-vs-rest: C separate problems. Their sums would be no problem's numbers; the worst
  // class is what says whether the model is trustworthy.
  int most = 0;
  double largestGradient = 0.0;
  QStringList iterations;
  for (const OptimizeSummary& s : shown.classSummaries) {
    most = std::max(most, s.iterations);
    largestGradient = std::max(largestGradient, s.gradientNorm);
    iterations << QString::number(s.iterations);
  }
  OptimizeSummary worst = summary;
  worst.iterations = most;
  optimizerLabel_->setText(tr("%1; one-vs-rest, per class: %2 iterations")
                               .arg(terminationText(worst), iterations.join(QStringLiteral(", "))));
  objectiveLabel_->setText(tr("%n separate problem(s); largest gradient norm %1", nullptr,
                              static_cast<int>(shown.classSummaries.size()))
                               .arg(locale.toString(largestGradient, 'g', 2)));
}

void ModelPanel::showPrediction(const TrainingResult& r) {
  const PredictionRelease& prediction = *r.prediction;
  const mech::MechanismReport& report = prediction.report();
  const PredictionAnswers* answers = training_->answers().get();
  const bool published = report.calibration == mech::Calibration::Published;
  privacyLabel_->setStyleSheet(published ? kWarningStyle : kPrivateStyle);
  privacyLabel_->setText((published ? tr("\u26a0 ") : QString()) + QString::fromStdString(report.statement));
  privacyLabel_->setToolTip(tr("The guarantee covers the budget's B answers together. Training the predictor "
                               "released nothing; the model (or teachers) it answers from is not released."));
  const LearnerSpec& spec = r.settings.learner;
  modelLabel_->setText(tr("%1, \u03bb = %2 (not released)\non %3: %4 training rows, %5 test rows")
                           .arg(modelDisplayName(spec.kind), QString::number(spec.lambda, 'g', 4), r.datasetName)
                           .arg(r.data->train.rows())
                           .arg(r.data->test.rows()));
  const QString source = answers ? QString::fromStdString(answers->noise().describe()) : QString();
  QString mechanism;
  if (prediction.isSubsample()) {
    const auto& teachers = std::get<predict::SubsampleAggregate>(prediction.predictor).teachers();
    mechanism = tr("%1, %2 calibration; T = %3 teachers of %4 rows; votes sampled with noise from %5")
                    .arg(privacyDisplayName(r.settings.privacy), QString::fromStdString(report.calibrationWord()))
                    .arg(teachers.teachers())
                    .arg(teachers.partRows)
                    .arg(source);
    noiseLabel_->setText(tr("per answer: a label drawn with probability \u221d exp(\u03b2\u00b7votes)"));
    noiseLabel_->setToolTip(QString());
  } else {
    mechanism = tr("%1, %2 calibration; %3 noise on the scores of each answer, from %4")
                    .arg(privacyDisplayName(r.settings.privacy), QString::fromStdString(report.calibrationWord()),
                         noiseDisplayName(report.noise), source);
    const bool any = answers && !answers->noiseNorms().empty();
    noiseLabel_->setText(tr("per answer: mean \u2016b\u2016 = %1 over %2 answers (E\u2016b\u2016 = %3)")
                             .arg(any ? formatDerivedValue(answers->meanNoiseNorm()) : tr("\u2014"))
                             .arg(answers ? answers->answered() : 0)
                             .arg(formatDerivedValue(report.expectedNoiseNorm)));
    noiseLabel_->setToolTip(tr("A diagnostic: the noise itself is never released, only the noisy scores' label."));
  }
  mechanismLabel_->setText(mechanism);
  reportView_->setReport(report);
  if (!report.warning.empty()) {
    releaseWarning_->setText(tr("\u26a0 %1").arg(QString::fromStdString(report.warning)));
    resultForm_->setRowVisible(releaseWarning_, true);
  }
  // The accuracies are the answers' (the Private answers group): answering the training
  // points would spend budget, so they are not measured.
  for (QLabel* label : {trainAccuracyLabel_, testAccuracyLabel_, optimizerLabel_, objectiveLabel_})
    resultForm_->setRowVisible(label, false);
  const QLocale locale;
  timeLabel_->setText(prediction.seconds < 1.0 ? tr("%1 ms").arg(locale.toString(prediction.seconds * 1000.0, 'f', 0))
                                               : tr("%1 s").arg(locale.toString(prediction.seconds, 'f', 2)));
  timeLabel_->setToolTip(prediction.isSubsample() ? tr("Training the T teachers.") : tr("Training \u03b8*."));
}

}  // namespace dpstudio::ui
