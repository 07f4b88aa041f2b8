#include "ui/privacy/audit_view.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>
#include <memory>

#include "core/audit/audit_problem.h"
#include "ui/dataset/dataset_document.h"
#include "ui/plot/view_export.h"
#include "ui/plot/series_legend.h"
#include "ui/privacy/audit_chart.h"
#include "ui/privacy/audit_form.h"
#include "ui/privacy/audit_result_json.h"
#include "ui/widgets/focus_follow.h"

namespace dpstudio::ui {
namespace {

const QString kExportDirKey = QStringLiteral("dialogs/auditExportDirectory");

struct AuditRun {
  audit::AuditResult result;
  AuditSettings settings;
  std::shared_ptr<const Dataset> dataset;  // audited, or null for core's built-in problem
};

// The worker: build D and D' (core's built-in pair, or the dataset's training part with a
// canary chosen against it, as dpstudio-cli audit does), then run the audit.
Result<AuditRun> runAuditJob(const AuditSettings& settings, const std::shared_ptr<const Dataset>& dataset,
                             const SplitAndPreprocess& preparation, const Progress& progress) {
  const auto planned = settings.options();
  if (!planned) return planned.error();
  const audit::AuditOptions& options = planned.value();
  Result<audit::AuditProblem> problem = Error{};
  if (settings.onDataset) {
    auto prepared = prepareLoaded(*dataset, std::nullopt, preparation);
    if (!prepared) return prepared.error();
    if (progress.cancelled()) return Error::cancelled();
    problem = audit::auditProblemFromData(options, prepared.value().train, prepared.value().test);
  } else {
    problem = audit::builtinAuditProblem(options);
  }
  if (!problem) return problem.error();
  if (progress.cancelled()) return Error::cancelled();
  // Choosing the canary trains the noise-free model once: a sliver of the bar.
  progress.report(0.03);
  const Progress runs([&progress](double f) { progress.report(0.03 + 0.97 * f); }, progress.stopToken());
  auto result = audit::runAudit(options, problem.value(), runs);
  if (!result) return result.error();
  return AuditRun{std::move(result).value(), settings, settings.onDataset ? dataset : nullptr};
}

QLabel* detailLabel() {
  auto* label = new QLabel;
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // wrap rather than widen the column
  return label;
}

QScrollArea* scrolled(QWidget* widget) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(widget);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  followFocus(scroll);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // Always on: with word-wrapped labels (their height depends on their width) a scroll bar
  // that appears after the column is laid out leaves the column its width without it, and
  // its right edge was clipped by the bar's width.
  scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
  return scroll;
}

}  // namespace

AuditView::AuditView(DatasetDocument* datasets, QWidget* parent) : QWidget(parent), datasets_(datasets) {
  // The form in a column of its own; beside it the verdict over the plot, so that all three
  // fit the ~530 px the central area has between the docks at 1366×768 without scrolling
  // sideways. The user's dragging of either splitter then holds.
  auto* splitter = splitter_ = new QSplitter(Qt::Horizontal);
  splitter->setChildrenCollapsible(false);
  QWidget* formColumn = makeFormColumn();
  splitter->addWidget(formColumn);
  auto* resultAndPlot = new QSplitter(Qt::Vertical);
  resultAndPlot->setChildrenCollapsible(false);
  QScrollArea* resultScroll = scrolled(makeResultColumn());
  resultScroll->setMinimumSize(230, 120);  // the two export buttons side by side
  resultAndPlot->addWidget(resultScroll);
  chart_ = new AuditChart;
  chart_->setMinimumSize(200, 200);
  auto* chartWithLegend = new QWidget;
  auto* chartLayout = new QVBoxLayout(chartWithLegend);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->setSpacing(2);
  chartLayout->addWidget(chart_, 1);
  chartLayout->addWidget(chart_->legendWidget());
  resultAndPlot->addWidget(chartWithLegend);
  resultAndPlot->setStretchFactor(0, 2);
  resultAndPlot->setStretchFactor(1, 3);
  splitter->addWidget(resultAndPlot);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(splitter);

  connect(form_, &AuditForm::changed, this, &AuditView::refreshRunButton);
  connect(datasets_, &DatasetDocument::datasetChanged, this, &AuditView::refreshRunButton);
  connect(form_, &AuditForm::changed, this, &AuditView::refreshStale);
  connect(datasets_, &DatasetDocument::datasetChanged, this, &AuditView::refreshStale);
  refreshRunButton();
}

