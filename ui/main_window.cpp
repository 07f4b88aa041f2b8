#include "ui/main_window.h"

#include "ui/main_window_keys.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

#include "core/sources/source.h"
#include "ui/bundle/opened_model_overlay.h"
#include "ui/dataset/dataset_controller.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/recent_files.h"
#include "ui/jobs/job_status_widget.h"
#include "ui/plot/decision_overlay.h"
#include "ui/plot/scatter_view.h"
#include "ui/privacy/audit_view.h"
#include "ui/privacy/ledger_store.h"
#include "ui/privacy/ledger_view.h"
#include "ui/privacy/meaning_view.h"
#include "ui/privacy/noise_view.h"
#include "ui/session_autosave.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_controller.h"
#include "ui/training/training_dock.h"
#include "ui/training/training_document.h"
#include "ui/widgets/help_dialog.h"
#include "ui/widgets/wheel_guard.h"
#include "ui/widgets/focus_follow.h"
#include "ui/widgets/screen_fit.h"

namespace dpstudio::ui {
using namespace main_window_keys;

namespace {

// How often the settings and the sweeps shown are saved (besides when a sweep ends).
constexpr int kAutosaveIntervalMs = 10000;

QString viewDescription(const ViewSpec& spec) {
  switch (spec.kind) {
    case ViewKind::Features: return QObject::tr("two features");
    case ViewKind::RandomProjection: return QObject::tr("random projection (seed %1)").arg(spec.seed);
    case ViewKind::Pca: return QObject::tr("PCA");
  }
  return {};
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      ledger_(std::make_shared<privacy::PrivacyLedger>()),
      ledgerStore_(new LedgerStore(ledger_, privacy::defaultLedgerPath(), this)),
      document_(new DatasetDocument(this)),
      controller_(new DatasetController(document_, this)),
      scatter_(new ScatterView),
      training_(new TrainingDocument(this)),
      trainer_(new TrainingController(document_, training_, ledger_.get(), this)),
      overlay_(new DecisionOverlay(scatter_, this)),
      openedOverlay_(new OpenedModelOverlay(scatter_, this)),
      jobStatus_(new JobStatusWidget) {
  setObjectName(QStringLiteral("MainWindow"));
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("centralTabs"));
  tabs_->setDocumentMode(true);
  scatter_->setObjectName(QStringLiteral("decisionView"));
  tabs_->addTab(scatter_, tr("Decision view"));
  setCentralWidget(tabs_);
  setAcceptDrops(true);
  statusBar()->addPermanentWidget(jobStatus_);
  scatter_->showMessage(tr("No dataset yet"));

  // Scrolling the docks must not change the values under the pointer. First, so that it
  // sees every box polished (the Training dock measures, and so polishes, its form as it is
  // made).
  qApp->installEventFilter(new WheelGuard(this));
  createActions();
  createDock();
  createTrainingDock();
  createSweepView();
  createAnalysisPages();
  createMenus();
  connectTraining();

  connect(controller_, &DatasetController::jobStarted, jobStatus_, &JobStatusWidget::track);
  connect(controller_, &DatasetController::opened, this, &MainWindow::handleOpened);
  connect(controller_, &DatasetController::openFailed, this, &MainWindow::handleOpenFailed);
  connect(controller_, &DatasetController::openCancelled, this, [this](const QString& spec) {
    statusBar()->showMessage(tr("Opening %1 was cancelled.").arg(spec), 5000);
  });
  connect(controller_, &DatasetController::viewFailed, panel_, &DatasetPanel::showViewError);
  connect(controller_, &DatasetController::testOpened, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Test file %1: %2 rows; the Training dock now holds nothing out.")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(document_->testDataset()->rows()),
                             8000);
  });
  connect(controller_, &DatasetController::testOpenFailed, this, [this](const QString& path, const QString& message) {
    statusBar()->showMessage(tr("Could not use %1 as the test file.").arg(QFileInfo(path).fileName()), 8000);
    emit loadFailed(message);
    if (errorDialogs_) QMessageBox::warning(this, tr("Could not open the test file"), message);
  });
  connect(controller_, &DatasetController::viewFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("The 2-D view could not be computed: %1").arg(message), 8000);
  });
  connect(document_, &DatasetDocument::datasetChanged, this, &MainWindow::showDocument);
  connect(document_, &DatasetDocument::viewChanged, this, &MainWindow::showDocument);

  setWindowTitle(QStringLiteral("dpstudio"));
  restoreSettings();
  autosave_ = std::make_unique<SessionAutosave>();
  auto* autosaveTimer = new QTimer(this);
  autosaveTimer->setInterval(kAutosaveIntervalMs);
  connect(autosaveTimer, &QTimer::timeout, this, &MainWindow::autosaveNow);
  autosaveTimer->start();
  connect(sweepView_->session(), &SweepSession::finished, this, &MainWindow::autosaveNow);
  // After the constructor: a test turns dialogs off first.
  QTimer::singleShot(0, this, &MainWindow::reportLedgerFile);
  QTimer::singleShot(0, this, &MainWindow::restoreCrashedSession);
}

