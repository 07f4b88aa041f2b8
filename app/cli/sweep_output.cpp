#include "app/cli/sweep_output.h"

#include <QJsonArray>

#include "app/cli/sweep_plot.h"

namespace dpstudio::cli {
namespace {

const char* kNotARelease =
    "An experiment on the data, not a private release: the accuracies are measured on the data, every "
    "repetition is a fresh run of the mechanism, and nothing was recorded in a privacy ledger.";

QJsonObject pointJson(const experiment::CurvePoint& p, const std::string& axis) {
  return QJsonObject{{"mechanism", QString::fromStdString(p.series)},
                     {"axis", QString::fromStdString(axis)},
                     {"value", p.value},
                     {"mean", p.mean},
                     {"std", p.std},
                     {"count", static_cast<qint64>(p.count)},
                     {"ci95_low", p.low95},
                     {"ci95_high", p.high95}};
}

}  // namespace

int writeSweepOutput(const Command& command, const SweepOutput& output, const QString& outPath,
                     const QString& plotPath) {
  const experiment::TrialTable& table = output.table;
  const experiment::Curve curve = experiment::summarize(table.layout, table.trials);
  if (!outPath.isEmpty())
    if (auto status = experiment::writeTrialTable(outPath.toStdString(), table); !status)
      return command.fail(status.error());
  if (!plotPath.isEmpty())
    if (auto status = renderSweepPlot(curve, plotPath); !status) return command.fail(status.error());
  command.warn(output.warnings);

  const long long trials = static_cast<long long>(table.trials.size());
  if (command.json()) {
    QJsonArray points;
    for (const auto& p : curve.points) points.append(pointJson(p, curve.axis));
    QJsonArray references;
    for (const auto& r : curve.references)
      references.append(QJsonObject{{"label", QString::fromStdString(r.label)}, {"accuracy", r.accuracy}});
    QJsonArray series;
    for (const auto& s : table.layout.series)
      series.append(QJsonObject{{"mechanism", QString::fromStdString(s.key)},
                                {"title", QString::fromStdString(s.title)},
                                {"private", s.isPrivate}});
    QJsonObject out{{"axis", QString::fromStdString(curve.axis)},
                    {"points", points},
                    {"references", references},
                    {"series", series},
                    {"seconds", output.seconds},
                    {"trials", trials},
                    {"total_trials", static_cast<qint64>(table.layout.totalTrials)},
                    {"complete", table.complete},
                    {"fingerprint", QString::fromStdString(table.layout.fingerprint)},
                    {"shard", QString("%1/%2").arg(table.shardIndex + 1).arg(table.shardCount)},
                    {"not_a_release", kNotARelease},
                    {"warnings", toJsonArray(output.warnings)}};
    if (output.secondsAreTrialSum) out["seconds_note"] = "the sum of the merged trials' own times";
    if (output.hasWork)
      out["shared_work"] = QJsonObject{{"baselines", output.work.baselines},
                                       {"predictors", output.work.predictors},
                                       {"teacher_sets", output.work.teacherSets},
                                       {"party_sets", output.work.partySets},
                                       {"data_variants", output.work.dataVariants},
                                       {"exact_minimizers", output.work.exactMinimizers},
                                       {"warm_starts", output.work.warmStarts}};
    if (!outPath.isEmpty()) out["out"] = outPath;
    if (!plotPath.isEmpty()) out["plot"] = plotPath;
    command.printJson(out);
    return kOk;
  }
  printText(QString::fromStdString(curve.title));
  printText(QString("%1 of %2 trials%3, %4 s%5")
                .arg(trials)
                .arg(table.layout.totalTrials)
                .arg(table.shardCount > 1 ? QString(" (shard %1/%2)").arg(table.shardIndex + 1).arg(table.shardCount)
                                          : QString())
                .arg(output.seconds, 0, 'f', 2)
                .arg(table.complete ? "" : "  (INCOMPLETE: cancelled or shards missing)"));
  printText(QString("%1  %2  %3  %4  %5")
                .arg("mechanism", -28).arg(QString::fromStdString(curve.axis), 10)
                .arg("mean", 8).arg("std", 8).arg("count", 5));
  for (const auto& s : curve.series)
    for (const auto& p : curve.points)
      if (p.series == s.key)
        printText(QString("%1  %2  %3  %4  %5")
                      .arg(QString::fromStdString(p.series), -28)
                      .arg(p.value, 10, 'g', 6)
                      .arg(p.mean, 8, 'f', 4)
                      .arg(p.std, 8, 'f', 4)
                      .arg(p.count, 5));
  for (const auto& r : curve.references)
    printText(QString("reference  %1: %2").arg(QString::fromStdString(r.label)).arg(r.accuracy, 0, 'f', 4));
  if (!outPath.isEmpty()) printText("trials written to " + outPath);
  if (!plotPath.isEmpty()) printText("curve written to " + plotPath);
  printText(QString("privacy    ") + kNotARelease);
  return kOk;
}

}  // namespace dpstudio::cli