void AuditView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (splitterSized_) return;
  // Once the width is known: the form at its own width (no wider than half the page), the
  // rest for the verdict and the plot.
  splitterSized_ = true;
  const int form = std::min(splitter_->widget(0)->sizeHint().width(), splitter_->width() / 2);
  splitter_->setSizes({form, std::max(0, splitter_->width() - form - splitter_->handleWidth())});
}

AuditView::~AuditView() {
  // The job is our child and would stop its worker when deleted anyway; say so explicitly.
  if (job_) job_->cancel();
}

QWidget* AuditView::makeFormColumn() {
  // The form scrolls if the page is short; the reasons and Run stay in sight below it.
  auto* column = new QWidget;
  auto* layout = new QVBoxLayout(column);
  layout->setContentsMargins(6, 6, 6, 6);
  form_ = new AuditForm;
  QScrollArea* formScroll = scrolled(form_);
  formScroll->setMinimumWidth(form_->minimumSizeHint().width() + formScroll->verticalScrollBar()->sizeHint().width());
  layout->addWidget(formScroll, 1);

  problemLabel_ = new QLabel;
  problemLabel_->setWordWrap(true);
  problemLabel_->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
  layout->addWidget(problemLabel_);

  runButton_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Run Audit"));
  runButton_->setDefault(true);
  runButton_->setToolTip(tr("Run the mechanism N times on D and on D\u2032 and bound \u03b5 from below.\n"
                            "Audits spend no privacy budget and are not recorded in the ledger: they are "
                            "experiments on your own data, and their outputs are never released."));
  cancelButton_ = new QPushButton(style()->standardIcon(QStyle::SP_DialogCancelButton), tr("Cancel"));
  cancelButton_->setToolTip(tr("Stop the audit; the previous result stays shown."));
  cancelButton_->setEnabled(false);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(runButton_, 1);
  buttons->addWidget(cancelButton_);
  layout->addLayout(buttons);
  connect(runButton_, &QPushButton::clicked, this, &AuditView::run);
  connect(cancelButton_, &QPushButton::clicked, this, &AuditView::cancel);

  statusLabel_ = new QLabel;
  statusLabel_->setWordWrap(true);
  statusLabel_->hide();
  layout->addWidget(statusLabel_);
  return column;
}

