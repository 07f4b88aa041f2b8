#pragma once
// Reading datasets from files: CSV, LIBSVM/SVMlight sparse text and IDX (MNIST), each
// optionally gzip-compressed (detected from the bytes, not the name). Every failure is
// an Error naming the file, the line (or record) and the column or field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/data_schema.h"
#include "core/data/dataset.h"
#include "core/util/progress.h"
#include "core/util/result.h"

namespace dpstudio {

enum class DataFormat { Auto, Csv, LibSvm, Idx };

enum class MissingPolicy {
  Reject,    // a missing value is an error naming its row and column (default)
  DropRows,  // rows with a missing value are left out; the count goes to provenance.steps
};

enum class LabelUse { Training, Evaluation, None };

struct LoadOptions {
  DataFormat format = DataFormat::Auto;  // Auto: from the extension (after .gz), then content

  // CSV
  // unset ("auto"): detected, see csv_loader.h; the choice made is in provenance.csv.
  std::optional<bool> hasHeader;
  // Physical lines skipped before anything is read (a title or metadata line); line
  // numbers in errors still count them.
  long skipRows = 0;
  // A header name, or a 1-based column number as in every message (negative counts from
  // the end: "-1" = last); empty = last.
  std::string labelColumn;
  MissingPolicy missing = MissingPolicy::Reject;
  char delimiter = 0;             // 0: detected among ',', ';', '\t'

  // LIBSVM: the feature count; 0 = the largest index present. A test file must be read
  // with its training file's count (a9a.t never uses feature 123).
  Index libsvmFeatures = 0;

  // CSV and LIBSVM: the largest dense feature matrix built, in values (rows × features):
  // io::kMaxDenseValues, 2^29 doubles (4 GiB). The fuzzers lower it: a 20-byte LIBSVM line
  // with feature index 10^7 asks for an 80 MB row and 10^7 feature names.
  std::uint64_t maxDenseValues = std::uint64_t{1} << 29;

  // IDX: the labels file that goes with an images file.
  std::string labelsPath;

  // Declared classes, in class order (declared_structure.h); empty: the labels present.
  std::vector<std::string> classes;

  // A declared schema (data_schema.h): its label column, classes and feature count fill the
  // options above that are unset (withSchemaDefaults); a CSV file's feature columns are read
  // as it declares them (by header name, or by position), categories in its order, other
  // columns refused unless ignored. LIBSVM and IDX files take its classes and count only.
  std::optional<DataSchema> schema;

  // What the rows are for: Training needs labels of at least two classes; Evaluation (a test
  // file, rows to predict and score) takes labels of a single class too; None reads every
  // column as a feature, rows without labels to predict (CSV only: LIBSVM and IDX rows
  // always carry labels). Dataset::labelled says which was read.
  LabelUse labelUse = LabelUse::Training;
};

// "auto" → unset, "yes" → true, "no" → false (as hasHeader takes it); nullopt for
// anything else (the outer optional).
std::optional<std::optional<bool>> parseHeaderChoice(const std::string& name);
std::string headerChoiceName(const std::optional<bool>& hasHeader);  // "auto", "yes", "no"

// A delimiter as a person types it: one character, or "tab", "comma", "semicolon", "\t";
// 0 for "auto". nullopt for a quote, a line break, a space or anything longer.
std::optional<char> parseDelimiter(const std::string& name);
std::string delimiterName(char delimiter);  // "comma", "semicolon", "tab", or the character

// Parses a format name as used on the command line: "csv", "libsvm" (or "svmlight"), "idx".
std::optional<DataFormat> parseDataFormat(const std::string& name);
std::string formatName(DataFormat format);

// The format a file is read as: `declared` unless Auto, else from the name (after a
// ".gz"), else from the content (its first decompressed bytes suffice).
DataFormat detectDataFormat(const std::string& path, std::string_view content, DataFormat declared = DataFormat::Auto);

// `options` with the schema's label column (unless the rows are read without labels),
// classes and feature count where the options leave them unset.
LoadOptions withSchemaDefaults(LoadOptions options);

// Reads a dataset file. The result has passed validateForClassification().
Result<Dataset> loadDatasetFile(const std::string& path, const LoadOptions& options = {},
                                const Progress& progress = {});

}  // namespace dpstudio
