// `inspect FILE.dpmodel [--json]`: the manifest and the privacy statement of a bundle, after
// every check `predict` makes (a bad bundle exits 5 with the member and the problem).

#include <QJsonDocument>

#include "app/cli/cli_common.h"
#include "core/bundle/bundle_reader.h"

namespace dpstudio::cli {
namespace {

QString joined(const QJsonValue& list, const QString& separator = ", ") {
  QStringList items;
  for (const QJsonValue& item : list.toArray()) items << item.toString();
  return items.join(separator);
}

QString number(const QJsonValue& value) {
  return value.isNull() ? QString("none") : QString::number(value.toDouble(), 'g', 8);
}

void printPrivacy(const QJsonObject& p) {
  printText(QString("private         %1").arg(p["private"].toBool() ? "yes" : "NO"));
  printText(QString("mechanism       %1 (%2 calibration), noise %3 from the %4 source")
                .arg(p["mechanism"].toString(), p["calibration"].toString(), p["noise"].toString(),
                     p["noise_source"].toString()));
  printText(QString("guarantee       epsilon %1, delta %2 under %3")
                .arg(number(p["epsilon"]), number(p["delta"]), p["adjacency"].toString()));
  printText("accountant      " + p["accountant"].toString());
  const QJsonObject derived = p["derived"].toObject(), formulas = p["formulas"].toObject();
  for (auto it = derived.begin(); it != derived.end(); ++it)
    printText(QString("  %1 = %2   [%3]").arg(it.key(), -20).arg(it.value().toDouble(), 0, 'g', 8)
                  .arg(formulas[it.key()].toString()));
  if (p["release_granularity"].toDouble() > 0)
    printText(QString("granularity     released values rounded to multiples of %1").arg(number(p["release_granularity"])));
  printText("statement       " + p["statement"].toString());
  if (p.contains("warning")) printText("WARNING         " + p["warning"].toString());
  for (const QJsonValue& reason : p["not_private"].toArray()) printText("NOT PRIVATE     " + reason.toString());
  if (!p["structure_from_data"].toArray().isEmpty())
    printText("from the data   read off the private rows, not declared: " + joined(p["structure_from_data"]));
}

}  // namespace

int runInspect(const QStringList& args) {
  Command command("inspect", "Check a model bundle (.dpmodel) and print its manifest and privacy statement.",
                  "FILE.dpmodel");
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QStringList positional = command.parser().positionalArguments();
  if (positional.size() != 1) return command.usageError("inspect takes exactly one FILE.dpmodel argument");
  auto loaded = bundle::readBundle(positional[0]);
  if (!loaded) return command.fail(loaded.error());
  const QJsonObject& m = loaded.value().contents.manifest;
  if (command.json()) {
    QJsonObject out{{"file", positional[0]}, {"manifest", m}, {"privacy", m["privacy"]}};
    if (const auto remaining = loaded.value().budgetRemaining()) out["budget_remaining"] = static_cast<qint64>(*remaining);
    command.printJson(out);
    return kOk;
  }
  const QJsonObject model = m["model"].toObject();
  printText(QString("bundle          %1 (format %2 version %3, made by %4 %5)")
                .arg(positional[0], m["format"].toString())
                .arg(m["version"].toInt())
                .arg(m["producer"].toObject()["name"].toString(), m["producer"].toObject()["version"].toString()));
  printText(QString("kind            %1: %2 %3 (%4)")
                .arg(m["kind"].toString(), model["structure"].toString(), model["name"].toString(),
                     model["score"].toString()));
  printText(QString("classes         %1").arg(joined(m["classes"])));
  printText(QString("input           %1 features; the model reads %2 after preprocessing")
                .arg(m["input_dim"].toInteger()).arg(model["input_dim"].toInteger()));
  for (const QJsonValue& step : m["preprocessing"].toObject()["steps"].toArray())
    printText("preprocessing   " + step.toString());
  printText(QString("training        %1 rows, lambda %2").arg(m["training"].toObject()["train_rows"].toInteger())
                .arg(model["lambda"].toDouble()));
  printPrivacy(m["privacy"].toObject());
  if (m.contains("inference")) {
    const QJsonObject inference = m["inference"].toObject();
    printText(QString("budget          %1 of %2 answers left (%3 given)")
                  .arg(inference["budget_remaining"].toInteger())
                  .arg(inference["budget"].toInteger())
                  .arg(inference["answers_used"].toInteger()));
  }
  const QJsonObject arrays = m["arrays"].toObject();
  for (auto it = arrays.begin(); it != arrays.end(); ++it) {
    const QJsonObject info = it.value().toObject();
    QStringList shape;
    for (const QJsonValue& n : info["shape"].toArray()) shape << QString::number(n.toInteger());
    printText(QString("array           %1.npy (%2)%3: %4")
                  .arg(it.key(), shape.join(", "), info["private"].toBool() ? "" : " NOT private",
                       info["meaning"].toString()));
  }
  return kOk;
}

}  // namespace dpstudio::cli