QWidget* AuditView::makeResultColumn() {
  auto* column = new QWidget;
  auto* layout = new QVBoxLayout(column);
  layout->setContentsMargins(6, 6, 6, 6);
  verdictLabel_ = new QLabel(tr("No audit yet."));
  verdictLabel_->setWordWrap(true);
  // Wrapped to the column, never widening it: a wider column would be clipped by its scroll
  // area (no horizontal scroll bar), as the details were at 1300 px.
  verdictLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  QFont big = verdictLabel_->font();
  big.setPointSizeF(big.pointSizeF() * 1.15);
  big.setBold(true);
  verdictLabel_->setFont(big);
  layout->addWidget(verdictLabel_);
  staleLabel_ = new QLabel;
  staleLabel_->setWordWrap(true);
  staleLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  staleLabel_->setStyleSheet(QStringLiteral("QLabel { color: #7a4f01; background: #fff8e1; padding: 4px 8px; }"));
  staleLabel_->setAccessibleName(tr("Stale result"));
  staleLabel_->hide();
  layout->addWidget(staleLabel_);
  noteLabel_ = new QLabel(tr("An audit gives a lower bound on \u03b5: it can prove a claimed \u03b5 wrong, never "
                             "prove a mechanism private."));
  noteLabel_->setWordWrap(true);
  noteLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  noteLabel_->setForegroundRole(QPalette::PlaceholderText);
  layout->addWidget(noteLabel_);

  details_ = new QFormLayout;
  details_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  details_->setRowWrapPolicy(QFormLayout::DontWrapRows);
  mechanismLabel_ = detailLabel();
  claimLabel_ = detailLabel();
  epsilonLowerLabel_ = detailLabel();
  powerLabel_ = detailLabel();
  testLabel_ = detailLabel();
  runsLabel_ = detailLabel();
  problemText_ = detailLabel();
  statisticText_ = detailLabel();
  warningText_ = detailLabel();
  warningText_->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
  details_->addRow(tr("Mechanism:"), mechanismLabel_);
  details_->addRow(tr("Claimed:"), claimLabel_);
  details_->addRow(tr("\u03b5_lower:"), epsilonLowerLabel_);
  details_->addRow(tr("Power:"), powerLabel_);
  details_->addRow(tr("Test:"), testLabel_);
  details_->addRow(tr("Runs:"), runsLabel_);
  details_->addRow(tr("Problem:"), problemText_);
  details_->addRow(tr("Statistic:"), statisticText_);
  details_->addRow(tr("Warning:"), warningText_);
  epsilonLowerLabel_->setToolTip(tr("Certified at 95% confidence: the test is chosen on half of the runs and its "
                                    "error rates are bounded (Clopper\u2013Pearson) on the other half. "
                                    "\u03b5_lower > \u03b5 proves the claim wrong."));
  powerLabel_->setToolTip(tr("The largest \u03b5_lower these runs could certify: that of a test that tells every "
                             "held-out run on D from every one on D\u2032. No violation of a claimed \u03b5 at or "
                             "above it can be detected; more runs raise it."));
  layout->addLayout(details_);

  exportPlotButton_ = new QPushButton(tr("Export Plot\u2026"));
  exportPlotButton_->setToolTip(tr("Save the trade-off plot as PNG or SVG."));
  exportResultButton_ = new QPushButton(tr("Export Result\u2026"));
  exportResultButton_->setToolTip(tr("Save the result as JSON, with the keys of dpstudio-cli audit --json."));
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(exportPlotButton_);
  buttons->addWidget(exportResultButton_);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  layout->addStretch(1);
  connect(exportPlotButton_, &QPushButton::clicked, this, &AuditView::showExportPlotDialog);
  connect(exportResultButton_, &QPushButton::clicked, this, &AuditView::showExportResultDialog);

  for (QWidget* row : {static_cast<QWidget*>(mechanismLabel_), static_cast<QWidget*>(claimLabel_),
                       static_cast<QWidget*>(epsilonLowerLabel_), static_cast<QWidget*>(powerLabel_),
                       static_cast<QWidget*>(testLabel_),
                       static_cast<QWidget*>(runsLabel_), static_cast<QWidget*>(problemText_),
                       static_cast<QWidget*>(statisticText_), static_cast<QWidget*>(warningText_)})
    details_->setRowVisible(row, false);
  exportPlotButton_->setEnabled(false);
  exportResultButton_->setEnabled(false);
  return column;
}

QStringList AuditView::problems() const {
  QStringList lines = form_->problems();
  if (form_->settings().onDataset && !datasets_->hasDataset())
    lines << tr("Data: no dataset is open; audit the built-in problem or open one.");
  return lines;
}

void AuditView::refreshRunButton() {
  const QStringList reasons = problems();
  problemLabel_->setText(reasons.join(QLatin1Char('\n')));
  problemLabel_->setVisible(!reasons.isEmpty());
  runButton_->setEnabled(reasons.isEmpty() && !isRunning());
  cancelButton_->setEnabled(isRunning() && !job_->stopRequested());
}

void AuditView::setStatus(const QString& text, bool error) {
  statusLabel_->setText(text);
  statusLabel_->setStyleSheet(error ? QStringLiteral("QLabel { color: #b71c1c; }") : QString());
  statusLabel_->setVisible(!text.isEmpty());
}

