#include <QJsonArray>

#include "app/cli/cli_common.h"
#include "core/io/schema_json.h"
#include "core/sources/source.h"

namespace dpstudio::cli {

int runInfo(const QStringList& args) {
  Command command("info", "Describe a dataset: shape, classes and their counts, the largest "
                          "row norm, the detected format.",
                  "DATA (a file, or builtin:NAME)");
  command.addDataOptions();
  command.parser().addOption(
      {"draft-schema",
       "Write a draft data schema of DATA to FILE (docs/formats/schema.md): its label column, classes, each "
       "feature's observed range or categories, marked \"drafted_from_data\" until you have replaced what was read "
       "off the rows by public knowledge.",
       "FILE"});
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QStringList positional = command.parser().positionalArguments();
  if (positional.size() != 1) return command.usageError("info takes exactly one DATA argument");
  auto options = command.loadOptions();
  if (!options) return command.fail(options.error());

  command.sayMemoryNeeded(positional[0].toStdString(), options.value());
  auto loaded = openDataset(positional[0].toStdString(), options.value());
  if (!loaded) return command.fail(loaded.error());
  const Dataset& data = loaded.value();
  const auto counts = data.classCounts();
  std::vector<std::string> warnings = data.provenance.warnings;
  const QString draftPath = command.parser().value("draft-schema");
  if (!draftPath.isEmpty()) {
    if (auto written = writeSchemaFile(draftSchema(data), draftPath.toStdString()); !written)
      return command.fail(written.error());
    warnings.push_back("the draft schema " + draftPath.toStdString() +
                       " holds ranges, categories and classes read off the rows: replace them by what is publicly "
                       "known, then delete \"drafted_from_data\" (until then results say their structure came from "
                       "the data)");
  }
  command.warn(warnings);

  if (command.json()) {
    QJsonObject classCounts;
    QJsonArray classNames;
    for (std::size_t k = 0; k < counts.size(); ++k) {
      const QString name = QString::fromStdString(data.classNames[k]);
      classCounts[name] = static_cast<qint64>(counts[k]);
      classNames.append(name);
    }
    command.printJson(QJsonObject{
        {"source", QString::fromStdString(data.provenance.source)},
        {"format", QString::fromStdString(data.provenance.format)},
        {"gzip", data.provenance.gzip},
        {"header", headerJson(data.provenance)},
        {"warnings", toJsonArray(warnings)},
        {"rows", static_cast<qint64>(data.rows())},
        {"features", static_cast<qint64>(data.features())},
        {"classes", static_cast<qint64>(data.classes())},
        {"class_names", classNames},
        {"class_counts", classCounts},
        {"max_row_norm", data.maxRowNorm()},
        // Computed from the rows: describing a file is not a DP release, but this value must
        // not become the public norm bound R of a private run (issue 13 bug 6).
        {"max_row_norm_is_data_derived", true},
        {"draft_schema", draftPath.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(draftPath)},
    });
    return kOk;
  }
  printText(QString("source        %1").arg(QString::fromStdString(data.provenance.source)));
  printText(QString("format        %1%2").arg(QString::fromStdString(data.provenance.format),
                                              data.provenance.gzip ? " (gzip)" : ""));
  if (data.provenance.csv) printText("header        " + headerText(data.provenance));
  printText(QString("rows          %1").arg(data.rows()));
  printText(QString("features      %1").arg(data.features()));
  printText(QString("classes       %1").arg(data.classes()));
  for (std::size_t k = 0; k < counts.size(); ++k)
    printText(QString("  %1 %2  (%3%)")
                  .arg(QString::fromStdString(data.classNames[k]), -10)
                  .arg(counts[k], 8)
                  .arg(100.0 * static_cast<double>(counts[k]) / static_cast<double>(data.rows()), 0,
                       'f', 1));
  printText(QString("max row norm  %1 (data-derived: not a public bound; do not use as R)")
                .arg(data.maxRowNorm(), 0, 'g', 6));
  for (const auto& step : data.provenance.steps)
    printText(QString("note          %1").arg(QString::fromStdString(step)));
  return kOk;
}

}  // namespace dpstudio::cli
