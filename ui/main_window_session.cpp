// MainWindow's session: what it tells at start about the ledger file and about a session that
// did not close (its sweeps restored), and the periodic autosave (session_autosave.h).
// The window's construction, docks, menus and settings are in main_window.cpp.

#include <QLocale>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "ui/main_window.h"
#include "ui/privacy/ledger_store.h"
#include "ui/session_autosave.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"

namespace dpstudio::ui {
namespace {

long long trialCount(const std::vector<experiment::TrialTable>& sweeps) {
  long long trials = 0;
  for (const auto& table : sweeps) trials += static_cast<long long>(table.trials.size());
  return trials;
}

}  // namespace

void MainWindow::autosaveNow() {
  saveSettings();
  SweepSession* sweeps = sweepView_->session();
  if (sweeps->refreshCount() == autosavedRefresh_) return;  // nothing new since the last save
  if (auto status = autosave_->saveSweeps(sweeps->tables()); !status) {
    statusBar()->showMessage(tr("The sweeps could not be autosaved: %1").arg(QString::fromStdString(status.error().toString())),
                             8000);
    return;
  }
  autosavedRefresh_ = sweeps->refreshCount();
}

void MainWindow::restoreCrashedSession() {
  auto recovered = autosave_->recoverCrashed();
  if (!recovered) {
    restoreClosedSweeps();
    return;
  }
  const long long trials = trialCount(recovered->sweeps);
  if (!recovered->sweeps.empty()) {
    sweepView_->session()->restore(std::move(recovered->sweeps));
    tabs_->setCurrentWidget(sweepView_);
  }
  const QString when = QLocale().toString(recovered->saved, QLocale::ShortFormat);
  QString message = tr("dpstudio did not close normally last time (last saved %1). Its %n sweep(s) (%2 trials) are back "
                       "in the Privacy–utility tab; its settings and the releases in the privacy ledger were "
                       "kept as they were made.",
                       nullptr, sweepView_->session()->sweepCount())
                        .arg(when)
                        .arg(trials);
  if (!recovered->problems.isEmpty())
    message += QLatin1Char('\n') + tr("Not restored: %1").arg(recovered->problems.join(QStringLiteral("; ")));
  statusBar()->showMessage(tr("Restored the sweeps of a session that did not close."), 15000);
  if (errorDialogs_) QMessageBox::information(this, tr("Session restored"), message);
}

void MainWindow::keepSweepsForNextStart() {
  if (sweepView_->session()->sweepCount() == 0) return;
  autosavedRefresh_ = -1;  // save now, whatever was saved before
  autosaveNow();
  autosave_->keepForNextStart();
}

void MainWindow::restoreClosedSweeps() {
  auto kept = autosave_->recoverClosed();
  if (!kept) return;
  const long long trials = trialCount(kept->sweeps);
  const int sweeps = static_cast<int>(kept->sweeps.size());
  if (!kept->sweeps.empty()) sweepView_->session()->restore(std::move(kept->sweeps));
  QString message = tr("Last session's %n sweep(s) (%1 trials) are back in the Privacy\u2013utility tab.", nullptr, sweeps)
                        .arg(trials);
  if (!kept->problems.isEmpty()) message += QLatin1Char(' ') + tr("Not restored: %1").arg(kept->problems.join(QStringLiteral("; ")));
  statusBar()->showMessage(message, 15000);
}

void MainWindow::reportLedgerFile() {
  const QString problem = ledgerStore_->problem();
  const QString message = problem.isEmpty() ? ledgerStore_->notice() : problem;
  if (message.isEmpty()) return;
  statusBar()->showMessage(problem.isEmpty() ? tr("The privacy ledger file was corrupt and was kept aside.")
                                             : tr("The privacy ledger file cannot be used: private releases are refused."),
                           15000);
  if (!errorDialogs_) return;
  QMessageBox::warning(this, problem.isEmpty() ? tr("Privacy ledger kept aside") : tr("Privacy ledger refused"),
                       problem.isEmpty()
                           ? message
                           : tr("%1\n\nPrivate releases are refused until the ledger can be written, so that none "
                                "is missing from it. Ledger view \u2192 Archive History\u2026 sets the file aside and "
                                "starts a new ledger.")
                                 .arg(message));
}

}  // namespace dpstudio::ui