void AuditView::run() {
  if (isRunning() || !problems().isEmpty()) return;
  const AuditSettings settings = form_->settings();
  std::shared_ptr<const Dataset> dataset;
  SplitAndPreprocess preparation;
  if (settings.onDataset) {
    dataset = datasets_->dataset();
    if (preparation_) {
      auto prepared = preparation_();
      if (!prepared) {
        setStatus(tr("The current dataset cannot be prepared: %1").arg(QString::fromStdString(prepared.error().message)),
                  true);
        return;
      }
      preparation = prepared.value();
    }
  }
  auto* job = startJob<AuditRun>(
      tr("Auditing %1").arg(auditMechanismTitle(settings.mechanism)),
      [settings, dataset, preparation](const Progress& progress) {
        return runAuditJob(settings, dataset, preparation, progress);
      },
      this);
  job_ = job;
  connect(job, &JobHandle::finished, this, [this, job](JobHandle::State state) { finishRun(job, state); });
  connect(job, &JobHandle::progressChanged, this, [this](double fraction) {
    setStatus(tr("Auditing\u2026 %1%").arg(static_cast<int>(fraction * 100.0)), false);
  });
  setStatus(tr("Auditing\u2026"), false);
  refreshRunButton();
  emit runningChanged(true);
  emit jobStarted(job);
}

void AuditView::cancel() {
  if (!job_) return;
  job_->cancel();
  refreshRunButton();
}

void AuditView::finishRun(JobHandle* handle, JobHandle::State state) {
  auto* job = static_cast<Job<AuditRun>*>(handle);
  job->deleteLater();
  if (job_ == job) job_.clear();
  switch (state) {
    case JobHandle::State::Succeeded: {
      AuditRun run = job->takeValue();
      setStatus(QString(), false);
      resultSettings_ = run.settings;
      resultDataset_ = std::move(run.dataset);
      showResult(run.result, run.settings.seed);
      refreshStale();
      break;
    }
    case JobHandle::State::Failed:
      setStatus(tr("The audit failed: %1").arg(job->errorText()), true);
      break;
    case JobHandle::State::Cancelled:
      setStatus(result_ ? tr("Audit cancelled; the previous result is still shown.") : tr("Audit cancelled."), false);
      break;
    case JobHandle::State::Running: break;
  }
  refreshRunButton();
  emit runningChanged(false);
}

