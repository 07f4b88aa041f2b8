#include "core/io/loader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/data/declared_structure.h"
#include "core/io/csv_loader.h"
#include "core/io/gzip.h"
#include "core/io/idx_loader.h"
#include "core/io/libsvm_loader.h"
#include "core/io/load_estimate.h"
#include "core/io/parse_util.h"

namespace dpstudio {

namespace {

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// The first line that is neither blank nor a '#' comment, up to its end.
std::string_view firstContentLine(std::string_view text, std::size_t skip = 0) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find_first_of("\r\n", pos), text.size());
    const std::string_view line = io::trimSpaces(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.front() == '#') continue;
    if (skip-- == 0) return line;
  }
  return {};
}

// `label index:value ...`: a number, then at least one token of digits ':' something.
// Lines of a label alone (all features zero) decide nothing, so a few lines are tried.
bool looksLikeLibSvm(std::string_view text) {
  for (std::size_t k = 0; k < 5; ++k) {
    std::string_view line = firstContentLine(text, k);
    if (line.empty()) return false;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = io::trimSpaces(line.substr(0, hash));
    const std::size_t space = line.find_first_of(" \t");
    double label = 0;
    if (io::parseNumber(line.substr(0, space), label) == io::NumberKind::NotNumber) return false;
    if (space == std::string_view::npos) continue;
    const std::string_view token = io::trimSpaces(line.substr(space));
    const std::size_t colon = token.find(':');
    if (colon == 0 || colon == std::string_view::npos) return false;
    return std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(colon),
                       [](char c) { return c >= '0' && c <= '9'; });
  }
  return false;
}

// From the file name, after a ".gz": Auto when the name says nothing.
DataFormat formatFromName(const std::string& path, std::string_view content) {
  std::string name = lowered(std::filesystem::path(path).filename().string());
  if (endsWith(name, ".gz")) name.resize(name.size() - 3);
  const std::size_t dot = name.rfind('.');
  const std::string extension = dot == std::string::npos ? std::string() : name.substr(dot + 1);
  if (extension == "csv" || extension == "tsv") return DataFormat::Csv;
  if (extension == "svm" || extension == "libsvm" || extension == "svmlight")
    return DataFormat::LibSvm;
  if (extension.rfind("idx", 0) == 0 || endsWith(name, "-ubyte") || endsWith(name, ".ubyte"))
    return DataFormat::Idx;
  if (extension == "txt" && !looksLikeLibSvm(content) &&
      firstContentLine(content).find(',') != std::string_view::npos)
    return DataFormat::Csv;
  return DataFormat::Auto;
}

DataFormat sniffFormat(std::string_view content) {
  if (looksLikeIdx(content)) return DataFormat::Idx;
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);
  if (looksLikeLibSvm(content)) return DataFormat::LibSvm;
  return DataFormat::Csv;
}

// A label column with many distinct values is more often a continuous target (a
// regression column, an id) than a classification label: say so, since it is accepted.
void warnAboutManyClasses(Dataset& data) {
  constexpr Index kManyClasses = 20;
  const Index classes = data.classes();
  if (classes <= kManyClasses) return;
  const bool numeric = std::all_of(data.classNames.begin(), data.classNames.end(), [](const std::string& name) {
    double value = 0;
    return io::parseNumber(name, value) == io::NumberKind::Number;
  });
  const bool sparse = classes * 10 > data.rows();  // fewer than 10 rows per class on average
  if (!numeric && !sparse) return;
  data.provenance.warnings.push_back(
      "the label column has " + std::to_string(classes) + " distinct " + (numeric ? "numeric " : "") +
      "values, read as " + std::to_string(classes) + " classes (" +
      (sparse ? "fewer than 10 rows per class" : "it looks like a continuous column") +
      "): check that it is the label column and not a measurement or an id");
}

}  // namespace

std::optional<std::optional<bool>> parseHeaderChoice(const std::string& name) {
  const std::string key = lowered(std::string(io::trimSpaces(name)));
  if (key == "auto") return std::optional<bool>{};
  if (key == "yes") return std::optional<bool>{true};
  if (key == "no") return std::optional<bool>{false};
  return std::nullopt;
}

std::string headerChoiceName(const std::optional<bool>& hasHeader) {
  if (!hasHeader) return "auto";
  return *hasHeader ? "yes" : "no";
}

std::optional<char> parseDelimiter(const std::string& name) {
  const std::string key = lowered(name);
  if (key == "auto") return '\0';
  if (key == "tab" || key == "\\t" || key == "\t") return '\t';
  if (key == "comma") return ',';
  if (key == "semicolon") return ';';
  if (key == "pipe") return '|';
  if (name.size() != 1) return std::nullopt;
  const char c = name[0];
  if (c == '"' || c == '\n' || c == '\r' || c == ' ') return std::nullopt;
  return c;
}

std::string delimiterName(char delimiter) {
  switch (delimiter) {
    case ',': return "comma";
    case ';': return "semicolon";
    case '\t': return "tab";
    default: return std::string("'") + delimiter + "'";
  }
}

std::optional<DataFormat> parseDataFormat(const std::string& name) {
  const std::string key = lowered(std::string(io::trimSpaces(name)));
  if (key == "auto") return DataFormat::Auto;
  if (key == "csv" || key == "tsv") return DataFormat::Csv;
  if (key == "libsvm" || key == "svmlight" || key == "svm") return DataFormat::LibSvm;
  if (key == "idx") return DataFormat::Idx;
  return std::nullopt;
}