MainWindow::~MainWindow() {
  controller_->cancel();
  trainer_->cancel();
  if (sweepView_) sweepView_->session()->cancel();
  // autosave_ goes with the window: a clean end removes the session's files.
}

void MainWindow::createSweepView() {
  sweepView_ = new SweepView(document_);
  sweepView_->setSettingsSource([this]() -> Result<SweepView::Base> {
    const ModelSettingsForm* form = modelPanel_->form();
    if (!form->isValid())
      return Error{ErrorKind::InvalidPrivacy, form->problems().join(QStringLiteral("; ")).toStdString(), {}, 0, {}};
    QString why;
    const auto shape = form->trainingShape(&why);
    if (!shape) return Error{ErrorKind::InvalidPrivacy, why.toStdString(), {}, 0, {}};
    return SweepView::Base{form->settings(), *shape};
  });
  tabs_->addTab(sweepView_, tr("Privacy\u2013utility"));
  connect(modelPanel_->form(), &ModelSettingsForm::changed, sweepView_, &SweepView::refreshBase);
  connect(modelPanel_, &ModelPanel::sweepRequested, this, &MainWindow::sweep);
  connect(sweepView_, &SweepView::jobStarted, jobStatus_, &JobStatusWidget::track);
  connect(sweepView_, &SweepView::statusMessage, this,
          [this](const QString& text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
}

void MainWindow::sweep() {
  tabs_->setCurrentWidget(sweepView_);
  sweepView_->startSweep();
}

QString MainWindow::lastDatasetSpec() { return QSettings().value(kLastSpecKey).toString(); }

void MainWindow::createActions() {
  openAction_ = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setToolTip(tr("Open a data file (CSV, LIBSVM, IDX; gzip is fine)"));
  connect(openAction_, &QAction::triggered, this, &MainWindow::showOpenDialog);

  importAction_ = new QAction(tr("&Import…"), this);
  importAction_->setObjectName(QStringLiteral("importAction"));
  importAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  importAction_->setToolTip(tr("Open a data file choosing how it is read (header, delimiter, label column, "
                               "missing values), with a preview"));
  connect(importAction_, &QAction::triggered, this, &MainWindow::showImportFileDialog);

  exportAction_ = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton),
                              tr("&Export View as PNG/SVG…"), this);
  exportAction_->setShortcut(QKeySequence(tr("Ctrl+E")));
  exportAction_->setToolTip(tr("Save the scatter view as a PNG or SVG image"));
  connect(exportAction_, &QAction::triggered, this, &MainWindow::showExportDialog);

  exportModelAction_ = new QAction(tr("Export &Model\u2026"), this);
  exportModelAction_->setObjectName(QStringLiteral("exportModelAction"));
  exportModelAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
  exportModelAction_->setToolTip(tr("Save the model shown as a .dpmodel bundle: its parameters, preprocessing, "
                                    "privacy statement and model card (NumPy reads it as an .npz)"));
  exportModelAction_->setEnabled(false);
  connect(exportModelAction_, &QAction::triggered, this, &MainWindow::showExportModelDialog);
  importModelAction_ = new QAction(tr("Open Mo&del\u2026"), this);
  importModelAction_->setObjectName(QStringLiteral("importModelAction"));
  importModelAction_->setToolTip(tr("Check a .dpmodel bundle, read its model card, and answer the current dataset's "
                                    "rows through it"));
  connect(importModelAction_, &QAction::triggered, this, &MainWindow::showImportModelDialog);
  openTranscriptAction_ = new QAction(tr("Open Protocol &Transcript\u2026"), this);
  openTranscriptAction_->setObjectName(QStringLiteral("openTranscriptAction"));
  openTranscriptAction_->setToolTip(tr("Read a multiparty protocol's transcript (dpstudio-cli --transcript, party or "
                                       "curator) as a sequence diagram"));
  connect(openTranscriptAction_, &QAction::triggered, this, &MainWindow::showOpenTranscriptDialog);
  hideOpenedModelAction_ = new QAction(tr("&Hide Opened Model"), this);
  hideOpenedModelAction_->setObjectName(QStringLiteral("hideOpenedModelAction"));
  hideOpenedModelAction_->setToolTip(tr("Show the trained model (or the dataset) again instead of the bundle shown "
                                        "from Open Model"));
  hideOpenedModelAction_->setEnabled(false);
  connect(hideOpenedModelAction_, &QAction::triggered, this, [this] {
    openedOverlay_->forget();
    showDocument();
  });
  connect(openedOverlay_, &OpenedModelOverlay::requestChanged, this,
          [this] { hideOpenedModelAction_->setEnabled(openedOverlay_->requested() != nullptr); });

  quitAction_ = new QAction(tr("&Quit"), this);
  quitAction_->setShortcut(QKeySequence::Quit);
  quitAction_->setMenuRole(QAction::QuitRole);
  connect(quitAction_, &QAction::triggered, this, &QWidget::close);

  resetZoomAction_ = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reset Zoom"), this);
  resetZoomAction_->setShortcut(QKeySequence(tr("Ctrl+0")));
  resetZoomAction_->setToolTip(tr("Show the whole dataset again (or double-click the plot)"));
  connect(resetZoomAction_, &QAction::triggered, scatter_, &ScatterView::resetZoom);

  algorithmsAction_ = new QAction(tr("&Algorithms…"), this);
  algorithmsAction_->setObjectName(QStringLiteral("algorithmsHelpAction"));
  algorithmsAction_->setShortcut(QKeySequence(Qt::Key_F1));
  algorithmsAction_->setToolTip(tr("What each mechanism releases and how its noise is calibrated"));
  connect(algorithmsAction_, &QAction::triggered, this, &MainWindow::showAlgorithmsHelp);

  aboutAction_ = new QAction(tr("&About dpstudio"), this);
  aboutAction_->setMenuRole(QAction::AboutRole);
  connect(aboutAction_, &QAction::triggered, this, &MainWindow::showAbout);
  aboutQtAction_ = new QAction(tr("About &Qt"), this);
  aboutQtAction_->setMenuRole(QAction::AboutQtRole);
  connect(aboutQtAction_, &QAction::triggered, qApp, &QApplication::aboutQt);
}

