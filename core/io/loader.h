#pragma once
// Reading datasets from files: CSV, LIBSVM/SVMlight sparse text and IDX (MNIST), each
// optionally gzip-compressed (detected from the bytes, not the name). Every failure is
// an Error naming the file, the line (or record) and the column or field.

#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/util/progress.h"
#include "core/util/result.h"

namespace dpstudio {

enum class DataFormat { Auto, Csv, LibSvm, Idx };

enum class MissingPolicy {
  Reject,    // a missing value is an error naming its row and column (default)
  DropRows,  // rows with a missing value are left out; the count goes to provenance.steps
};

struct LoadOptions {
  DataFormat format = DataFormat::Auto;  // Auto: from the extension (after .gz), then content

  // CSV
  std::optional<bool> hasHeader;  // unset: detected (a first row of non-numbers over numbers)
  std::string labelColumn;        // a header name, or a 0-based index ("-1" = last); empty = last
  MissingPolicy missing = MissingPolicy::Reject;
  char delimiter = 0;             // 0: detected among ',', ';', '\t'

  // LIBSVM: the feature count; 0 = the largest index present. A test file must be read
  // with its training file's count (a9a.t never uses feature 123).
  Index libsvmFeatures = 0;

  // IDX: the labels file that goes with an images file.
  std::string labelsPath;

  // Declared classes, in class order (declared_structure.h); empty: the labels present.
  std::vector<std::string> classes;
};

// Parses a format name as used on the command line: "csv", "libsvm" (or "svmlight"), "idx".
std::optional<DataFormat> parseDataFormat(const std::string& name);
std::string formatName(DataFormat format);

// Reads a dataset file. The result has passed validateForClassification().
Result<Dataset> loadDatasetFile(const std::string& path, const LoadOptions& options = {},
                                const Progress& progress = {});

}  // namespace dpstudio
