#include "ui/model_panel.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

#include "ui/dataset_document.h"
#include "ui/model_settings_form.h"

namespace dpstudio::ui {
namespace {

const QString kWarningStyle = QStringLiteral(
    "QLabel { color: #8a1c00; background: #fff1e6; border: 1px solid #e8a87c;"
    " border-radius: 3px; padding: 4px; }");

QLabel* valueLabel() {
  auto* label = new QLabel;
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setWordWrap(true);
  return label;
}

QString percent(double fraction) {
  return QLocale().toString(100.0 * fraction, 'f', 1) + QStringLiteral("\u202f%");
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
    case Termination::Cancelled: return QObject::tr("cancelled");
  }
  return {};
}

}  // namespace

ModelPanel::ModelPanel(DatasetDocument* datasets, TrainingDocument* training, QWidget* parent)
    : QWidget(parent), datasets_(datasets), training_(training) {
  auto* layout = new QVBoxLayout(this);
  form_ = new ModelSettingsForm;
  layout->addWidget(form_);

  trainButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Train"));
  trainButton_->setDefault(true);
  trainButton_->setShortcut(QKeySequence(tr("Ctrl+T")));
  layout->addWidget(trainButton_);
  problemLabel_ = new QLabel;
  problemLabel_->setWordWrap(true);
  problemLabel_->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
  layout->addWidget(problemLabel_);
  messageLabel_ = new QLabel;
  messageLabel_->setWordWrap(true);
  layout->addWidget(messageLabel_);
  layout->addWidget(makeResultGroup());
  layout->addStretch(1);

  connect(trainButton_, &QPushButton::clicked, this, &ModelPanel::requestTrain);
  connect(form_, &ModelSettingsForm::changed, this, &ModelPanel::refreshButton);
  connect(datasets_, &DatasetDocument::datasetChanged, this, [this] {
    form_->setDatasetSpec(datasets_->source().spec);
    messageLabel_->clear();
    refreshButton();
  });
  connect(training_, &TrainingDocument::modelChanged, this, &ModelPanel::refreshResult);
  refreshButton();
  refreshResult();
}

QWidget* ModelPanel::makeResultGroup() {
  auto* group = new QGroupBox(tr("Result"));
  resultForm_ = new QFormLayout(group);
  noModelLabel_ = new QLabel(tr("No model yet: choose the settings above and press Train."));
  noModelLabel_->setWordWrap(true);
  noModelLabel_->setForegroundRole(QPalette::PlaceholderText);
  resultForm_->addRow(noModelLabel_);
  privacyLabel_ = new QLabel;
  privacyLabel_->setWordWrap(true);
  privacyLabel_->setStyleSheet(kWarningStyle);
  resultForm_->addRow(privacyLabel_);
  modelLabel_ = valueLabel();
  trainAccuracyLabel_ = valueLabel();
  testAccuracyLabel_ = valueLabel();
  optimizerLabel_ = valueLabel();
  objectiveLabel_ = valueLabel();
  timeLabel_ = valueLabel();
  resultForm_->addRow(tr("Model:"), modelLabel_);
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
  trainButton_->setText(training ? tr("Training\u2026") : tr("Train"));
  refreshButton();
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

void ModelPanel::refreshResult() {
  const bool has = training_->hasModel();
  noModelLabel_->setVisible(!has);
  for (QLabel* label : {privacyLabel_, modelLabel_, trainAccuracyLabel_, testAccuracyLabel_, optimizerLabel_,
                        objectiveLabel_, timeLabel_})
    resultForm_->setRowVisible(label, has);
  if (!has) return;

  const TrainingResult& r = *training_->result();
  const LearnerSpec& spec = r.settings.learner;
  const QLocale locale;
  privacyLabel_->setText(tr("\u26a0 Not private: no mechanism"));
  privacyLabel_->setToolTip(tr("The model is trained exactly on the data and can reveal information "
                               "about individual rows."));
  QString model = tr("%1, \u03bb = %2").arg(modelDisplayName(spec.kind), QString::number(spec.lambda, 'g', 4));
  if (spec.kind == ModelKind::HuberSvm || spec.kind == ModelKind::Lmgc)
    model += tr(", h = %1").arg(spec.huber, 0, 'g', 4);
  model += tr("\non %1: %2 training rows, %3 test rows")
               .arg(r.datasetName, locale.toString(static_cast<qlonglong>(r.data.train.rows())),
                    locale.toString(static_cast<qlonglong>(r.data.test.rows())));
  modelLabel_->setText(model);
  trainAccuracyLabel_->setText(percent(r.trainAccuracy));
  testAccuracyLabel_->setText(r.testAccuracy ? percent(*r.testAccuracy) : tr("\u2014 (no test part)"));
  const OptimizeSummary& summary = r.model.summary;
  optimizerLabel_->setText(terminationText(summary));
  objectiveLabel_->setText(tr("%1 (gradient norm %2)")
                               .arg(locale.toString(summary.objective, 'g', 6),
                                    locale.toString(summary.gradientNorm, 'g', 2)));
  timeLabel_->setText(r.seconds < 1.0 ? tr("%1 ms").arg(locale.toString(r.seconds * 1000.0, 'f', 0))
                                      : tr("%1 s").arg(locale.toString(r.seconds, 'f', 2)));
}

}  // namespace dpstudio::ui