std::string formatName(DataFormat format) {
  switch (format) {
    case DataFormat::Auto: return "auto";
    case DataFormat::Csv: return "csv";
    case DataFormat::LibSvm: return "libsvm";
    case DataFormat::Idx: return "idx";
  }
  return "auto";
}

DataFormat detectDataFormat(const std::string& path, std::string_view content, DataFormat declared) {
  if (declared != DataFormat::Auto) return declared;
  const DataFormat named = formatFromName(path, content);
  return named != DataFormat::Auto ? named : sniffFormat(content);
}

LoadOptions withSchemaDefaults(LoadOptions options) {
  if (!options.schema) return options;
  const DataSchema& schema = *options.schema;
  if (options.labelColumn.empty() && options.labelUse != LabelUse::None) options.labelColumn = schema.labelColumn;
  if (options.classes.empty()) options.classes = schema.classes;
  if (options.libsvmFeatures == 0) options.libsvmFeatures = schema.featureCount;
  return options;
}

namespace {

// The columns a schema's features make: one per numeric feature, one per declared category.
Index schemaWidth(const DataSchema& schema) {
  Index width = 0;
  for (const FeatureDeclaration& f : schema.features) width += f.categorical() ? static_cast<Index>(f.categories.size()) : 1;
  return width;
}

// A schema on a LIBSVM or IDX file: no categories (those rows are numbers), and the feature
// count it declares.
Status checkSchemaFits(const DataSchema& schema, const Dataset& data, DataFormat format, const std::string& path) {
  if (format != DataFormat::Csv && format != DataFormat::Auto && schema.declaresCategories())
    return Error::badData("the schema declares categorical features, which only CSV files have", path, 0, "features");
  if (!schema.features.empty() && data.features() != schemaWidth(schema))
    return Error::badData("the file has " + std::to_string(data.features()) + " features but the schema declares " +
                              std::to_string(schemaWidth(schema)),
                          path, 0, "features");
  if (schema.featureCount > 0 && data.features() != schema.featureCount)
    return Error::badData("the file has " + std::to_string(data.features()) + " features but the schema declares " +
                              std::to_string(schema.featureCount) + " (feature_count)",
                          path, 0, "feature_count");
  return Ok{};
}

}  // namespace

Result<Dataset> loadDatasetFile(const std::string& path, const LoadOptions& given, const Progress& progress) {
  const LoadOptions options = withSchemaDefaults(given);
  // Small files are read and parsed between two progress checks: look before starting.
  if (progress.cancelled()) return Error::cancelled();
  // A file that cannot fit is refused before it exhausts the machine (load_estimate.h). An
  // estimate that fails leaves the reader to name what is wrong with the file.
  if (const auto estimate = estimateLoad(path, options); estimate && !estimate.value().sampledWhole) {
    if (Status fits = checkLoadFits(estimate.value(), availableMemoryBytes(), path); !fits) return fits.error();
  }
  // Reading (and inflating) is the cheaper part; parsing gets most of the bar.
  Result<FileBytes> file = readFileBytes(path, io::subProgress(progress, 0.0, 0.3));
  if (!file) return file.error();
  std::string bytes = std::move(file.value().bytes);
  const bool gzip = file.value().gzip;

  const DataFormat format = detectDataFormat(path, bytes, options.format);

  if (options.labelUse == LabelUse::None && format != DataFormat::Csv && format != DataFormat::Auto)
    return Error::badData("rows without labels are read from CSV files only: LIBSVM and IDX rows carry labels", path);
  const Progress parseProgress = io::subProgress(progress, 0.3, 1.0);
  Result<Dataset> parsed = Error::badData("unknown format", path);
  switch (format) {
    case DataFormat::Csv:
    case DataFormat::Auto: parsed = parseCsv(bytes, options, path, parseProgress); break;
    case DataFormat::LibSvm: parsed = parseLibSvm(bytes, options, path, parseProgress); break;
    case DataFormat::Idx: {
      if (options.labelsPath.empty())
        return Error::badData("IDX images need a labels file (--labels)", path);
      Result<FileBytes> labels = readFileBytes(options.labelsPath);
      if (!labels) return labels.error();
      parsed = parseIdx(bytes, path, labels.value().bytes, options.labelsPath, parseProgress);
      break;
    }
  }
  if (!parsed) return parsed.error();
  std::string().swap(bytes);  // the dataset may be large too: free the text first
  if (progress.cancelled()) return Error::cancelled();
  Dataset data = std::move(parsed).value();
  data.provenance.gzip = gzip;
  // What the private file decided rather than the user (declared_structure.h).
  if (format == DataFormat::LibSvm && options.libsvmFeatures == 0) markStructureFromData(data.provenance, kStructureDimension);
  if (data.labelled) markStructureFromData(data.provenance, kStructureClasses);
  if (options.schema) {
    if (Status fits = checkSchemaFits(*options.schema, data, format, path); !fits) return fits.error();
    if (options.schema->draftedFromData) markStructureFromData(data.provenance, kStructureDraftedSchema);
    data.provenance.schema = std::make_shared<const DataSchema>(*options.schema);
  }
  if (!options.classes.empty() && data.labelled) {
    auto declared = applyDeclaredClasses(std::move(data), options.classes);
    if (!declared) return declared.error();
    data = std::move(declared).value();
  }
  if (Status valid = validateForClassification(data, options.labelUse == LabelUse::Training ? 2 : 1); !valid)
    return valid.error();
  if (data.labelled) warnAboutManyClasses(data);
  progress.report(1.0);
  return data;
}

}  // namespace dpstudio
