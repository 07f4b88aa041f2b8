#pragma once
// Runs the real dpstudio-cli binary, as a script would, and captures what it prints.

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

namespace dpstudio::test {

struct CliRun {
  int exitCode = -1;
  QString out;
  QString err;
  QJsonObject json() const { return QJsonDocument::fromJson(out.toUtf8()).object(); }
};

inline CliRun runCli(const QStringList& args, int timeoutMs = 120000) {
  QProcess process;
  process.start(QStringLiteral(DPSTUDIO_CLI_PATH), args);
  CliRun run;
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    run.err = "timed out";
    return run;
  }
  run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

}  // namespace dpstudio::test
