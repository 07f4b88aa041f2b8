#pragma once
// The Audit view (docs/user-guide.md; docs/algorithms.md §3 J): the audit form (audit_form.h), Run, and the
// last result — the certified ε_lower against the claimed ε with a prominent verdict
// ("violation" in red, or "no violation detected", which is a lower bound and not a proof),
// the certified test, the problem and the statistic, the trade-off plot (audit_chart.h) —
// with export of the plot (PNG/SVG) and of the result (JSON, the CLI's keys).
//
// The audit runs off the GUI thread as a job (ui/jobs/job.h) with a copy of its inputs:
// the settings, and for "current dataset" the document's immutable dataset and how to split
// and preprocess it, which the main window takes from the Training panel (setPreparation()).
// jobStarted() hands the job to the status bar's progress and Cancel. A cancelled or failed
// audit leaves the previous result shown. Run is disabled while the form is invalid (the
// reasons are listed under it) or an audit runs.
//
// Audits spend no privacy: their outputs are experiments on the user's own data and are
// never released, so nothing is recorded in the ledger.

#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

#include "core/audit/audit.h"
#include "core/sources/prepare.h"
#include "ui/jobs/job.h"
#include "ui/privacy/audit_settings.h"

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
class QPushButton;
class QSplitter;
QT_END_NAMESPACE

namespace dpstudio::ui {

class AuditChart;
class AuditForm;
class DatasetDocument;

class AuditView : public QWidget {
  Q_OBJECT

 public:
  explicit AuditView(DatasetDocument* datasets, QWidget* parent = nullptr);
  ~AuditView() override;

  // How the current dataset is split and preprocessed before it is audited, or why it
  // cannot be (asked when Run is pressed). Unset: the defaults of SplitAndPreprocess.
  using Preparation = std::function<Result<SplitAndPreprocess>()>;
  void setPreparation(Preparation preparation) { preparation_ = std::move(preparation); }

  AuditForm* form() const { return form_; }
  AuditChart* chart() const { return chart_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QLabel* problemLabel() const { return problemLabel_; }  // why Run is disabled
  QLabel* statusLabel() const { return statusLabel_; }    // running, cancelled, failed
  QLabel* verdictLabel() const { return verdictLabel_; }
  QLabel* epsilonLowerLabel() const { return epsilonLowerLabel_; }
  QLabel* powerLabel() const { return powerLabel_; }  // the largest ε_lower the runs could certify
  // Shown when the form or the audited dataset changed since the result shown was computed.
  QLabel* staleLabel() const { return staleLabel_; }
  bool isRunning() const { return !job_.isNull(); }
  bool showsViolation() const { return result_ && result_->violation; }
  const std::optional<audit::AuditResult>& result() const { return result_; }

  bool exportPlot(const QString& path, QString* error = nullptr);
  bool exportResult(const QString& path, QString* error = nullptr) const;

 protected:
  void showEvent(QShowEvent* event) override;

 public slots:
  void run();
  void cancel();
  void showExportPlotDialog();
  void showExportResultDialog();

 signals:
  void jobStarted(dpstudio::ui::JobHandle* job);
  void runningChanged(bool running);
  void resultShown();  // after a new result replaced the old one

 private:
  QWidget* makeFormColumn();
  QWidget* makeResultColumn();
  void refreshRunButton();
  QStringList problems() const;
  void finishRun(JobHandle* job, JobHandle::State state);
  void showResult(const audit::AuditResult& result, std::uint64_t seed);
  void refreshStale();
  void setStatus(const QString& text, bool error);

  DatasetDocument* datasets_;
  Preparation preparation_;
  AuditForm* form_ = nullptr;
  QLabel* problemLabel_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* statusLabel_ = nullptr;
  QLabel* verdictLabel_ = nullptr;
  QLabel* staleLabel_ = nullptr;
  QLabel* noteLabel_ = nullptr;
  QFormLayout* details_ = nullptr;
  QLabel* mechanismLabel_ = nullptr;
  QLabel* claimLabel_ = nullptr;
  QLabel* epsilonLowerLabel_ = nullptr;
  QLabel* powerLabel_ = nullptr;
  QLabel* testLabel_ = nullptr;
  QLabel* runsLabel_ = nullptr;
  QLabel* problemText_ = nullptr;
  QLabel* statisticText_ = nullptr;
  QLabel* warningText_ = nullptr;
  QPushButton* exportPlotButton_ = nullptr;
  QPushButton* exportResultButton_ = nullptr;
  AuditChart* chart_ = nullptr;
  QSplitter* splitter_ = nullptr;
  bool splitterSized_ = false;
  QPointer<JobHandle> job_;
  std::optional<audit::AuditResult> result_;
  std::uint64_t resultSeed_ = 0;
  // What the result shown was computed from: the form, and the dataset when it audited one.
  AuditSettings resultSettings_;
  std::shared_ptr<const Dataset> resultDataset_;
};

}  // namespace dpstudio::ui
