#include "app/cli/cli_common.h"

#include <QJsonDocument>

#include <algorithm>
#include <cstdio>

#include "app/cli/option_numbers.h"
#include "core/data/declared_structure.h"
#include "core/io/load_estimate.h"
#include "core/io/schema_json.h"

namespace dpstudio::cli {

int exitCodeFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::Usage: return kUsage;
    case ErrorKind::BadData: return kBadData;
    case ErrorKind::InvalidPrivacy: return kBadPrivacy;
    case ErrorKind::BadBundle: return kBadBundle;
    case ErrorKind::Cancelled:
    case ErrorKind::Internal: return kOther;
  }
  return kOther;
}

void printText(const QString& text) {
  const QByteArray bytes = text.toUtf8();
  std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
  std::fputc('\n', stdout);
}

QJsonValue featureMapJson(const Preprocessor& preprocessor) {
  if (!preprocessor.randomFeatures) return QJsonValue::Null;
  const RandomFeaturesSpec& spec = preprocessor.randomFeatures->spec;
  return QJsonObject{
      {"map", "rff"},
      {"kernel", "rbf"},
      {"dim", static_cast<qint64>(spec.dim)},
      {"gamma", spec.gamma},
      {"seed", QString::number(spec.seed)},
      {"input_dim", static_cast<qint64>(preprocessor.randomFeatures->inputDim())},
  };
}

QJsonValue headerJson(const Provenance& provenance) {
  if (!provenance.csv) return QJsonValue::Null;
  const CsvReading& csv = *provenance.csv;
  return QJsonObject{
      {"choice", QString::fromStdString(csv.headerChoice)},
      {"used", csv.header},
      {"reason", QString::fromStdString(csv.headerReason)},
      {"delimiter", QString::fromStdString(delimiterName(csv.delimiter))},
      {"skipped_lines", static_cast<qint64>(csv.skippedLines)},
  };
}

QString headerText(const Provenance& provenance) {
  if (!provenance.csv) return {};
  const CsvReading& csv = *provenance.csv;
  QString text = csv.header ? "first row read as column names" : "none: every row is data";
  text += " (" + QString::fromStdString(csv.headerChoice == "auto" ? "auto" : "--header " + csv.headerChoice);
  if (!csv.headerReason.empty()) text += ": " + QString::fromStdString(csv.headerReason);
  text += "); delimiter " + QString::fromStdString(delimiterName(csv.delimiter));
  if (csv.skippedLines > 0) text += QString("; %1 line(s) skipped first").arg(csv.skippedLines);
  return text;
}

void Command::warn(const std::vector<std::string>& warnings) const {
  if (json_) return;  // the caller puts them in the JSON's "warnings"
  for (const auto& warning : warnings) {
    const QByteArray bytes = ("dpstudio-cli " + name_ + ": warning: " + QString::fromStdString(warning) + "\n").toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
  }
}