void MainWindow::createDock() {
  panel_ = new DatasetPanel(document_);
  auto* scroll = new QScrollArea;
  scroll->setWidget(panel_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  followFocus(scroll);
  // Labels wrap; anything wider still scrolls sideways rather than being cut off.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
  // The panel's minimum, not its preferred width: at 1280×720 the central area needs the rest.
  scroll->setMinimumWidth(std::max(280, panel_->minimumSizeHint().width() + 16));

  datasetDock_ = new QDockWidget(tr("Dataset"), this);
  datasetDock_->setObjectName(QStringLiteral("datasetDock"));
  datasetDock_->setWidget(scroll);
  addDockWidget(Qt::LeftDockWidgetArea, datasetDock_);

  connect(panel_, &DatasetPanel::builtinRequested, this,
          [this](const QString& spec) { openDataset(spec); });
  connect(panel_, &DatasetPanel::openFileRequested, this, &MainWindow::showOpenDialog);
  connect(panel_, &DatasetPanel::openTestFileRequested, this, &MainWindow::showOpenTestDialog);
  connect(panel_, &DatasetPanel::removeTestFileRequested, document_, &DatasetDocument::clearTestDataset);
  connect(panel_, &DatasetPanel::viewSpecRequested, controller_, &DatasetController::setViewSpec);
}

void MainWindow::createTrainingDock() {
  trainingDock_ = new TrainingDock(document_, training_, trainer_, this);
  modelPanel_ = trainingDock_->panel();
  addDockWidget(Qt::RightDockWidgetArea, trainingDock_);
  // A result that no longer matches the form says so above the plot too.
  connect(modelPanel_, &ModelPanel::staleChanged, this, &MainWindow::showTitleNotes);
  connect(trainingDock_, &TrainingDock::statusMessage, this, [this](const QString& text, int timeoutMs) {
    if (text.isEmpty()) statusBar()->clearMessage();
    else statusBar()->showMessage(text, timeoutMs);
  });
}

void MainWindow::createAnalysisPages() {
  // Pages of the central area beside the decision view and the privacy–utility chart, not
  // docks under them: at 1366×768 docks stacked under the chart left it ~50 px tall and the
  // Ledger half a row (issue 33). Each page has the whole area; Ctrl+3/4/5 turn to them.
  ledgerView_ = new LedgerView(ledger_);
  ledgerView_->setObjectName(QStringLiteral("ledgerPage"));
  ledgerView_->setStore(ledgerStore_);
  // What dpstudio-cli --ledger default added meanwhile shows when the user looks.
  connect(tabs_, &QTabWidget::currentChanged, ledgerStore_, [this] {
    if (tabs_->currentWidget() == ledgerView_) ledgerStore_->reload();
  });

  auditView_ = new AuditView(document_);
  auditView_->setObjectName(QStringLiteral("auditPage"));
  // The current dataset is audited as the Training panel would train on it (split, norm bound R,
  // kernel features). An audit draws no view: the rows before a feature map are not kept.
  auditView_->setPreparation([this]() -> Result<SplitAndPreprocess> {
    const ModelSettingsForm* form = modelPanel_->form();
    if (!form->isValid())
      return Error{ErrorKind::InvalidPrivacy,
                   "fix the Training panel first: " + form->problems().join(QStringLiteral("; ")).toStdString(), {}, 0,
                   {}};
    SplitAndPreprocess preparation = form->settings().data;
    preparation.keepRowsBeforeMap = false;
    return preparation;
  });
  connect(auditView_, &AuditView::jobStarted, jobStatus_, &JobStatusWidget::track);

  auto* noiseView = new NoiseView(training_);
  noiseView->setObjectName(QStringLiteral("noisePage"));

  // What the dock's guarantee means for one person, beside the audit that measures it.
  auto* meaningView = new MeaningView(modelPanel_->form()->mechanismForm(), auditView_);
  meaningView->setObjectName(QStringLiteral("meaningPage"));

  tabs_->addTab(auditView_, tr("Audit"));
  tabs_->addTab(noiseView, tr("Noise"));
  tabs_->addTab(ledgerView_, tr("Ledger"));
  tabs_->addTab(meaningView, tr("What \u03b5 means"));
}

void MainWindow::connectTraining() {
  connect(trainer_, &TrainingController::jobStarted, jobStatus_, &JobStatusWidget::track);
  // A private predictor's answers appear on its test points as they are given.
  overlay_->setAnswerSource(training_);
  connect(trainer_, &TrainingController::viewFailed, this, [this](const QString& message) {
    statusBar()->showMessage(tr("The model could not be shown in this 2-D view: %1").arg(message), 8000);
  });
  // A model cleared because another dataset opened needs nothing here: datasetChanged
  // redraws. One cleared on the same dataset brings the plain scatter back.
  const auto showModel = [this] {
    if (training_->hasModel() || overlay_->isShowingModelOf(document_->dataset())) showDocument();
  };
  connect(training_, &TrainingDocument::modelChanged, this, showModel);
  connect(training_, &TrainingDocument::modelChanged, this,
          [this] { exportModelAction_->setEnabled(training_->isModelOf(document_->dataset())); });
  // Draw N's spread says what it is where it is drawn; a new model (which drops it) clears it.
  connect(training_, &TrainingDocument::spreadChanged, this, &MainWindow::showTitleNotes);
  connect(training_, &TrainingDocument::modelChanged, this, &MainWindow::showTitleNotes);
  connect(training_, &TrainingDocument::viewChanged, this, showModel);
}

void MainWindow::trainWhenOpened(ModelKind kind) {
  connect(
      controller_, &DatasetController::opened, this,
      [this, kind] {
        modelPanel_->form()->setModelKind(kind);
        modelPanel_->requestTrain();
      },
      Qt::SingleShotConnection);
}

void MainWindow::showTitleNotes() {
  const bool opened = openedOverlay_->isShowing();
  scatter_->setTitleNote(opened ? QString() : modelPanel_->staleNote());
  const auto& spread = training_->spread();
  scatter_->setInfoNote(spread && !opened ? tr("faint lines: %1 more private draws \u2014 an experiment: not released, "
                                               "not in the ledger")
                                                .arg(spread->size())
                                          : QString());
}

void MainWindow::showDocument() {
  if (!document_->hasDataset()) return;
  const QString name = document_->displayName();
  setWindowTitle(tr("%1 \u2014 dpstudio").arg(name));
  // An opened bundle asked for on this dataset and over this training result: drawn on the
  // dataset's current view. A new dataset or training makes the request stale: dropped.
  if (openedOverlay_->applies(document_->dataset(), training_->result()) && document_->view()) {
    overlay_->detach();
    openedOverlay_->show(*document_->view(), name);
    showTitleNotes();
    return;
  }
  openedOverlay_->forget();
  showTitleNotes();
  if (training_->isModelOf(document_->dataset()) && training_->view()) {
    // The decision view. A new dataset view is followed by a new model view (the
    // TrainingController computes it), which lands here again; until then the model stays
    // drawn in the old view.
    if (!overlay_->isShowing(training_->result(), training_->view())) {
      overlay_->show(training_->result(), training_->view());
      emit modelShown();
    }
    return;
  }
  // No model, or one that cannot be drawn in this view (the status bar said why): the data.
  overlay_->detach();
  if (const auto& view = document_->view()) {
    scatter_->showData(*document_->dataset(), *view,
                       tr("%1 \u2014 %2").arg(name, viewDescription(view->spec)));
  } else {
    scatter_->showMessage(tr("%1: no 2-D view could be computed").arg(name));
  }
  emit datasetShown();
}

void MainWindow::handleOpened(const QString& spec) {
  const Dataset& dataset = *document_->dataset();
  const QLocale locale;
  statusBar()->showMessage(tr("Opened %1: %2 rows, %3 features, %4 classes.")
                               .arg(document_->displayName(),
                                    locale.toString(static_cast<qlonglong>(dataset.rows())),
                                    locale.toString(static_cast<qlonglong>(dataset.features())),
                                    locale.toString(static_cast<qlonglong>(dataset.classes()))),
                           6000);
  fallbackSpec_.clear();
  if (offerSelection_ && !isBuiltinSpec(spec.toStdString())) {
    offerSelection_ = false;
    MechanismForm* mechanism = modelPanel()->form()->mechanismForm();
    if (!mechanism->userChoseMechanism() && mechanism->setChoice(MechanismForm::selectionChoice()))
      statusBar()->showMessage(statusBar()->currentMessage() +
                                   tr(" Mechanism: Private selection, the choice for data of your own (Help \u2192 "
                                      "Algorithms \u00a73 K)."),
                               10000);
  }
  QSettings settings;
  settings.setValue(kLastSpecKey, spec);
  settings.setValue(kLastLabelsKey, QString::fromStdString(document_->source().options.labelsPath));
  if (!isBuiltinSpec(spec.toStdString())) recentFiles_->add(spec);
}

void MainWindow::handleOpenFailed(const QString& spec, const QString& message) {
  statusBar()->showMessage(tr("Could not open %1.").arg(spec), 8000);
  emit loadFailed(message);
  QString consequence;
  if (document_->hasDataset()) {
    consequence = tr("%1 is still shown.").arg(document_->displayName());
  } else if (!fallbackSpec_.isEmpty()) {
    // At start-up: show something useful rather than an empty window.
    consequence = tr("Opening %1 instead.").arg(fallbackSpec_);
    openDataset(fallbackSpec_);
  }
  fallbackSpec_.clear();
  if (!errorDialogs_) return;
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open dataset"),
                              tr("<b>The dataset could not be opened.</b>"), QMessageBox::Ok, this);
  box->setInformativeText(consequence.isEmpty() ? message : message + QStringLiteral("\n\n") + consequence);
  if (!isBuiltinSpec(spec.toStdString()) && QFileInfo::exists(spec)) {
    // Most files that fail to read are read with the wrong options: offer them, with a preview.
    QPushButton* adjust = box->addButton(tr("Import Options…"), QMessageBox::ActionRole);
    const LoadOptions options = lastRequestedOptions_;
    connect(adjust, &QPushButton::clicked, this, [this, spec, options] { showImportDialog(spec, options); });
  }
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About dpstudio"),
      tr("<h3>dpstudio %1</h3>"
         "<p>A desktop workbench for differentially private classification: load a dataset, "
         "train private models, and see what the noise does to them.</p>"
         "<p>Built with Qt %2 and Eigen %3.%4.%5.</p>")
          .arg(QStringLiteral(DPSTUDIO_VERSION), QStringLiteral(QT_VERSION_STR))
          .arg(EIGEN_WORLD_VERSION)
          .arg(EIGEN_MAJOR_VERSION)
          .arg(EIGEN_MINOR_VERSION));
}

