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
#include <QIcon>
#include <QMessageBox>
#include <QThreadPool>

#include <cstdio>

#include "ui/jobs/background_priority.h"
#include "ui/main_window.h"
#include "ui/settings_recovery.h"
#include "ui/startup_arguments.h"

namespace {

void nameTheApplication() {
  QCoreApplication::setOrganizationName(QStringLiteral("dpstudio"));
  QCoreApplication::setOrganizationDomain(QStringLiteral("dpstudio.invalid"));
  QCoreApplication::setApplicationName(QStringLiteral("dpstudio"));
  QCoreApplication::setApplicationVersion(QStringLiteral(DPSTUDIO_VERSION));
}

}  // namespace

int main(int argc, char* argv[]) {
  nameTheApplication();
  if (dpstudio::ui::asksForHelpOrVersion(argc, argv)) {
    // Answered without a display: QCommandLineParser prints and exits.
    QCoreApplication app(argc, argv);
    dpstudio::ui::StartupArguments arguments;
    arguments.parser().process(app);
    return 0;
  }
  QApplication app(argc, argv);
  QApplication::setApplicationDisplayName(QStringLiteral("dpstudio"));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/dpstudio.svg")));
  QGuiApplication::setDesktopFileName(QStringLiteral("org.dpstudio.Workbench"));  // installer/'s .desktop

  dpstudio::ui::StartupArguments arguments;
  arguments.parser().process(app);
  const std::optional<dpstudio::ui::StartupOptions> options = arguments.read();
  if (!options) arguments.parser().showHelp(2);

  // Background work (jobs, oneTBB's workers) yields to the GUI thread: no stall while a
  // sweep keeps every core busy.
  dpstudio::ui::lowerWorkerThreadsPriority();
  // Before any widget reads a setting: an unreadable file is moved aside, then told.
  const QString settingsProblem = dpstudio::ui::setAsideUnreadableSettings();
  dpstudio::ui::MainWindow window;
  const QStringList problems = dpstudio::ui::applyStartupOptions(window, *options);
  if (!problems.isEmpty()) {
    std::fprintf(stderr, "dpstudio: %s\n", qPrintable(problems.join(QStringLiteral("; "))));
    arguments.parser().showHelp(2);
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
