#include "core/io/libsvm_loader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

#include "core/io/parse_util.h"
#include "core/util/huge_pages.h"

// The file is parsed into (row, column, value) triplets first, then scattered into a
// zeroed dense matrix: the number of rows and the feature count are only known at the
// end, and the triplets cost 16 bytes per stored value rather than a copy of the matrix.

namespace dpstudio {

namespace {

// Past this index the dense matrix (and the duplicate check) would not fit in memory on
// a desktop anyway; such an index is nearly always a damaged file.
constexpr long long kMaxIndex = 1LL << 24;

struct Entry {
  std::uint32_t row;
  std::uint32_t column;  // 0-based
  double value;
};

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

class LibSvmParser {
 public:
  LibSvmParser(std::string_view text, const LoadOptions& options, const std::string& source,
               const Progress& progress)
      : text_(text),
        cap_(options.libsvmFeatures),
        maxDense_(options.maxDenseValues),
        indexLimit_(static_cast<long long>(std::min<std::uint64_t>(kMaxIndex, options.maxDenseValues))),
        source_(source),
        ticker_(progress) {}

  Result<Dataset> run();

 private:
  Error fail(std::string message, std::string field) const {
    return Error::badData(std::move(message), source_, line_, std::move(field));
  }
  // Parses one line (comment already cut off); false with error_ set on failure.
  bool parseLine(std::string_view line);
  bool parseFeature(std::string_view token, long field, std::uint32_t row);

  std::string_view text_;
  Index cap_;
  std::uint64_t maxDense_;   // LoadOptions::maxDenseValues
  long long indexLimit_;     // the largest index a dense matrix may hold: kMaxIndex or less
  const std::string& source_;
  io::ProgressTicker ticker_;

  long line_ = 0;
  Index rows_ = 0;
  long long maxIndex_ = 0;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> seenInRow_;  // seenInRow_[index] = row + 1 if index seen there
  io::LabelTable labels_;
  std::vector<int> labelIds_;
  std::optional<Error> error_;
};

Result<Dataset> LibSvmParser::run() {
  if (const auto nul = io::findNulByte(text_))
    return Error::badData(io::binaryDataMessage(*nul, "LIBSVM"), source_, nul->line);
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);
  if (text_.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Error::badData("the file is empty", source_);

  // Every stored value has a ':', so counting them sizes the triplets in one allocation.
  entries_.reserve(static_cast<std::size_t>(std::count(text_.begin(), text_.end(), ':')));
  std::size_t pos = 0;
  while (pos < text_.size()) {
    // LF, CRLF and a lone CR (old Mac files) each end a line, mixed too.
    const std::size_t end = std::min(text_.find_first_of("\r\n", pos), text_.size());
    std::string_view line = text_.substr(pos, end - pos);
    pos = end + 1;
    if (end + 1 < text_.size() && text_[end] == '\r' && text_[end + 1] == '\n') ++pos;
    ++line_;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    if (!parseLine(line)) return *error_;
    if (line_ % 4096 == 0 &&
        !ticker_.update(0.9 * static_cast<double>(std::min(pos, text_.size())) / text_.size()))
      return Error::cancelled();
  }
  if (rows_ == 0)
    return Error::badData("the file has no data lines (only comments and blank lines)", source_);

  const Index features = cap_ > 0 ? cap_ : static_cast<Index>(maxIndex_);
  if (io::tooLargeForDense(static_cast<std::uint64_t>(rows_), static_cast<std::uint64_t>(features), maxDense_))
    return Error::badData(std::to_string(rows_) + " rows × " + std::to_string(features) +
                              " features is too large for a dense feature matrix",
                          source_);
  Dataset data;
  resizeForFilling(data.X, rows_, features);
  data.X.setZero();
  double* x = data.X.data();
  for (const Entry& e : entries_)
    x[static_cast<std::size_t>(e.column) * static_cast<std::size_t>(rows_) + e.row] = e.value;
  std::vector<Entry>().swap(entries_);

  std::vector<int> remap;
  labels_.finish(data.classNames, remap);
  data.y.resize(rows_);
  for (Index r = 0; r < rows_; ++r)
    data.y[r] = remap[static_cast<std::size_t>(labelIds_[static_cast<std::size_t>(r)])];
  data.featureNames.reserve(static_cast<std::size_t>(features));
  for (Index j = 0; j < features; ++j) data.featureNames.push_back(io::numberedName("f", j + 1));
  data.provenance.source = source_;
  data.provenance.format = "libsvm";
  ticker_.done();
  return data;
}

bool LibSvmParser::parseLine(std::string_view line) {
  std::size_t pos = 0;
  const auto nextToken = [&]() -> std::string_view {
    while (pos < line.size() && isBlank(line[pos])) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && !isBlank(line[pos])) ++pos;
    return line.substr(start, pos - start);
  };
  const std::string_view label = nextToken();
  if (label.empty()) return true;  // blank or comment-only line

