// MainWindow's file actions: opening datasets and test files (File → Open, Import, drag and
// drop, the command line), exporting the view, and exporting and opening model bundles (and
// showing an opened one in the decision view).
// The window's construction, docks, menus and settings are in main_window.cpp.

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include "core/bundle/bundle_reader.h"
#include "core/sources/source.h"
#include "ui/bundle/model_export.h"
#include "ui/bundle/opened_model_overlay.h"
#include "ui/dataset/dataset_controller.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/dataset_files.h"
#include "ui/dataset/import_dialog.h"
#include "ui/main_window.h"
#include "ui/main_window_keys.h"
#include "ui/plot/scatter_view.h"
#include "ui/plot/view_export.h"
#include "ui/training/training_document.h"
#include "ui/training/transcript_dialog.h"

namespace dpstudio::ui {

using namespace main_window_keys;

QString MainWindow::fileDialogDirectory() const {
  // The folder a dialog last opened from; before any, the shown dataset's (a file given on the
  // command line), then the home folder.
  const QSettings settings;
  if (settings.contains(kOpenDirKey)) return settings.value(kOpenDirKey).toString();
  if (document_->hasDataset()) {
    const QFileInfo shown(document_->source().spec);
    if (!isBuiltinSpec(document_->source().spec.toStdString()) && shown.exists()) return shown.absolutePath();
  }
  return QDir::homePath();
}

void MainWindow::openInitialDataset(const QString& spec) {
  fallbackSpec_ = spec == defaultDatasetSpec() ? QString() : defaultDatasetSpec();
  LoadOptions options;
  QSettings settings;
  if (spec == settings.value(kLastSpecKey).toString())
    options.labelsPath = settings.value(kLastLabelsKey).toString().toStdString();
  if (!isBuiltinSpec(spec.toStdString()) && options.labelsPath.empty() && looksLikeIdxImages(spec))
    options.labelsPath = guessIdxLabelsPath(spec).toStdString();
  openDataset(spec, options);
}

void MainWindow::openDataset(const QString& spec, const LoadOptions& options) {
  lastRequestedOptions_ = options;
  // The status bar's job widget shows the progress; drop any stale message.
  statusBar()->clearMessage();
  controller_->open(spec, options);
}

void MainWindow::openFile(const QString& path) {
  LoadOptions options;
  if (looksLikeIdxImages(path)) {
    QString labels = guessIdxLabelsPath(path);
    if (labels.isEmpty() && errorDialogs_) {
      labels = QFileDialog::getOpenFileName(
          this, tr("Choose the labels file for %1").arg(QFileInfo(path).fileName()),
          QFileInfo(path).absolutePath(), dataFileDialogFilters());
      if (labels.isEmpty()) return;
    }
    options.labelsPath = labels.toStdString();
  }
  openDataset(path, options);
}

void MainWindow::showOpenDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Dataset"), fileDialogDirectory(),
      dataFileDialogFilters());
  if (path.isEmpty()) return;
  settings.setValue(kOpenDirKey, QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::showOpenTestDialog() {
  if (!document_->hasDataset()) return;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Test File for %1").arg(document_->displayName()),
      fileDialogDirectory(), dataFileDialogFilters());
  if (path.isEmpty()) return;
  openTestFile(path);
}

void MainWindow::openTestFile(const QString& path) {
  // Read like the dataset (its label column, header, missing values), an IDX file with the
  // labels file beside it.
  LoadOptions options = document_->source().options;
  options.labelsPath = looksLikeIdxImages(path) ? guessIdxLabelsPath(path).toStdString() : std::string();
  controller_->openTest(path, options);
}

void MainWindow::showImportFileDialog() {
  QSettings settings;
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Import Dataset"), fileDialogDirectory(), dataFileDialogFilters());
  if (path.isEmpty()) return;
  settings.setValue(kOpenDirKey, QFileInfo(path).absolutePath());
  showImportDialog(path, {});
}

void MainWindow::showImportDialog(const QString& path, const LoadOptions& options) {
  auto* dialog = new ImportDialog(path, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (options.hasHeader || options.skipRows || options.delimiter || !options.labelColumn.empty() ||
      options.missing != MissingPolicy::Reject || options.format != DataFormat::Auto || options.schema)
    dialog->setOptions(options);
  connect(dialog, &QDialog::accepted, this, [this, dialog] { openDataset(dialog->path(), dialog->options()); });
  dialog->open();
}

void MainWindow::showExportDialog() {
  const QString base = document_->hasDataset() ? document_->displayName() : QStringLiteral("view");
  const QString path = askImageExportPath(this, tr("Export View"), base + QStringLiteral("-view"), kExportDirKey);
  if (path.isEmpty()) return;
  QString error;
  if (scatter_->exportImage(path, &error))
    statusBar()->showMessage(tr("Exported the view to %1").arg(QDir::toNativeSeparators(path)), 5000);
  else
    QMessageBox::warning(this, tr("Export failed"), error);
}

QString MainWindow::exportModelTo(const QString& path) {
  if (!training_->isModelOf(document_->dataset())) return tr("no model of this dataset to export");
  if (auto status = exportModel(*training_->result(), path); !status)
    return QString::fromStdString(status.error().toString());
  return {};
}

void MainWindow::showExportModelDialog() {
  if (!training_->isModelOf(document_->dataset())) return;
  QSettings settings;
  const QString suggested = QDir(settings.value(kExportDirKey, QDir::homePath()).toString())
                                .filePath(document_->displayName() + QStringLiteral(".dpmodel"));
  QString path = QFileDialog::getSaveFileName(this, tr("Export Model"), suggested, tr("Model bundle (*.dpmodel)"));
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".dpmodel");
  settings.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  const QString error = exportModelTo(path);
  if (error.isEmpty())
    statusBar()->showMessage(tr("Exported the model to %1").arg(QDir::toNativeSeparators(path)), 5000);
  else
    QMessageBox::warning(this, tr("Export failed"), error);
}

void MainWindow::showImportModelDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"),
                                                    fileDialogDirectory(),
                                                    tr("Model bundle (*.dpmodel);;All files (*)"));
  if (path.isEmpty()) return;
  auto loaded = bundle::readBundle(path);
  if (!loaded) {
    QMessageBox::warning(this, tr("Not a usable model bundle"), QString::fromStdString(loaded.error().toString()));
    return;
  }
  auto* dialog = new ModelImportDialog(std::move(loaded).value(), path, document_, ledger_.get(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &ModelImportDialog::showInViewRequested, this, &MainWindow::showOpenedModel);
  dialog->open();
}

void MainWindow::showOpenTranscriptDialog() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Protocol Transcript"),
                                                    fileDialogDirectory(),
                                                    tr("Protocol transcript (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString problem;
  if (!TranscriptDialog::openFile(path, this, &problem))
    QMessageBox::warning(this, tr("Not a protocol transcript"), problem);
}

void MainWindow::showOpenedModel(std::shared_ptr<const OpenedModel> model) {
  if (!model || !document_->hasDataset()) return;
  openedOverlay_->request(std::move(model), document_->dataset(), training_->result());
  tabs_->setCurrentWidget(scatter_);
  showDocument();
}

}  // namespace dpstudio::ui
