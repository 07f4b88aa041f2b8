#include <QJsonArray>

#include "app/cli/cli_common.h"
#include "core/sources/builtin.h"

namespace dpstudio::cli {

int runDatasets(const QStringList& args) {
  Command command("datasets", "List the built-in datasets and the synthetic generators.", "");
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  if (!command.parser().positionalArguments().isEmpty())
    return command.usageError("datasets takes no arguments");

  const auto catalog = builtinCatalog();
  if (command.json()) {
    QJsonArray datasets, generators;
    for (const auto& info : catalog) {
      QJsonObject entry{{"name", QString::fromStdString(info.name)},
                        {"spec", QString::fromStdString("builtin:" + info.name)},
                        {"description", QString::fromStdString(info.description)}};
      if (info.generator) {
        entry["parameters"] = QString::fromStdString(info.parameters);
        generators.append(entry);
      } else {
        entry["citation"] = QString::fromStdString(info.citation);
        datasets.append(entry);
      }
    }
    command.printJson(QJsonObject{{"datasets", datasets}, {"generators", generators}});
    return kOk;
  }
  printText("Built-in datasets (use as builtin:NAME):");
  for (const auto& info : catalog)
    if (!info.generator)
      printText(QString("  %1  %2").arg(QString::fromStdString(info.name), -14).arg(
          QString::fromStdString(info.description)));
  printText("\nGenerators (builtin:NAME or builtin:NAME:key=value,...; defaults shown):");
  for (const auto& info : catalog)
    if (info.generator)
      printText(QString("  %1  %2\n  %3  %4")
                    .arg(QString::fromStdString(info.name), -14)
                    .arg(QString::fromStdString(info.description))
                    .arg(QString(), -14)
                    .arg(QString::fromStdString(info.parameters)));
  return kOk;
}

}  // namespace dpstudio::cli
