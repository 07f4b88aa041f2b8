#pragma once
// What every subcommand shares: its parser set-up, data options, output in text or JSON,
// and the mapping from errors to exit codes (docs/cli.md: 0 ok, 2 usage, 3 bad input data,
// 4 invalid privacy parameters, 5 bad bundle, 1 anything else; and 6, which is no error:
// `audit` found a violation).

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

#include "core/data/dataset.h"
#include "core/sources/prepare.h"
#include "core/io/loader.h"
#include "core/util/result.h"

namespace dpstudio::cli {

enum ExitCode { kOk = 0, kOther = 1, kUsage = 2, kBadData = 3, kBadPrivacy = 4, kBadBundle = 5, kAuditViolation = 6 };

int exitCodeFor(ErrorKind kind);

// One subcommand's invocation: its parser and whether --json was asked for.
class Command {
 public:
  Command(QString name, QString description, QString positionalSyntax);

  QCommandLineParser& parser() { return parser_; }
  const QCommandLineParser& parser() const { return parser_; }
  // Adds --format, --labels, --label-column, --header, --skip-rows, --delimiter,
  // --drop-missing, --features.
  void addDataOptions();
  // Parses args (args[0] is the program). Returns false when the caller should exit with
  // *exitCode (help shown, or a usage error already reported).
  bool parse(const QStringList& args, int* exitCode);

  // Adds --train, --test, --split, --test-fraction, --test-rows, --test-labels, --split-seed
  // and the shared preprocessing options (--unit-rows, --norm-bound, --feature-range(s), --project, --pca,
  // --intercept, and addRandomFeatureOptions()'s); implies addDataOptions().
  void addTrainingDataOptions();
  // --rff-dim D, --rff-gamma G, --rff-seed S: random Fourier features (random_features.h).
  void addRandomFeatureOptions();
  // The map those options ask for, or nullopt without --rff-dim (--rff-gamma or --rff-seed
  // alone is a usage error). Errors name the option: "rff-gamma must be finite and > 0".
  Result<std::optional<RandomFeaturesSpec>> randomFeatureSpec() const;

  bool json() const { return json_; }
  Result<LoadOptions> loadOptions() const;
  Result<DataRequest> dataRequest() const;

  // A numeric option, or `fallback` when it is absent; errors name the option.
  Result<double> number(const QString& name, double fallback) const;
  Result<long long> integer(const QString& name, long long fallback, long long min) const;

  // Writes the result: JSON object on stdout, or the text lines.
  void printJson(const QJsonObject& object) const;
  // Text mode: each warning on stderr as "dpstudio-cli NAME: warning: …". JSON mode: nothing
  // (the caller lists them under "warnings").
  void warn(const std::vector<std::string>& warnings) const;
  // Before a large file is read (an estimated peak of 256 MB or more), says on stderr what
  // reading it will take: "reading X needs about 5.6 GB of memory (20 GB available)". Data
  // that is not a file (builtin:NAME) or cannot be estimated says nothing.
  void sayMemoryNeeded(const std::string& spec, const LoadOptions& options) const;
  // Reports an error in the chosen style and returns its exit code.
  int fail(const Error& error) const;
  int usageError(const QString& message) const;

 private:
  QString name_;
  QCommandLineParser parser_;
  bool json_ = false;
  bool hasDataOptions_ = false;
};

void printText(const QString& text);  // to stdout, with a newline
QJsonArray toJsonArray(const std::vector<std::string>& items);
// How a CSV file's first row was read: {"choice": "auto"|"yes"|"no", "used", "reason",
// "delimiter", "skipped_lines"}, or null for other formats (the "header" key of info and train).
QJsonValue headerJson(const Provenance& provenance);
// The same for people; empty for other formats.
QString headerText(const Provenance& provenance);
// {"map": "rff", "kernel": "rbf", "dim", "gamma", "seed" (a string: 64 bits), "input_dim"}, or
// null without random Fourier features: the "feature_map" key of train's JSON.
QJsonValue featureMapJson(const Preprocessor& preprocessor);

// The "structure_from_data" key and text line of a trained result (declared_structure.h):
// the structure read off the private rows, or nothing when all of it was declared.
QJsonArray structureFromDataJson(const Provenance& provenance);
void printStructureFromData(const Provenance& provenance);

int runDatasets(const QStringList& args);
int runInfo(const QStringList& args);
int runTrain(const QStringList& args);
int runCalibrate(const QStringList& args);
int runAccountant(const QStringList& args);
int runAudit(const QStringList& args);
int runSweep(const QStringList& args);       // cmd_sweep.cpp
int runSweepMerge(const QStringList& args);  // cmd_sweep.cpp
int runPredict(const QStringList& args);     // cmd_predict.cpp
int runInspect(const QStringList& args);     // cmd_inspect.cpp
int runParty(const QStringList& args);       // cmd_party.cpp
int runCurator(const QStringList& args);     // cmd_curator.cpp

}  // namespace dpstudio::cli