void Command::sayMemoryNeeded(const std::string& spec, const LoadOptions& options) const {
  constexpr std::uint64_t kWorthSaying = 256'000'000;
  if (spec.empty() || spec.rfind("builtin:", 0) == 0) return;
  const auto estimate = estimateLoad(spec, options);
  if (!estimate || estimate.value().peakBytes < kWorthSaying) return;
  std::string line = "dpstudio-cli " + name_.toStdString() + ": reading " + spec + " needs " +
                     (estimate.value().exact ? "" : "about ") + byteSizeText(estimate.value().peakBytes) + " of memory";
  if (const auto available = availableMemoryBytes()) line += " (" + byteSizeText(*available) + " available)";
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

QJsonArray toJsonArray(const std::vector<std::string>& items) {
  QJsonArray out;
  for (const auto& item : items) out.append(QString::fromStdString(item));
  return out;
}

QJsonArray structureFromDataJson(const Provenance& provenance) { return toJsonArray(provenance.structureFromData); }

void printStructureFromData(const Provenance& provenance) {
  if (provenance.structureFromData.empty()) return;
  QStringList marks;
  for (const auto& mark : provenance.structureFromData) marks << QString::fromStdString(mark);
  printText("FROM THE DATA   " + marks.join(", ") +
            ": read off the private rows, not declared (declare with --classes, --features, --test)");
}

Command::Command(QString name, QString description, QString positionalSyntax)
    : name_(std::move(name)) {
  parser_.setApplicationDescription(description);
  parser_.addHelpOption();
  parser_.addOption({"json", "Print one JSON object on stdout."});
  if (!positionalSyntax.isEmpty()) parser_.addPositionalArgument("args", "", positionalSyntax);
}

void Command::addDataOptions() {
  hasDataOptions_ = true;
  parser_.addOptions({
      {"format", "Data format: csv, libsvm or idx (default: from the extension or content).",
       "FMT"},
      {"labels", "IDX labels file that goes with an IDX images file.", "FILE"},
      {"label-column",
       "CSV label column: a header name, or a column number counted from 1 as in every message "
       "(-1 = last; default: last).",
       "COL"},
      {"header",
       "CSV: is the first row read column names? yes, no, or auto (default: text over numbers; "
       "the choice is reported).",
       "yes|no|auto"},
      {"skip-rows", "CSV: skip the first N lines (a title or metadata line) before reading.", "N"},
      {"delimiter", "CSV: the cell delimiter: one character, or tab, comma, semicolon (default: auto).",
       "C"},
      {"drop-missing", "CSV: drop rows with missing values instead of rejecting the file."},
      {"features", "LIBSVM: the number of features (default: the largest index present).", "D"},
  });
  parser_.addOption({"schema",
                     "A data schema (JSON, docs/formats/schema.md): the label column, the classes, each feature's "
                     "public range or categories, the columns to ignore. Nothing it declares is read off the data.",
                     "FILE"});
  // Declared structure (issue 13 bug 6): without it the class set is read off the data.
  parser_.addOption({"classes",
                     "Declared classes: labels in class order (0,1,2) or a count C (labels 0..C-1); "
                     "rows with other labels are refused (default: the labels present, marked "
                     "structure_from_data).",
                     "LIST"});
}

void Command::addTrainingDataOptions() {
  addDataOptions();
  parser_.addOptions({
      {"train", "Training data: a file or builtin:NAME.", "DATA"},
      {"test", "Separate test data (default: a stratified split of the training data).", "DATA"},
      {"split",
       "How the test part is split off: stratified (seeded, per class; default) or ordered (the first "
       "rows train, the last rows test, in file order).",
       "stratified|ordered"},
      {"test-fraction", "Fraction of the training data held out for testing (default 0.25).", "F"},
      {"test-rows", "--split ordered: the last N rows test (e.g. UCI letter: 4000).", "N"},
      {"test-labels", "IDX labels file for an IDX --test.", "FILE"},
      {"split-seed", "Seed of the train/test split (default 1).", "S"},
      {"unit-rows", "Scale every row to norm 1 (per example: no privacy cost)."},
      {"norm-bound",
       "Public norm bound R: clip rows to norm R, then divide by R (default with declared ranges: derived "
       "from them, sqrt(d)/2).",
       "R"},
      {"feature-range",
       "Declared public range of every feature, mapped to [-1/2, 1/2] (centred on its midpoint); values outside "
       "are clipped (and counted).",
       "LO,HI"},
      {"feature-ranges", "Declared public range of each feature, in order: lo1:hi1,lo2:hi2,...",
       "RANGES"},
      {"project", "Seeded random projection to D dimensions (data-independent).", "D"},
      {"pca", "PCA to K dimensions, fitted on the training data (NOT private).", "K"},
      {"intercept", "Append an intercept feature (docs/algorithms.md §2.1: rows scaled by 1/sqrt 2)."},
  });
  addRandomFeatureOptions();
}

void Command::addRandomFeatureOptions() {
  parser_.addOptions({
      {"rff-dim",
       "Random Fourier features for the RBF kernel exp(-gamma ||x - x'||^2): map every row to D "
       "cosines (norm <= 1, data-independent), after --norm-bound and before --intercept.",
       "D"},
      {"rff-gamma", "gamma of --rff-dim's kernel, in the units of the rows after --norm-bound (default 1).", "G"},
      {"rff-seed", "Seed of the random Fourier features' draws (default 1).", "S"},
  });
}

Result<std::optional<RandomFeaturesSpec>> Command::randomFeatureSpec() const {
  if (!parser_.isSet("rff-dim")) {
    for (const char* name : {"rff-gamma", "rff-seed"})
      if (parser_.isSet(name))
        return Error{ErrorKind::Usage, std::string("--") + name + " needs --rff-dim D", {}, 0, name};
    return std::optional<RandomFeaturesSpec>{};
  }
  RandomFeaturesSpec spec;
  auto dim = integer("rff-dim", spec.dim, 1);
  if (!dim) return dim.error();
  auto gamma = number("rff-gamma", spec.gamma);
  if (!gamma) return gamma.error();
  auto seed = integer("rff-seed", 1, 0);
  if (!seed) return seed.error();
  spec.dim = static_cast<Index>(dim.value());
  spec.gamma = gamma.value();
  spec.seed = static_cast<std::uint64_t>(seed.value());
  if (auto status = spec.validate(); !status) return status.error();
  return std::optional<RandomFeaturesSpec>{spec};
}

Result<double> Command::number(const QString& name, double fallback) const {
  if (!parser_.isSet(name)) return fallback;
  return parseNumberOption(name, parser_.value(name));
}

Result<long long> Command::integer(const QString& name, long long fallback, long long min) const {
  if (!parser_.isSet(name)) return fallback;
  return parseIntegerOption(name, parser_.value(name), min);
}

Result<DataRequest> Command::dataRequest() const {
  DataRequest request;
  request.trainSpec = parser_.value("train").toStdString();
  if (request.trainSpec.empty())
    return Error{ErrorKind::Usage, "--train DATA is required", {}, 0, "train"};
  auto options = loadOptions();
  if (!options) return options.error();
  request.trainOptions = options.value();
  request.testSpec = parser_.value("test").toStdString();
  request.testOptions = options.value();
  request.testOptions.labelsPath = parser_.value("test-labels").toStdString();
  request.testOptions.libsvmFeatures = 0;  // taken from the training data
  request.testOptions.labelUse = LabelUse::Evaluation;  // scored only: one class will do
  if (parser_.isSet("test") && parser_.isSet("test-fraction"))
    return Error{ErrorKind::Usage, "give --test or --test-fraction, not both", {}, 0, "test-fraction"};
  if (parser_.isSet("split")) {
    const QString split = parser_.value("split").trimmed().toLower();
    if (split == "ordered") request.split = SplitKind::Ordered;
    else if (split != "stratified")
      return Error{ErrorKind::Usage, "--split must be stratified or ordered, found '" + split.toStdString() + "'",
                   {}, 0, "split"};
    if (parser_.isSet("test"))
      return Error{ErrorKind::Usage, "give --test or --split, not both", {}, 0, "split"};
  }
  if (parser_.isSet("test-rows")) {
    if (request.split != SplitKind::Ordered)
      return Error{ErrorKind::Usage, "--test-rows needs --split ordered", {}, 0, "test-rows"};
    if (parser_.isSet("test-fraction"))
      return Error{ErrorKind::Usage, "give --test-rows or --test-fraction, not both", {}, 0, "test-rows"};
    auto rows = integer("test-rows", 0, 1);
    if (!rows) return rows.error();
    request.testRows = static_cast<Index>(rows.value());
  }
  auto fraction = number("test-fraction", 0.25);
  if (!fraction) return fraction.error();
  if (!(fraction.value() >= 0 && fraction.value() < 1))
    return Error{ErrorKind::Usage, "must be in [0, 1)", {}, 0, "test-fraction"};
  request.testFraction = fraction.value();
  auto splitSeed = integer("split-seed", 1, 0);
  if (!splitSeed) return splitSeed.error();
  request.splitSeed = static_cast<std::uint64_t>(splitSeed.value());

  PreprocessSpec& pre = request.preprocess;
  pre.unitRows = parser_.isSet("unit-rows");
  pre.intercept = parser_.isSet("intercept");
  if (parser_.isSet("norm-bound")) {
    auto bound = number("norm-bound", 0);
    if (!bound) return bound.error();
    pre.normBound = bound.value();
  }
  if (request.trainOptions.schema && (parser_.isSet("feature-range") || parser_.isSet("feature-ranges"))) {
    const DataSchema& schema = *request.trainOptions.schema;
    const bool schemaRanges = schema.defaultRange || std::any_of(schema.features.begin(), schema.features.end(),
                                                                 [](const FeatureDeclaration& f) { return f.range.has_value(); });
    const char* option = parser_.isSet("feature-range") ? "feature-range" : "feature-ranges";
    if (schemaRanges)
      return Error{ErrorKind::Usage, std::string("the schema declares the feature ranges already: give --") + option +
                                         " or the schema's",
                   {}, 0, option};
  }
  if (parser_.isSet("feature-range") && parser_.isSet("feature-ranges"))
    return Error{ErrorKind::Usage, "give --feature-range (all features) or --feature-ranges (each), not both",
                 {}, 0, "feature-ranges"};
  if (parser_.isSet("feature-range")) {
    auto range = parseFeatureRange(parser_.value("feature-range"));
    if (!range) return range.error();
    pre.publicRanges = {range.value()};
  }
  if (parser_.isSet("feature-ranges")) {
    auto ranges = parseFeatureRanges(parser_.value("feature-ranges"));
    if (!ranges) return ranges.error();
    pre.publicRanges = ranges.value();
  }
  if (parser_.isSet("project")) {
    auto dim = integer("project", 0, 1);
    if (!dim) return dim.error();
    pre.projectionDim = static_cast<Index>(dim.value());
  }
  if (parser_.isSet("pca")) {
    auto dim = integer("pca", 0, 1);
    if (!dim) return dim.error();
    pre.pcaDim = static_cast<Index>(dim.value());
  }
  auto randomFeatures = randomFeatureSpec();
  if (!randomFeatures) return randomFeatures.error();
  pre.randomFeatures = randomFeatures.value();
  if (auto status = pre.validate(); !status) return status.error();
  sayMemoryNeeded(request.trainSpec, request.trainOptions);
  sayMemoryNeeded(request.testSpec, request.testOptions);
  return request;
}

bool Command::parse(const QStringList& args, int* exitCode) {
  json_ = args.contains("--json");  // so that even a parse error is reported as JSON
  if (!parser_.parse(args)) {
    *exitCode = usageError(parser_.errorText());
    return false;
  }
  json_ = parser_.isSet("json");
  if (parser_.isSet("help")) {
    // QCommandLineParser's usage line names the program as it was called; a subcommand's
    // names the subcommand too ("Usage: dpstudio-cli train [options]").
    QString help = parser_.helpText();
    const qsizetype eol = help.indexOf(QLatin1Char('\n'));
    const qsizetype options = help.left(eol).indexOf(QLatin1String(" [options]"));
    if (help.startsWith(QLatin1String("Usage: ")) && options > 0)
      help.replace(0, options, QStringLiteral("Usage: dpstudio-cli ") + name_);
    printText(help);
    *exitCode = kOk;
    return false;
  }
  return true;
}

Result<LoadOptions> Command::loadOptions() const {
  LoadOptions options;
  if (!hasDataOptions_) return options;
  if (parser_.isSet("format")) {
    const auto format = parseDataFormat(parser_.value("format").toStdString());
    if (!format)
      return Error{ErrorKind::Usage, "unknown format (use csv, libsvm or idx)", {}, 0, "format"};
    options.format = *format;
  }
  options.labelsPath = parser_.value("labels").toStdString();
  options.labelColumn = parser_.value("label-column").toStdString();
  if (parser_.isSet("header")) {
    const auto header = parseHeaderChoice(parser_.value("header").toStdString());
    if (!header)
      return Error{ErrorKind::Usage, "--header must be yes, no or auto, found '" +
                                         parser_.value("header").toStdString() + "'",
                   {}, 0, "header"};
    options.hasHeader = *header;
  }
  if (parser_.isSet("skip-rows")) {
    auto rows = integer("skip-rows", 0, 0);
    if (!rows) return rows.error();
    options.skipRows = static_cast<long>(rows.value());
  }
  if (parser_.isSet("delimiter")) {
    const auto delimiter = parseDelimiter(parser_.value("delimiter").toStdString());
    if (!delimiter)
      return Error{ErrorKind::Usage, "--delimiter must be one character (not a quote or a space), tab, comma, "
                                     "semicolon or auto, found '" + parser_.value("delimiter").toStdString() + "'",
                   {}, 0, "delimiter"};
    options.delimiter = *delimiter;
  }
  if (parser_.isSet("drop-missing")) options.missing = MissingPolicy::DropRows;
  if (parser_.isSet("features")) {
    bool ok = false;
    const long long d = parser_.value("features").toLongLong(&ok);
    if (!ok || d < 1)
      return Error{ErrorKind::Usage, "must be a whole number >= 1", {}, 0, "features"};
    options.libsvmFeatures = static_cast<Index>(d);
  }
  if (parser_.isSet("classes")) {
    auto classes = parseDeclaredClasses(parser_.value("classes").toStdString());
    if (!classes) return classes.error();
    options.classes = std::move(classes).value();
  }
  if (parser_.isSet("schema")) {
    auto schema = readSchemaFile(parser_.value("schema").toStdString());
    if (!schema) return schema.error();
    // One declaration of each thing: an option that says what the schema says too is an error.
    const DataSchema& declared = schema.value();
    const std::pair<const char*, bool> both[] = {{"label-column", !declared.labelColumn.empty()},
                                                 {"classes", !declared.classes.empty()},
                                                 {"features", declared.featureCount > 0}};
    for (const auto& [option, inSchema] : both)
      if (inSchema && parser_.isSet(option))
        return Error{ErrorKind::Usage, std::string("the schema declares it already: give --") + option + " or the schema's",
                     {}, 0, option};
    options.schema = std::move(schema).value();
  }
  return options;
}

void Command::printJson(const QJsonObject& object) const {
  printText(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)).trimmed());
}

int Command::fail(const Error& error) const {
  const int code = exitCodeFor(error.kind);
  QString message = QString::fromStdString(error.toString());
  // Core's CSV reader says what can be done about a missing value; the option that does it is
  // this front end's to name (issue 32 item 7).
  if (hasDataOptions_ && error.kind == ErrorKind::BadData &&
      message.contains(QLatin1String("rows with missing values can be dropped instead of rejected")))
    message += QStringLiteral(" (--drop-missing)");
  if (json_) {
    QJsonObject details{{"code", code}, {"message", message}};
    if (!error.field.empty()) details["field"] = QString::fromStdString(error.field);  // the option or column at fault
    printJson(QJsonObject{{"error", details}});
  } else {
    const QByteArray bytes = ("dpstudio-cli " + name_ + ": error: " + message + "\n").toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stderr);
  }
  return code;
}

int Command::usageError(const QString& message) const {
  return fail(Error{ErrorKind::Usage, message.toStdString() + " (see --help)", {}, 0, {}});
}

}  // namespace dpstudio::cli
