#pragma once
// The CSV reader's parser (csv_loader.h's parseCsv), declared for its two source files:
// csv_loader.cpp (the passes over the text, the header, the categories, the dataset) and
// csv_columns.cpp (which column is the label and which are features, by a schema or not).
// Internal to core/io.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/data_schema.h"
#include "core/io/csv_tokenizer.h"
#include "core/io/loader.h"
#include "core/io/parse_util.h"

namespace dpstudio::csv_detail {

using io::CsvRecord;
using io::CsvTokenizer;
using io::NumberKind;

using MaybeError = std::optional<Error>;

// What pass 1 learns about one feature column.
struct ColumnStats {
  Index numbers = 0;  // cells that are numbers, finite or not
  Index texts = 0;    // cells that are not numbers
  long firstTextLine = 0;
  std::string firstText;
  long firstNonFiniteLine = 0;
  std::string firstNonFinite;
  long firstNumberLine = 0;  // a categorical column's numbers are said in its note
  std::string firstNumber;
};

// What pass 1 gathers from a run of records. The parser reads the first records into one part
// itself; the rest of a large text is read in chunks on the worker pool, a part each
// (csv_chunks.cpp), and the parts are merged in file order.
struct ScanPart {
  Index rows = 0;
  Index dropped = 0;
  std::vector<ColumnStats> stats;  // per feature column
  std::vector<double> values;      // rows × feature columns, row-major
  io::LabelTable labels;           // this part's labels, first seen first
  std::vector<int> labelIds;       // per row, an id into `labels`
  std::optional<Error> error;      // the part's first error; it stops there
};

class CsvParser {
 public:
  CsvParser(std::string_view text, const LoadOptions& options, const std::string& source,
            const Progress& progress)
      : text_(text), options_(options), source_(source), ticker_(progress) {}

  Result<Dataset> run();

 private:
  Error fail(std::string message, long line = 0, std::string field = {}) const {
    return Error::badData(std::move(message), source_, line, std::move(field));
  }
  Error syntaxError(const CsvTokenizer& tokenizer) const {
    return fail(tokenizer.errorMessage(), tokenizer.errorLine(),
                columnName(tokenizer.errorColumn()));
  }
  // For errors' field: the header name, else "column K" (1-based).
  std::string columnName(std::size_t column) const {
    if (column < names_.size() && !names_[column].empty()) return names_[column];
    return "column " + std::to_string(column + 1);
  }
  // For messages: "'name'", else the 1-based number.
  std::string columnPhrase(std::size_t column) const {
    if (column < names_.size() && !names_[column].empty()) return "'" + names_[column] + "'";
    return std::to_string(column + 1);
  }
  std::string featureBaseName(std::size_t k) const {
    const std::size_t column = featureColumns_[k];
    if (column < names_.size() && !names_[column].empty()) return names_[column];
    return io::numberedName("x", static_cast<long long>(k + 1));
  }

  MaybeError readLayout(CsvTokenizer& tokenizer, CsvRecord& first, CsvRecord& second,
                        bool& haveSecond);
  bool detectHeader(const CsvRecord& first, const CsvRecord* second);
  bool isScikitLearnMetadata(const CsvRecord& first, const CsvRecord& second) const;
  void nameClassesFromMetadata(Dataset& data) const;
  MaybeError resolveLabelColumn();
  std::optional<std::size_t> findColumn(const std::string& spec) const;
  MaybeError applySchema();
  const io::CsvCell* firstMissing(const CsvRecord& record) const;
  MaybeError scanRecord(const CsvRecord& record, ScanPart& part) const;
  // scanRecord's path for a row whose feature cells are all finite numbers and whose label is
  // not missing; false (nothing recorded) for any other row.
  bool scanNumericRecord(const CsvRecord& record, ScanPart& part) const;
  ScanPart newPart(std::size_t lineBound) const;
  // Pass 1 over the records after the tokenizer's position, into parts_ (csv_chunks.cpp).
  MaybeError scanRest(CsvTokenizer& tokenizer, long line);
  MaybeError scanSequentially(CsvTokenizer& tokenizer);
  bool scanInChunks(std::size_t from, long line);  // false: the text cannot be cut (quotes)
  MaybeError mergeParts();
  // The numeric feature columns of X from the parts' row-major values, which it frees.
  void fillNumericColumns(Eigen::MatrixXd& X, const std::vector<Index>& offset);
  MaybeError checkColumns();
  MaybeError encodeCategories();
  Result<Dataset> assemble();

  std::string_view text_;
  const LoadOptions& options_;
  const std::string& source_;
  io::ProgressTicker ticker_;

  char delimiter_ = ',';
  long firstLine_ = 1;  // physical line the tokenizers start on (after skipped lines)
  bool header_ = false;
  std::string headerReason_;
  std::vector<std::string> classNamesFromMetadata_;  // a scikit-learn first line's names
  std::vector<std::string> warnings_;
  std::vector<std::string> names_;  // header cells; empty without a header
  std::size_t columns_ = 0;
  static constexpr std::size_t kNoLabel = static_cast<std::size_t>(-1);  // LabelUse::None
  std::size_t label_ = 0;
  std::vector<std::size_t> featureColumns_;  // the file column of each feature column
  // Per feature column: the schema's declaration, or null (then the cells decide).
  std::vector<const FeatureDeclaration*> declared_;

  std::vector<ScanPart> parts_;  // in file order
  // The parts merged (mergeParts), but for their values, which stay in the parts.
  Index rows_ = 0;
  Index dropped_ = 0;
  std::vector<ColumnStats> stats_;
  io::LabelTable labels_;
  std::vector<int> labelIds_;

  std::vector<bool> categorical_;
  std::vector<io::LabelTable> categories_;     // per feature column, used if categorical
  std::vector<std::vector<int>> categoryIds_;  // per feature column: one id per row
};

}  // namespace dpstudio::csv_detail
