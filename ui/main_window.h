#pragma once
// dpstudio's main window: in the centre the scatter/decision view and the privacy–utility
// view as tabs, the Dataset dock on the left, the
// Training dock on the right, a status bar with the running job's progress and Cancel, and the
// File / View / Help menus.
//
// Every dataset request (built-in list, Open…, Open Recent, drag-and-drop, command line)
// goes through openDataset(), which loads off the GUI thread. A failed load is reported by
// loadFailed() and, unless error dialogs are disabled (tests), a message box; the dataset
// shown before stays.
//
// The centre shows the plain dataset until a model of the current dataset is trained; then
// it is the decision view (decision_overlay.h). Opening another dataset drops the model.
// A model bundle shown from Open Model takes the centre's place instead
// (bundle/opened_model_overlay.h) until the next training, the next dataset, or View →
// Hide Opened Model.

#include <QMainWindow>
#include <QString>

#include <memory>

#include "core/io/loader.h"
#include "core/models/model.h"
#include "core/privacy/ledger.h"

QT_BEGIN_NAMESPACE
class QAction;
class QTabWidget;
class QDockWidget;
class QKeySequence;
class QMenu;
QT_END_NAMESPACE

namespace dpstudio::ui {

class AuditView;
class DatasetController;
class DatasetDocument;
class DatasetPanel;
class DecisionOverlay;
class HelpDialog;
class JobStatusWidget;
class LedgerStore;
class LedgerView;
class TrainingDock;
class ModelPanel;
class OpenedModelOverlay;
class RecentFiles;
struct OpenedModel;
class ScatterView;
class SessionAutosave;
class SweepView;
class TrainingController;
class TrainingDocument;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens spec at start-up; if that fails (a last file that was moved away), falls back to
  // defaultDatasetSpec() so the window never starts empty.
  void openInitialDataset(const QString& spec);
  static QString defaultDatasetSpec() { return QStringLiteral("builtin:iris"); }
  // The dataset opened last time (QSettings), or an empty string.
  static QString lastDatasetSpec();

  // Message boxes for failed loads; tests turn them off and watch loadFailed().
  void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

  DatasetDocument* document() const { return document_; }
  DatasetController* controller() const { return controller_; }
  DatasetPanel* datasetPanel() const { return panel_; }
  ScatterView* scatterView() const { return scatter_; }
  JobStatusWidget* jobStatus() const { return jobStatus_; }
  TrainingDocument* training() const { return training_; }
  TrainingController* trainer() const { return trainer_; }
  ModelPanel* modelPanel() const { return modelPanel_; }
  DecisionOverlay* decisionOverlay() const { return overlay_; }
  OpenedModelOverlay* openedModelOverlay() const { return openedOverlay_; }
  // The session's privacy ledger: every private release made from this window (training,
  // answers, audits do not spend) is recorded here, and kept in the per-user ledger file
  // (privacy::defaultLedgerPath()) before it counts; the Ledger view shows it with the
  // releases of earlier sessions.
  privacy::PrivacyLedger& ledger() const { return *ledger_; }
  LedgerStore* ledgerStore() const { return ledgerStore_; }
  // The Ledger and Audit views (bottom docks, View menu).
  LedgerView* ledgerView() const { return ledgerView_; }
  AuditView* auditView() const { return auditView_; }
  // The centre's tabs: the decision view (scatter) and the privacy–utility view (sweeps).
  QTabWidget* centralTabs() const { return tabs_; }
  SessionAutosave* autosave() const { return autosave_.get(); }
  SweepView* sweepView() const { return sweepView_; }
  // Shows the privacy–utility tab and starts a sweep of the Training dock's settings.
  void sweep();

  // Trains a `kind` model with the Training dock's other settings as soon as the next dataset
  // has opened (the --train-model start-up option).
  void trainWhenOpened(ModelKind kind);
  // The first screen chose its mechanism (output perturbation, to teach): the first data of
  // the user's own that opens switches to Private selection (§3 K), unless the user has
  // picked a mechanism meanwhile.
  void offerSelectionForOwnData() { offerSelection_ = true; }
  // Where File → Open, Import, Test File, Open Model and Open Transcript start.
  QString fileDialogDirectory() const;

