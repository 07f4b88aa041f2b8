#include "ui/plot/plot_application.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <unistd.h>

namespace dpstudio::ui {

bool needsGuiForPlot(const QStringList& args) {
  if (args.size() < 2 || (args[1] != QLatin1String("sweep") && args[1] != QLatin1String("sweep-merge"))) return false;
  for (qsizetype i = 2; i < args.size(); ++i) {
    const QString& arg = args[i];
    if (arg == QLatin1String("--")) break;  // what follows is positional
    if (arg == QLatin1String("--plot") || arg.startsWith(QLatin1String("--plot="))) return true;
  }
  return false;
}

std::unique_ptr<QCoreApplication> makeCliApplication(int& argc, char** argv) {
  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  if (!needsGuiForPlot(args)) return std::make_unique<QCoreApplication>(argc, argv);
  // Headless by default: a CLI run must not depend on a display it does not show anything on.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // Without a login session (root in CI, a cron job) there is no XDG_RUNTIME_DIR and Qt warns
  // on stderr that it makes one; a private folder of our own keeps a script's stderr clean.
  if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
    const QString runtime = QDir::tempPath() + QStringLiteral("/dpstudio-runtime-") + QString::number(getuid());
    if (QDir().mkpath(runtime) &&
        QFile::setPermissions(runtime, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
      qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime));
  }
  return std::make_unique<QApplication>(argc, argv);
}

}  // namespace dpstudio::ui
