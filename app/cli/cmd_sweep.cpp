// `sweep` and `sweep-merge`: privacy–utility curves (core/experiment/sweep.h).
//
// A sweep is an experiment on the user's data, not a release: its output says so, and
// nothing is recorded anywhere as spent privacy.

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>

#include <cstdio>

#include "app/cli/cli_common.h"
#include "app/cli/progress_line.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/option_numbers.h"
#include "app/cli/plan_options.h"
#include "app/cli/private_prediction_options.h"
#include "app/cli/sweep_output.h"
#include "app/cli/sweep_presets.h"
#include "core/experiment/paper_presets.h"
#include "core/experiment/trial_table.h"
#include "core/util/parallel.h"

namespace dpstudio::cli {
namespace {

Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

// The data's name for a chart title: a file's name, a built-in's name without its options.
std::string dataTitle(const std::string& source) {
  const QString text = QString::fromStdString(source);
  if (text.startsWith("builtin:")) return text.section(':', 1, 1).toStdString();
  const QString name = QFileInfo(text).fileName();
  return name.isEmpty() ? source : name.toStdString();
}

// The sweep the command line asks for, checked before any data is read: the spec without its
// data, and how to run and where to write it.
struct SweepRequest {
  experiment::SweepSpec spec;
  int threads = 0;  // 0: every core
  Shard shard;
  bool measureBounds = false;
  QString outPath, plotPath;
};

Result<SweepRequest> readSweepRequest(const Command& command) {
  const QCommandLineParser& p = command.parser();
  if (!p.positionalArguments().isEmpty())
    return usage("sweep takes no positional arguments (use --train DATA) (see --help)", "");
  const QString mechanismList = p.isSet("mechanisms") ? p.value("mechanisms")
                                : p.isSet("mechanism") ? p.value("mechanism") : QString();
  if (mechanismList.isEmpty()) return usage("choose --mechanisms X,Y,..", "mechanisms");
  if (!p.isSet("axis"))
    return usage("choose --axis (epsilon, budget, delta, n, dims, classes, lambda, teachers, parties)", "axis");
  const auto axis = experiment::parseAxis(p.value("axis").toStdString());
  if (!axis)
    return usage("unknown axis '" + p.value("axis").toStdString() +
                     "' (epsilon, budget, delta, n, dims, classes, lambda, teachers, parties)",
                 "axis");
  if (!p.isSet("values")) return usage("give the axis values with --values V1,V2,..", "values");
  auto values = parseSweepValues(p.value("values"));
  if (!values) return values.error();
  auto repeats = command.integer("repeats", 10, 1);
  if (!repeats) return repeats.error();
  auto seed = command.integer("seed", 1, 0);
  if (!seed) return seed.error();
  auto threads = command.integer("threads", 0, 1);
  if (!threads) return threads.error();
  SweepRequest request;
  request.threads = static_cast<int>(threads.value());
  if (p.isSet("shard")) {
    auto parsed = parseShard(p.value("shard"));
    if (!parsed) return parsed.error();
    request.shard = parsed.value();
  }
  request.measureBounds = p.isSet("measure-bounds");
  request.outPath = p.value("out");
  request.plotPath = p.value("plot");
  if (!request.plotPath.isEmpty() && !request.plotPath.endsWith(".png", Qt::CaseInsensitive) &&
      !request.plotPath.endsWith(".svg", Qt::CaseInsensitive))
    return usage("the plot must be a .png or .svg file, found '" + request.plotPath.toStdString() + "'", "plot");

  experiment::SweepSpec& spec = request.spec;
  spec.axis = *axis;
  spec.values = values.value();
  spec.repeats = static_cast<int>(repeats.value());
  spec.seed = static_cast<std::uint64_t>(seed.value());
  for (const QString& item : mechanismList.split(',', Qt::SkipEmptyParts)) {
    auto plan = privacyPlan(command, item.trimmed());
    if (!plan) return plan.error();
    experiment::SweepSeries series;
    series.key = item.trimmed().toStdString();
    series.title = plan.value().title();
    series.plan = std::move(plan).value();
    spec.series.push_back(std::move(series));
  }
  return request;
}

// Reads the data, runs the request's trials (its shard of them) with a progress line, and
// returns what writeSweepOutput writes.
Result<SweepOutput> runSweepRequest(const Command& command, SweepRequest request) {
  auto dataRequest = command.dataRequest();
  if (!dataRequest) return dataRequest.error();
  auto prepared = prepareData(dataRequest.value());
  if (!prepared) return prepared.error();
  const PreparedData& data = prepared.value();
  request.spec.dataset = experiment::dataIdentity(data);

  if (request.threads > 0) setWorkerThreads(request.threads);
  const Shard& shard = request.shard;
  const long long shardTrials = [&] {
    const auto all = static_cast<long long>(experiment::expandTrials(experiment::withReferenceSeries(request.spec)).size());
    return all / shard.count + (shard.index < all % shard.count ? 1 : 0);
  }();
  ProgressLine progressLine("sweep", "trials", shardTrials);
  experiment::SweepControl control;
  control.threads = request.threads;
  control.shardIndex = shard.index;
  control.shardCount = shard.count;
  control.measureBoundedQuantities = request.measureBounds;
  control.onTrial = [&progressLine](const experiment::TrialRecord&) { progressLine.step(); };
  auto result = experiment::runSweep(request.spec, data, control);
  if (!result) return result.error();

  SweepOutput output;
  output.table.layout = experiment::layoutOf(result.value().spec, &data);
  output.table.layout.title = command.parser().isSet("title") ? command.parser().value("title").toStdString()
                                                              : dataTitle(data.train.provenance.source);
  output.table.shardIndex = shard.index;
  output.table.shardCount = shard.count;
  output.table.complete = !result.value().cancelled;
  output.table.trials = result.value().trials;
  output.seconds = result.value().seconds;
  output.work = result.value().work;
  output.hasWork = true;
  output.warnings = data.train.provenance.warnings;
  return output;
}

}  // namespace

int runSweep(const QStringList& args) {
  Command command("sweep",
                  "Accuracy against one parameter (the axis) for one or more mechanisms, repeated: a privacy-utility "
                  "curve. An experiment on the data, not a private release.",
                  "");
  command.addTrainingDataOptions();
  addMechanismOptions(command.parser());
  addTuningOption(command.parser());
  addPrivatePredictionOptions(command.parser());
  command.parser().addOptions({
      {"mechanisms", "Comma-separated mechanisms, each optionally with :published, :corrected, :gaussian or "
                     ":l2-laplace (e.g. output,loss,prediction,subsample or multiparty,multiparty:published).",
       "X,Y,.."},
      {"axis", "The swept parameter: epsilon, budget, delta, n, dims, classes, lambda, teachers or parties.", "AXIS"},
      {"values", "Comma-separated values of the axis.", "V1,V2,.."},
      {"repeats", "Repetitions per (mechanism, value) (default 10).", "R"},
      {"seed", "Master seed: every trial's seed derives from it and the trial (default 1).", "S"},
      {"threads", "Worker threads (default: every core).", "N"},
      {"out", "Write the trial table (one CSV row per trial) to this file.", "FILE.csv"},
      {"plot", "Render the curve to this PNG or SVG file (no display needed).", "FILE.png|svg"},
      {"measure-bounds", "Also measure what the published bounds bound (excess risk for DP-LMGC, ||w - w*|| and "
                         "excess risk for multiparty) into the trial table's last columns."},
      {"shard", "Run only shard K of N of the trials (merge the tables with sweep-merge).", "K/N"},
      {"preset", "A sweep of the papers' figures: " + presetNames().join(", ") + ". " +
                     QString::fromStdString(experiment::figuresWithoutPreset()) + ".", "NAME"},
      {"data-dir", "Where the presets find their data (default: $DPSTUDIO_DATA_DIR).", "DIR"},
      {"title", "The data's name in the chart's and table's title (default: the file's or built-in's "
                "name; the presets say MNIST, UCI Adult).", "NAME"},
      {"tolerance", "Relative gradient tolerance of the optimizer (default 1e-8).", "TOL"},
      {"max-iterations", "Iteration limit of the optimizer (default 3000).", "N"},
  });
  // A preset puts its options first; options given explicitly come after and win.
  auto effective = withPresetArguments(args);
  if (!effective) return command.fail(effective.error());
  int exitCode = kOk;
  if (!command.parse(effective.value(), &exitCode)) return exitCode;
  auto request = readSweepRequest(command);
  if (!request) return command.fail(request.error());
  auto output = runSweepRequest(command, request.value());
  if (!output) return command.fail(output.error());
  return writeSweepOutput(command, output.value(), request.value().outPath, request.value().plotPath);
}

int runSweepMerge(const QStringList& args) {
  Command command("sweep-merge",
                  "Merge the trial tables of a sweep's shards (sweep --shard K/N --out) into one summary and plot.",
                  "TABLE.csv...");
  command.parser().addOptions({
      {"out", "Write the merged trial table to this file.", "FILE.csv"},
      {"plot", "Render the curve to this PNG or SVG file.", "FILE.png|svg"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QStringList files = command.parser().positionalArguments();
  if (files.isEmpty()) return command.usageError("give the shards' trial tables");
  std::vector<experiment::TrialTable> tables;
  std::vector<std::string> names;
  for (const QString& file : files) {
    auto table = experiment::readTrialTable(file.toStdString());
    if (!table) return command.fail(table.error());
    tables.push_back(std::move(table).value());
    names.push_back(file.toStdString());
  }
  auto merged = experiment::mergeTrialTables(tables, names);
  if (!merged) return command.fail(merged.error());
  SweepOutput output;
  output.table = std::move(merged).value();
  for (const auto& t : output.table.trials) output.seconds += t.seconds;
  output.secondsAreTrialSum = true;
  return writeSweepOutput(command, output, command.parser().value("out"), command.parser().value("plot"));
}

}  // namespace dpstudio::cli