void MainWindow::showAlgorithmsHelp() {
  if (!helpDialog_) helpDialog_ = new HelpDialog(this);
  helpDialog_->show();
  helpDialog_->raise();
  helpDialog_->activateWindow();
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (restoreGeometry(settings.value(kGeometryKey).toByteArray()))
    keepWithinScreen(this);
  else
    resizeToFitScreen(this, QSize(1400, 860));
  restoreState(settings.value(kStateKey).toByteArray());
  if (const auto kind = parseViewKind(settings.value(kViewKindKey).toString().toStdString()))
    controller_->setPreferredViewKind(*kind);
  modelPanel_->form()->restoreSettings();
  modelPanel_->showRestored(modelPanel_->form()->restoredChanges());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
  if (const auto kind = controller_->preferredViewKind())
    settings.setValue(kViewKindKey, QString::fromStdString(viewKindName(*kind)));
  modelPanel_->form()->saveSettings();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  controller_->cancel();
  trainer_->cancel();
  saveSettings();
  // The sweeps shown are back at the next start (the ledger keeps the releases itself).
  keepSweepsForNextStart();
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QMimeData* mime = event->mimeData();
  if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  event->acceptProposedAction();
  openFile(urls.first().toLocalFile());
}

}  // namespace dpstudio::ui
