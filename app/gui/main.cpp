// dpstudio — the GUI. Usage: dpstudio [--dataset SPEC | FILE] [--view features|random|pca]
//                                     [--mechanism KEY]   (a key of core's mechanism catalogue)
//                                     [--train-model logreg|huber|softmax|lmgc]
//                                     [--rff-dim D [--rff-gamma G] [--rff-seed S]]
// SPEC is a data file or "builtin:NAME"; without it the last dataset opens, and on the very
// first start the teaching screen (ui/startup_options.h): a private model on builtin:blobs.
// FILE is --dataset's value given plainly: the .desktop entry's "Exec=dpstudio %f" passes
// the CSV file that was opened with dpstudio from a file manager.
// --train-model trains that model (other settings as in the Training dock) once the dataset
// has opened, so that the decision view can be seen, and screenshotted, without clicking;
// --mechanism chooses the privacy mechanism in the dock first (its other parameters as saved);
// --rff-dim turns on the dock's RBF kernel (random Fourier features), as dpstudio-cli's options.

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <QThreadPool>

#include <cstdio>

#include "core/experiment/mechanism_catalog.h"
#include "core/learn/learner.h"
#include "ui/jobs/background_priority.h"
#include "ui/main_window.h"
#include "ui/settings_recovery.h"
#include "ui/startup_options.h"
#include "ui/training/kernel_fields.h"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("dpstudio"));
  QApplication::setOrganizationDomain(QStringLiteral("dpstudio.invalid"));
  QApplication::setApplicationName(QStringLiteral("dpstudio"));
  QApplication::setApplicationDisplayName(QStringLiteral("dpstudio"));
  QApplication::setApplicationVersion(QStringLiteral(DPSTUDIO_VERSION));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dpstudio.svg")));
  QGuiApplication::setDesktopFileName(QStringLiteral("org.dpstudio.Workbench"));  // installer/'s .desktop

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("A desktop workbench for differentially private classification."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption datasetOption(
      QStringLiteral("dataset"),
      QStringLiteral("Open SPEC at start: a data file or builtin:NAME (default: the last "
                     "dataset; the first time, a private model on %1).")
          .arg(dpstudio::ui::firstScreenDataset()),
      QStringLiteral("SPEC"));
  parser.addOption(datasetOption);
  const QCommandLineOption viewOption(
      QStringLiteral("view"),
      QStringLiteral("The 2-D view to open in: features, random or pca (not private)."),
      QStringLiteral("KIND"));
  parser.addOption(viewOption);
  const QCommandLineOption trainOption(
      QStringLiteral("train-model"),
      QStringLiteral("Train MODEL (logreg, huber, softmax or lmgc) once the dataset has opened."),
      QStringLiteral("MODEL"));
  parser.addOption(trainOption);
  const QCommandLineOption mechanismOption(
      QStringLiteral("mechanism"),
      QString::fromStdString("Choose the privacy mechanism: " + dpstudio::experiment::mechanismKeyList() + "."),
      QStringLiteral("MECHANISM"));
  parser.addOption(mechanismOption);
  const QCommandLineOption rffDimOption(
      QStringLiteral("rff-dim"),
      QStringLiteral("Use the RBF kernel: D random Fourier features (1 to %1; not with LMGC).")
          .arg(dpstudio::ui::KernelFields::kMaxDim),
      QStringLiteral("D"));
  const QCommandLineOption rffGammaOption(QStringLiteral("rff-gamma"),
                                          QStringLiteral("gamma of --rff-dim's kernel (default as saved, else 1)."),
                                          QStringLiteral("G"));
  const QCommandLineOption rffSeedOption(QStringLiteral("rff-seed"),
                                         QStringLiteral("Seed of --rff-dim's draws (default as saved, else 1)."),
                                         QStringLiteral("S"));
  parser.addOptions({rffDimOption, rffGammaOption, rffSeedOption});
  parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A data file to open, as --dataset FILE."),
                               QStringLiteral("[FILE]"));
  parser.process(app);

  dpstudio::ui::StartupOptions options;
  options.dataset = parser.value(datasetOption);
  const QStringList files = parser.positionalArguments();
  if (files.size() > 1 || (files.size() == 1 && parser.isSet(datasetOption))) parser.showHelp(2);
  if (files.size() == 1) options.dataset = files.front();
  if (parser.isSet(viewOption)) {
    const QString kind = parser.value(viewOption).toLower();
    if (kind == QLatin1String("features")) options.view = dpstudio::ViewKind::Features;
    else if (kind == QLatin1String("random")) options.view = dpstudio::ViewKind::RandomProjection;
    else if (kind == QLatin1String("pca")) options.view = dpstudio::ViewKind::Pca;
    else parser.showHelp(2);
  }
  options.mechanism = parser.value(mechanismOption);
  if (parser.isSet(rffDimOption)) {
    bool ok = false;
    options.rffDim = parser.value(rffDimOption).toInt(&ok);
    if (!ok || options.rffDim < 1) parser.showHelp(2);
  }
  options.rffGamma = parser.value(rffGammaOption);
  if (parser.isSet(rffSeedOption)) {
    bool ok = false;
    options.rffSeed = parser.value(rffSeedOption).toInt(&ok);
    if (!ok || *options.rffSeed < 0) parser.showHelp(2);
  }
  if (parser.isSet(trainOption)) {
    options.trainModel = dpstudio::parseModelKind(parser.value(trainOption).toLower().toStdString());
    if (!options.trainModel) parser.showHelp(2);
  }

  // Background work (jobs, oneTBB's workers) yields to the GUI thread: no stall while a
  // sweep keeps every core busy.
  dpstudio::ui::lowerWorkerThreadsPriority();
  // Before any widget reads a setting: an unreadable file is moved aside, then told.
  const QString settingsProblem = dpstudio::ui::setAsideUnreadableSettings();
  dpstudio::ui::MainWindow window;
  const QStringList problems = dpstudio::ui::applyStartupOptions(window, options);
  if (!problems.isEmpty()) {
    std::fprintf(stderr, "dpstudio: %s\n", qPrintable(problems.join(QStringLiteral("; "))));
    parser.showHelp(2);
  }
  window.show();
  if (!settingsProblem.isEmpty()) {
    auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("dpstudio"), settingsProblem, QMessageBox::Ok, &window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  }
  const int status = app.exec();
  // Jobs still running were cancelled when the window closed; let them wind down.
  QThreadPool::globalInstance()->waitForDone();
  return status;
}