void AuditView::showResult(const audit::AuditResult& r, std::uint64_t seed) {
  result_ = r;
  resultSeed_ = seed;
  const QString lower = QString::number(r.epsilonLower, 'f', 3);
  const QString claimed = QString::number(r.epsilon, 'g', 6);
  const QString most = QString::number(r.detectableEpsilon, 'f', 3);
  if (r.violation) {
    verdictLabel_->setText(tr("Violation\n\u03b5_lower = %1 > claimed \u03b5 = %2").arg(lower, claimed));
    verdictLabel_->setToolTip(tr("At 95% confidence the mechanism is not %1-DP as claimed.").arg(claimed));
    verdictLabel_->setStyleSheet(QStringLiteral("QLabel { color: white; background: #c62828; padding: 6px 10px; "
                                                "border-radius: 3px; }"));
  } else {
    // "No violation" says as much as the runs could: next to it, the most they could certify.
    const QString power = r.epsilon >= r.detectableEpsilon
                              ? tr("none detectable: %L1 runs certify at most \u03b5 = %2").arg(r.trials).arg(most)
                              : tr("%L1 runs could certify at most \u03b5 = %2").arg(r.trials).arg(most);
    verdictLabel_->setText(tr("No violation detected\n\u03b5_lower = %1 \u2264 claimed \u03b5 = %2\n%3")
                               .arg(lower, claimed, power));
    verdictLabel_->setToolTip(tr("The audit could not refute the claim. That is not a proof of privacy: an "
                                 "\u03b5_lower far below the claim says that this canary and statistic told D from "
                                 "D\u2032 poorly, not that the mechanism is private."));
    verdictLabel_->setStyleSheet(QStringLiteral("QLabel { color: #1b5e20; background: #e8f5e9; padding: 6px 10px; "
                                                "border-radius: 3px; }"));
  }
  mechanismLabel_->setText(tr("%1, %2 calibration")
                               .arg(QString::fromStdString(r.mechanism), QString::fromStdString(mech::calibrationWord(r.calibration))));
  claimLabel_->setText(tr("(\u03b5, \u03b4) = (%1, %2)").arg(claimed, QString::number(r.delta, 'g', 6)));
  epsilonLowerLabel_->setText(tr("%1 (95%, Clopper\u2013Pearson; without the held-out split %2)")
                                  .arg(lower, QString::number(r.curve.epsilonUncorrected, 'f', 3)));
  powerLabel_->setText(r.epsilon >= r.detectableEpsilon
                           ? tr("\u03b5_lower \u2264 %1 with %L2 runs (no held-out error): a violation of \u03b5 = %3 "
                                "could not have been detected; more runs raise the limit")
                                 .arg(most)
                                 .arg(r.trials)
                                 .arg(claimed)
                           : tr("\u03b5_lower \u2264 %1 with %L2 runs (no held-out error): a violation of \u03b5 = %3 "
                                "is detected only where the statistic tells D from D\u2032 well enough")
                                 .arg(most)
                                 .arg(r.trials)
                                 .arg(claimed));
  const auto& c = r.certificate;
  testLabel_->setText(tr("guess D\u2032 when s %1 %2: held-out FPR %3 (\u2264 %4), FNR %5 (\u2264 %6)")
                          .arg(c.decision.above ? QStringLiteral(">") : QStringLiteral("<"))
                          .arg(c.decision.threshold, 0, 'g', 6)
                          .arg(c.heldOut.fpr, 0, 'g', 4)
                          .arg(c.heldOut.fprUpper, 0, 'g', 4)
                          .arg(c.heldOut.fnr, 0, 'g', 4)
                          .arg(c.heldOut.fnrUpper, 0, 'g', 4));
  runsLabel_->setText(tr("%L1 on D and %L1 on D\u2032, seed %2, %3 s")
                          .arg(r.trials)
                          .arg(seed)
                          .arg(r.seconds, 0, 'f', 2));
  problemText_->setText(QString::fromStdString(r.problem));
  statisticText_->setText(QString::fromStdString(r.statistic));
  warningText_->setText(QString::fromStdString(r.warning));
  for (QWidget* row : {static_cast<QWidget*>(mechanismLabel_), static_cast<QWidget*>(claimLabel_),
                       static_cast<QWidget*>(epsilonLowerLabel_), static_cast<QWidget*>(powerLabel_),
                       static_cast<QWidget*>(testLabel_),
                       static_cast<QWidget*>(runsLabel_), static_cast<QWidget*>(problemText_),
                       static_cast<QWidget*>(statisticText_)})
    details_->setRowVisible(row, true);
  details_->setRowVisible(warningText_, !r.warning.empty());
  chart_->showResult(r);
  exportPlotButton_->setEnabled(true);
  exportResultButton_->setEnabled(true);
  emit resultShown();
}

void AuditView::refreshStale() {
  if (!result_) return;
  QStringList changed;
  if (!(form_->settings() == resultSettings_)) changed << tr("the form");
  if (resultSettings_.onDataset && datasets_->dataset() != resultDataset_) changed << tr("the dataset");
  staleLabel_->setText(changed.isEmpty() ? QString()
                                         : tr("Shown: the audit of the last run; %1 changed since. Run Audit to "
                                              "audit the settings now in the form.")
                                               .arg(changed.join(tr(" and "))));
  staleLabel_->setVisible(!changed.isEmpty());
}

bool AuditView::exportPlot(const QString& path, QString* error) { return chart_->exportImage(path, error); }

bool AuditView::exportResult(const QString& path, QString* error) const {
  if (!result_) {
    if (error) *error = tr("There is no audit result to export yet.");
    return false;
  }
  return writeAuditResultJson(*result_, resultSeed_, path, error);
}

void AuditView::showExportPlotDialog() {
  if (!result_) return;
  const QString base = QStringLiteral("audit-%1").arg(QString::fromStdString(result_->mechanism));
  const QString path = askImageExportPath(this, tr("Export Audit Plot"), base, kExportDirKey);
  if (path.isEmpty()) return;
  QString error;
  if (!exportPlot(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void AuditView::showExportResultDialog() {
  if (!result_) return;
  QSettings settings;
  const QString base = QStringLiteral("audit-%1").arg(QString::fromStdString(result_->mechanism));
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export Audit Result"),
      QDir(settings.value(kExportDirKey, QDir::homePath()).toString()).filePath(base + QStringLiteral(".json")),
      tr("JSON file (*.json)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  QString error;
  if (!exportResult(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace dpstudio::ui