  double value = 0;
  switch (io::parseNumber(label, value)) {
    case io::NumberKind::Number: break;
    case io::NumberKind::NotFinite:
      error_ = fail("label " + io::quoteForMessage(label) + " is not a finite number", "label");
      return false;
    case io::NumberKind::NotNumber:
      error_ =
          fail("non-numeric label " + io::quoteForMessage(label) +
                   (label.find(':') != std::string_view::npos ? " (the label is missing)" : ""),
               "label");
      return false;
  }
  if (static_cast<std::uint64_t>(rows_) >= std::numeric_limits<std::uint32_t>::max()) {
    error_ = fail("too many rows", {});
    return false;
  }
  const auto row = static_cast<std::uint32_t>(rows_);
  long field = 1;
  for (std::string_view token = nextToken(); !token.empty(); token = nextToken())
    if (!parseFeature(token, ++field, row)) return false;
  labelIds_.push_back(labels_.intern(label));
  ++rows_;
  return true;
}

bool LibSvmParser::parseFeature(std::string_view token, long field, std::uint32_t row) {
  // Names are built only for an error: this runs once per stored value.
  const auto fieldName = [field] { return "field " + std::to_string(field); };
  const std::size_t colon = token.find(':');
  if (colon == std::string_view::npos) {
    error_ = fail("expected index:value, found " + io::quoteForMessage(token) + " (missing ':')",
                  fieldName());
    return false;
  }
  const std::string_view indexText = token.substr(0, colon);
  const std::string_view valueText = token.substr(colon + 1);
  long long index = 0;
  switch (io::parseInteger(indexText, index)) {
    case io::IntegerKind::Integer: break;
    case io::IntegerKind::Overflow:
      error_ =
          fail("feature index " + io::quoteForMessage(indexText) + " is too large", fieldName());
      return false;
    case io::IntegerKind::NotInteger:
      error_ = fail(indexText.empty()
                        ? std::string("missing feature index before ':'")
                        : "feature index " + io::quoteForMessage(indexText) + " is not an integer",
                    fieldName());
      return false;
  }
  if (index == 0) {
    error_ = fail("feature index 0 is not allowed: indices are 1-based", fieldName());
    return false;
  }
  if (index < 0) {
    error_ = fail("feature index " + std::to_string(index) + " is negative: indices are 1-based",
                  fieldName());
    return false;
  }
  const auto featureName = [index] { return "feature " + std::to_string(index); };
  if (cap_ > 0 && index > cap_) {
    error_ = fail("feature index " + std::to_string(index) + " is larger than the feature count " +
                      std::to_string(cap_),
                  featureName());
    return false;
  }
  if (index > indexLimit_) {
    error_ = fail("feature index " + std::to_string(index) + " is too large for a dense matrix",
                  featureName());
    return false;
  }
  double value = 0;
  switch (io::parseNumber(valueText, value)) {
    case io::NumberKind::Number: break;
    case io::NumberKind::NotFinite:
      error_ = fail("value is not finite: " + io::quoteForMessage(valueText), featureName());
      return false;
    case io::NumberKind::NotNumber:
      error_ = fail(valueText.empty()
                        ? std::string("missing value after ':'")
                        : "bad value " + io::quoteForMessage(valueText) + " (not a number)",
                    featureName());
      return false;
  }
  const auto slot = static_cast<std::size_t>(index);
  if (slot >= seenInRow_.size()) seenInRow_.resize(std::max(slot + 1, seenInRow_.size() * 2), 0);
  if (seenInRow_[slot] == row + 1) {
    error_ =
        fail("duplicate feature index " + std::to_string(index) + " on one line", featureName());
    return false;
  }
  seenInRow_[slot] = row + 1;
  maxIndex_ = std::max(maxIndex_, index);
  entries_.push_back({row, static_cast<std::uint32_t>(index - 1), value});
  return true;
}

}  // namespace

Result<Dataset> parseLibSvm(std::string_view text, const LoadOptions& options,
                            const std::string& sourceName, const Progress& progress) {
  return LibSvmParser(text, options, sourceName, progress).run();
}

}  // namespace dpstudio