 public slots:
  void openDataset(const QString& spec, const dpstudio::LoadOptions& options = {});
  // A data file: works out what core needs to know (an IDX labels file) and opens it.
  void openFile(const QString& path);
  void showOpenDialog();
  // File → Import…: how the file is read, with a preview (import_dialog.h).
  void showImportFileDialog();
  void showImportDialog(const QString& path, const dpstudio::LoadOptions& options);
  // A separate test file for the dataset shown (Dataset dock → Test File…).
  void showOpenTestDialog();
  void openTestFile(const QString& path);
  void showExportDialog();
  // File → Export Model… / Import Model…: .dpmodel bundles (ui/bundle/model_export.h).
  void showExportModelDialog();
  void showImportModelDialog();
  void showOpenTranscriptDialog();  // a Paillier run's transcript file (CLI --transcript, party, curator)
  // Writes the shown model to `path` (no dialog); the error, or empty.
  QString exportModelTo(const QString& path);
  // Shows an opened bundle's regions on the current dataset in place of the trained model.
  void showOpenedModel(std::shared_ptr<const dpstudio::ui::OpenedModel> model);

 signals:
  void loadFailed(const QString& message);
  void datasetShown();  // after the scatter shows a new dataset or view
  void modelShown();    // after the scatter shows a (new) trained model or its new view

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createMenus();
  void createDock();
  void createTrainingDock();
  void connectTraining();
  void createAnalysisPages();  // Audit, Noise and Ledger: pages of the central tabs
  void createSweepView();
  void restoreSettings();
  void saveSettings() const;
  void showDocument();
  // The title's notes on the trained model (stale settings, Draw N's spread): not over an
  // opened bundle's picture, which they do not describe.
  void showTitleNotes();
  void handleOpened(const QString& spec);
  void handleOpenFailed(const QString& spec, const QString& message);
  void showAbout();
  void showAlgorithmsHelp();
  QAction* showDockAction(QDockWidget* dock, const QString& text, const QKeySequence& shortcut);
  QAction* showPageAction(QWidget* page, const QString& text, const QKeySequence& shortcut);
  // What the ledger file needs the user to know at start (kept aside when corrupt, refused),
  // in the status bar and, with dialogs, a message box.
  void reportLedgerFile();
  // Session autosave (session_autosave.h): the settings and the sweeps shown, every few
  // seconds and when a sweep ends; at start, the sweeps of a session that did not close.
  void autosaveNow();
  void restoreCrashedSession();
  // A clean quit keeps the sweeps shown for the next start, which restores them (and says so).
  void keepSweepsForNextStart();
  void restoreClosedSweeps();

  std::shared_ptr<privacy::PrivacyLedger> ledger_;  // first: the controllers below record into it
  LedgerStore* ledgerStore_;  // keeps ledger_ in the ledger file from the first release on
  DatasetDocument* document_;
  DatasetController* controller_;
  ScatterView* scatter_;
  DatasetPanel* panel_ = nullptr;
  QDockWidget* datasetDock_ = nullptr;
  TrainingDocument* training_;
  TrainingController* trainer_;
  DecisionOverlay* overlay_;
  OpenedModelOverlay* openedOverlay_;
  ModelPanel* modelPanel_ = nullptr;
  TrainingDock* trainingDock_ = nullptr;
  JobStatusWidget* jobStatus_;
  QTabWidget* tabs_ = nullptr;
  SweepView* sweepView_ = nullptr;
  LedgerView* ledgerView_ = nullptr;
  AuditView* auditView_ = nullptr;
  RecentFiles* recentFiles_ = nullptr;
  HelpDialog* helpDialog_ = nullptr;  // created on first use, then shown again
  QMenu* recentMenu_ = nullptr;

  QAction* openAction_ = nullptr;
  QAction* exportAction_ = nullptr;
  QAction* exportModelAction_ = nullptr;
  QAction* importModelAction_ = nullptr;
  QAction* openTranscriptAction_ = nullptr;
  QAction* hideOpenedModelAction_ = nullptr;
  QAction* importAction_ = nullptr;
  QAction* quitAction_ = nullptr;
  QAction* resetZoomAction_ = nullptr;
  QAction* algorithmsAction_ = nullptr;
  QAction* aboutAction_ = nullptr;
  QAction* aboutQtAction_ = nullptr;

  std::unique_ptr<SessionAutosave> autosave_;
  int autosavedRefresh_ = -1;  // the sweep session's refreshCount() when its sweeps were last saved

  bool errorDialogs_ = true;
  QString fallbackSpec_;  // opened instead if the initial dataset fails
  bool offerSelection_ = false;  // offerSelectionForOwnData()
  LoadOptions lastRequestedOptions_;  // of the last open, offered again when it fails
};

}  // namespace dpstudio::ui
