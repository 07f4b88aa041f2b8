#include "core/io/csv_loader.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>

#include "core/io/csv_parser.h"
#include "core/io/parse_util.h"
#include "core/util/huge_pages.h"

// Two passes over the text at most. Pass 1 (csv_chunks.cpp: in chunks on the worker pool
// when the text is large and has no quotes) checks the shape, finds missing values,
// interns labels and parses every feature cell into a row-major buffer while counting,
// per column, numbers against text. Only then is it known which columns are numeric and
// which are categorical; if some are categorical, pass 2 re-tokenizes the text to give
// their values ids. Cells are views into the text throughout: no string per cell.

namespace dpstudio {
namespace csv_detail {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool isNumberLike(std::string_view text) {
  double value = 0;
  return io::parseNumber(text, value) != NumberKind::NotNumber;
}

bool isNumber(std::string_view text) {
  double value = 0;
  return io::parseNumber(text, value) == NumberKind::Number;
}

bool isCount(std::string_view text) {
  long long value = 0;
  return io::parseInteger(text, value) == io::IntegerKind::Integer && value >= 0;
}

// Past `lines` physical line breaks of `text` (or to its end).
std::size_t skipLines(std::string_view text, long lines) {
  std::size_t pos = 0;
  for (long k = 0; k < lines && pos < text.size(); ++k) {
    pos = std::min(text.find_first_of("\r\n", pos), text.size());
    if (pos < text.size() && text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') ++pos;
    if (pos < text.size()) ++pos;
  }
  return pos;
}

}  // namespace

Result<Dataset> CsvParser::run() {
  if (const auto nul = io::findNulByte(text_)) return fail(io::binaryDataMessage(*nul, "CSV"), nul->line);
  if (text_.substr(0, kUtf8Bom.size()) == kUtf8Bom) text_.remove_prefix(kUtf8Bom.size());
  if (options_.skipRows < 0) return fail("the number of rows to skip must be >= 0");
  if (options_.skipRows > 0) {
    text_.remove_prefix(skipLines(text_, options_.skipRows));
    firstLine_ += options_.skipRows;
  }
  if (text_.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return fail(options_.skipRows > 0 ? "no rows left after skipping " + std::to_string(options_.skipRows) + " lines"
                                      : std::string("the file is empty"));
  delimiter_ = options_.delimiter != 0 ? options_.delimiter : io::detectDelimiter(text_);

  CsvTokenizer tokenizer(text_, delimiter_, firstLine_);
  CsvRecord first, second;
  bool haveSecond = false;
  if (MaybeError e = readLayout(tokenizer, first, second, haveSecond)) return *e;
  if (!classNamesFromMetadata_.empty()) {
    // A scikit-learn metadata line: read again from the line after it.
    const long skipped = first.line - firstLine_ + 1;
    text_.remove_prefix(skipLines(text_, skipped));
    firstLine_ += skipped;
    tokenizer = CsvTokenizer(text_, delimiter_, firstLine_);
    header_ = false;
    names_.clear();
    featureColumns_.clear();
    if (MaybeError e = readLayout(tokenizer, first, second, haveSecond)) return *e;
  }

  parts_.push_back(newPart(2));
  if (!header_)
    if (MaybeError e = scanRecord(first, parts_.front())) return *e;
  if (haveSecond)
    if (MaybeError e = scanRecord(second, parts_.front())) return *e;
  if (MaybeError e = scanRest(tokenizer, tokenizer.line())) return *e;
  if (rows_ == 0)
    return fail("every data row has a missing value: no rows are left after dropping them");

  if (MaybeError e = checkColumns()) return *e;
  if (MaybeError e = encodeCategories()) return *e;
  Result<Dataset> data = assemble();
  ticker_.done();
  return data;
}

MaybeError CsvParser::readLayout(CsvTokenizer& tokenizer, CsvRecord& first, CsvRecord& second,
                                 bool& haveSecond) {
  if (!tokenizer.next(first))
    return tokenizer.failed() ? syntaxError(tokenizer) : fail("the file is empty");
  haveSecond = tokenizer.next(second);
  // A syntax error in the second record is reported below, once the header (if the
  // first row is one) can name its column.
  const bool secondFailed = tokenizer.failed();

  columns_ = first.cells.size();
  const std::size_t fewest = options_.labelUse == LabelUse::None ? 1 : 2;  // features (+ label)
  if (columns_ < fewest && !options_.hasHeader && haveSecond && !secondFailed && second.cells.size() >= 2)
    return fail("the first row has a single field but the next has " + std::to_string(second.cells.size()) +
                    ": if the first row is a title, skip it (--skip-rows " +
                    std::to_string(first.line - firstLine_ + 1 + options_.skipRows) + "; in the GUI, Skip lines)",
                first.line);
  if (columns_ < fewest)
    return fail("the first row has a single column (delimiter: " + delimiterName(delimiter_) +
                    "); a dataset needs feature columns and a label column",
                first.line);
  if (options_.hasHeader) {
    header_ = *options_.hasHeader;
  } else if (classNamesFromMetadata_.empty() && haveSecond && !secondFailed &&
             isScikitLearnMetadata(first, second)) {
    for (std::size_t j = 2; j < first.cells.size(); ++j) classNamesFromMetadata_.emplace_back(first.cells[j].text);
    return std::nullopt;  // run() reads again after this line
  } else if (haveSecond && !secondFailed && first.cells.size() != second.cells.size()) {
    // Taking such a row as a header would name the wrong columns, or fail later with a
    // message about row 2: say what is wrong with row 1.
    return fail("the first row has " + std::to_string(first.cells.size()) + " fields but the next has " +
                    std::to_string(second.cells.size()) +
                    ": if the first row is a title or metadata line, skip it (--skip-rows " +
                    std::to_string(first.line - firstLine_ + 1 + options_.skipRows) +
                    "; in the GUI, Skip lines); if it is the header, say so (--header yes; Header: yes)",
                first.line);
  } else {
    header_ = detectHeader(first, haveSecond ? &second : nullptr);
  }
  if (header_) {
    names_.reserve(columns_);
    for (const io::CsvCell& cell : first.cells) names_.emplace_back(cell.text);
  }
  if (secondFailed) return syntaxError(tokenizer);
  if (header_ && !haveSecond) return fail("no data rows after the header", first.line);
  if (options_.labelUse == LabelUse::None) {
    if (!options_.labelColumn.empty())
      return fail("rows without labels have no label column, but one was named ('" + options_.labelColumn + "')");
    label_ = kNoLabel;
  } else if (MaybeError e = resolveLabelColumn()) {
    return e;
  }
  for (std::size_t j = 0; j < columns_; ++j)
    if (j != label_) featureColumns_.push_back(j);
  declared_.assign(featureColumns_.size(), nullptr);
  if (MaybeError e = applySchema()) return e;
  return std::nullopt;
}

bool CsvParser::detectHeader(const CsvRecord& first, const CsvRecord* second) {
  const std::size_t cells = first.cells.size();
  if (second) {
    const std::size_t shared = std::min(cells, second->cells.size());
    std::size_t textOverNumber = 0;
    for (std::size_t j = 0; j < shared; ++j) {
      const std::string_view top = first.cells[j].text;
      if (io::isMissingToken(top) || isNumberLike(top)) continue;
      if (isNumber(second->cells[j].text)) ++textOverNumber;
    }
    if (textOverNumber == 0) {
      headerReason_ = "no cell of the first row is text over a number in the next";
      return false;
    }
    headerReason_ = std::to_string(textOverNumber) + " of the " + std::to_string(cells) +
                    " cells of the first row are text over numbers in the next";
    // One stray word in a row of numbers is more often a damaged data row than a header
    // (a header of numbered columns "0,1,…,label" is the exception): the guess is kept, as
    // before, but a person is told to check it.
    if (2 * textOverNumber < cells)
      warnings_.push_back("the first row (line " + std::to_string(first.line) + ") was taken as a header because " +
                          headerReason_ + "; if it is a data row, read the file with header no (--header no)");
    return true;
  }
  // A lone row of nothing but text can only be a header.
  const bool allText = std::none_of(first.cells.begin(), first.cells.end(), [](const io::CsvCell& cell) {
    return io::isMissingToken(cell.text) || isNumberLike(cell.text);
  });
  headerReason_ = allText ? "the only row is all text" : "the only row has numbers";
  return allText;
}

// scikit-learn's bundled CSV files (iris.csv, wine_data.csv, breast_cancer.csv) start with
// "n_samples,n_features,class_0_name,…": two counts, then text, where the next row has
// n_features + 1 cells and numbers under that text.
bool CsvParser::isScikitLearnMetadata(const CsvRecord& first, const CsvRecord& second) const {
  if (first.cells.size() < 3 || !isCount(first.cells[0].text) || !isCount(first.cells[1].text)) return false;
  long long features = 0;
  (void)io::parseInteger(first.cells[1].text, features);
  if (features + 1 != static_cast<long long>(second.cells.size())) return false;
  bool textOverNumber = false;
  for (std::size_t j = 2; j < first.cells.size(); ++j) {
    const std::string_view cell = first.cells[j].text;
    if (io::isMissingToken(cell) || isNumberLike(cell)) return false;
    if (j < second.cells.size() && isNumber(second.cells[j].text)) textOverNumber = true;
  }
  return textOverNumber || first.cells.size() != second.cells.size();
}

// The metadata's names stand for the labels 0, 1, …: used only when the labels are exactly those.
void CsvParser::nameClassesFromMetadata(Dataset& data) const {
  if (classNamesFromMetadata_.size() != data.classNames.size()) return;
  for (std::size_t k = 0; k < data.classNames.size(); ++k)
    if (data.classNames[k] != std::to_string(k)) return;
  data.classNames = classNamesFromMetadata_;
  data.provenance.steps.push_back("class names 0.." + std::to_string(data.classNames.size() - 1) +
                                  " taken from the metadata line");
}

const io::CsvCell* CsvParser::firstMissing(const CsvRecord& record) const {
  for (const io::CsvCell& cell : record.cells)
    if (io::isMissingToken(cell.text)) return &cell;
  return nullptr;
}

bool CsvParser::scanNumericRecord(const CsvRecord& record, ScanPart& part) const {
  if (label_ != kNoLabel && io::isMissingToken(record.cells[label_].text)) return false;
  const std::size_t features = featureColumns_.size();
  const std::size_t base = part.values.size();
  part.values.resize(base + features);
  double* out = part.values.data() + base;
  for (std::size_t k = 0; k < features; ++k)
    if (io::parseNumber(record.cells[featureColumns_[k]].text, out[k]) != NumberKind::Number) {
      part.values.resize(base);
      return false;
    }
  for (std::size_t k = 0; k < features; ++k) {
    ColumnStats& stats = part.stats[k];
    ++stats.numbers;
    if (stats.firstNumberLine == 0) {
      stats.firstNumberLine = record.cells[featureColumns_[k]].line;
      stats.firstNumber = record.cells[featureColumns_[k]].text;
    }
  }
  if (label_ != kNoLabel) part.labelIds.push_back(part.labels.intern(record.cells[label_].text));
  ++part.rows;
  return true;
}

MaybeError CsvParser::scanRecord(const CsvRecord& record, ScanPart& part) const {
  if (record.cells.size() != columns_)
    return fail("expected " + std::to_string(columns_) + " cells (as in the " +
                    (header_ ? "header" : "first row") + "), found " +
                    std::to_string(record.cells.size()),
                record.line);
  // A missing value is never a number, so a row of numbers (the usual row) has none to look for.
  if (scanNumericRecord(record, part)) return std::nullopt;
  if (const io::CsvCell* missing = firstMissing(record)) {
    if (options_.missing == MissingPolicy::DropRows) {
      ++part.dropped;
      return std::nullopt;
    }
    const auto column = static_cast<std::size_t>(missing - record.cells.data());
    const std::string what =
        missing->text.empty() ? "an empty cell" : io::quoteForMessage(missing->text);
    return fail(
        "missing value (" + what + "); rows with missing values can be dropped instead of rejected",
        missing->line, columnName(column));
  }
  if (label_ != kNoLabel) part.labelIds.push_back(part.labels.intern(record.cells[label_].text));

  const std::size_t features = featureColumns_.size();
  const std::size_t base = part.values.size();
  part.values.resize(base + features);
  double* out = part.values.data() + base;
  for (std::size_t k = 0; k < features; ++k) {
    const io::CsvCell& cell = record.cells[featureColumns_[k]];
    ColumnStats& stats = part.stats[k];
    const NumberKind kind = io::parseNumber(cell.text, out[k]);
    if (kind != NumberKind::NotNumber && stats.firstNumberLine == 0) {
      stats.firstNumberLine = cell.line;
      stats.firstNumber = cell.text;
    }
    switch (kind) {
      case NumberKind::Number: ++stats.numbers; break;
      case NumberKind::NotFinite:
        ++stats.numbers;
        if (stats.firstNonFiniteLine == 0) {
          stats.firstNonFiniteLine = cell.line;
          stats.firstNonFinite = cell.text;
        }
        break;
      case NumberKind::NotNumber:
        ++stats.texts;
        if (stats.firstTextLine == 0) {
          stats.firstTextLine = cell.line;
          stats.firstText = cell.text;
        }
        break;
    }
  }
  ++part.rows;
  return std::nullopt;
}

MaybeError CsvParser::checkColumns() {
  // The error reported is the earliest offending cell in the file, whichever column.
  long bestLine = LONG_MAX;
  MaybeError best;
  categorical_.assign(featureColumns_.size(), false);
  for (std::size_t k = 0; k < featureColumns_.size(); ++k) {
    const ColumnStats& s = stats_[k];
    if (declared_[k] && declared_[k]->categorical()) {
      categorical_[k] = true;
      continue;
    }
    // Mostly text: categorical, and any numbers in it are just more category values (unless
    // a schema declared the column numeric).
    if (!declared_[k] && s.texts > 0 && s.texts >= s.numbers) {
      categorical_[k] = true;
      continue;
    }
    const std::size_t column = featureColumns_[k];
    if (s.texts > 0 && s.firstTextLine < bestLine) {
      bestLine = s.firstTextLine;
      best = fail("non-numeric value " + io::quoteForMessage(s.firstText) + " in numeric column " +
                      columnPhrase(column) + (declared_[k] ? " (numeric by the schema)" : ""),
                  bestLine, columnName(column));
    }
    if (s.firstNonFiniteLine > 0 && s.firstNonFiniteLine < bestLine) {
      bestLine = s.firstNonFiniteLine;
      best = fail("value is not finite: " + io::quoteForMessage(s.firstNonFinite), bestLine,
                  columnName(column));
    }
  }
  return best;
}

MaybeError CsvParser::encodeCategories() {
  if (std::none_of(categorical_.begin(), categorical_.end(), [](bool b) { return b; })) return std::nullopt;
  const std::size_t features = featureColumns_.size();
  categories_.resize(features);
  categoryIds_.resize(features);
  // A declared column's ids are positions in its declared list (a value outside it is an error).
  std::vector<std::map<std::string, int, std::less<>>> declaredIds(features);
  for (std::size_t k = 0; k < features; ++k) {
    if (!categorical_[k]) continue;
    categoryIds_[k].resize(static_cast<std::size_t>(rows_));
    if (declared_[k])
      for (std::size_t c = 0; c < declared_[k]->categories.size(); ++c)
        declaredIds[k].emplace(declared_[k]->categories[c], static_cast<int>(c));
  }

  // Pass 1 accepted this text, so re-reading it cannot fail.
  CsvTokenizer tokenizer(text_, delimiter_, firstLine_);
  CsvRecord record;
  if (header_) tokenizer.next(record);
  std::size_t row = 0;
  while (tokenizer.next(record)) {
    if (firstMissing(record)) continue;  // a dropped row
    for (std::size_t k = 0; k < features; ++k) {
      if (!categorical_[k]) continue;
      const io::CsvCell& cell = record.cells[featureColumns_[k]];
      if (!declared_[k]) {
        categoryIds_[k][row] = categories_[k].intern(cell.text);
        continue;
      }
      const auto it = declaredIds[k].find(cell.text);
      if (it == declaredIds[k].end())
        return fail("value " + io::quoteForMessage(cell.text) + " is not one of the " +
                        std::to_string(declared_[k]->categories.size()) + " categories the schema declares for column " +
                        columnPhrase(featureColumns_[k]),
                    cell.line, columnName(featureColumns_[k]));
      categoryIds_[k][row] = it->second;
    }
    if (++row % 1024 == 0 &&
        !ticker_.update(0.8 + 0.15 * static_cast<double>(tokenizer.position()) / text_.size()))
      return Error::cancelled();
  }
  return std::nullopt;
}

Result<Dataset> CsvParser::assemble() {
  Dataset data;
  const std::size_t features = featureColumns_.size();
  std::vector<Index> offset(features);
  std::vector<std::vector<std::string>> categoryNames(features);
  std::vector<std::vector<int>> categoryRemap(features);
  Index width = 0;
  for (std::size_t k = 0; k < features; ++k) {
    offset[k] = width;
    if (categorical_[k] && declared_[k]) {
      categoryNames[k] = declared_[k]->categories;
      for (std::size_t c = 0; c < categoryNames[k].size(); ++c) categoryRemap[k].push_back(static_cast<int>(c));
      width += static_cast<Index>(categoryNames[k].size());
      for (const std::string& value : categoryNames[k])
        data.featureNames.push_back(featureBaseName(k) + "=" + value);
      data.provenance.steps.push_back("one-hot encoded column " + columnPhrase(featureColumns_[k]) + " (" +
                                      std::to_string(categoryNames[k].size()) + " categories declared by the schema)");
      data.provenance.categoricalColumns.push_back({featureBaseName(k), offset[k], categoryNames[k], true});
    } else if (categorical_[k]) {
      categories_[k].finish(categoryNames[k], categoryRemap[k]);
      width += static_cast<Index>(categoryNames[k].size());
      for (const std::string& value : categoryNames[k])
        data.featureNames.push_back(featureBaseName(k) + "=" + value);
      data.provenance.categoricalColumns.push_back({featureBaseName(k), offset[k], categoryNames[k], false});
      std::string note = "one-hot encoded column " + columnPhrase(featureColumns_[k]) + " (" +
                         std::to_string(categoryNames[k].size()) + " categories)";
      // Mostly text, some numbers: a person should see which cells were read as names, in
      // case the column was meant to be numeric and the text is the typo.
      const ColumnStats& s = stats_[k];
      if (s.numbers > 0)
        note += ": " + std::to_string(s.numbers) + " of its " + std::to_string(s.numbers + s.texts) +
                " cells are numbers, read as category names too (the first " +
                io::quoteForMessage(s.firstNumber) + " on line " + std::to_string(s.firstNumberLine) +
                "; the first text " + io::quoteForMessage(s.firstText) + " on line " +
                std::to_string(s.firstTextLine) + ")";
      data.provenance.steps.push_back(std::move(note));
      // docs/algorithms.md §0.2: the category list was read off the data, so a model whose input
      // layout depends on it is not private unless the categories are declared publicly.
      data.provenance.notPrivate.push_back("the categories of column " +
                                           columnPhrase(featureColumns_[k]) +
                                           " were read from the data");
    } else {
      width += 1;
      data.featureNames.push_back(featureBaseName(k));
    }
  }

  // Categorical columns with very many values (an id column, say) explode here.
  if (io::tooLargeForDense(static_cast<std::uint64_t>(rows_), static_cast<std::uint64_t>(width),
                          options_.maxDenseValues))
    return fail(std::to_string(rows_) + " rows × " + std::to_string(width) +
                " features (after one-hot encoding) is too large for a dense feature matrix");
  resizeForFilling(data.X, rows_, width);
  fillNumericColumns(data.X, offset);
  for (std::size_t k = 0; k < features; ++k) {
    if (!categorical_[k]) continue;
    const auto count = static_cast<Index>(categoryNames[k].size());
    data.X.middleCols(offset[k], count).setZero();
    for (Index r = 0; r < rows_; ++r)
      data.X(r, offset[k] + categoryRemap[k][categoryIds_[k][static_cast<std::size_t>(r)]]) = 1.0;
  }

  if (label_ == kNoLabel) {
    data.labelled = false;
    data.y = Eigen::VectorXi::Zero(rows_);
  } else {
    std::vector<int> labelRemap;
    labels_.finish(data.classNames, labelRemap);
    data.y.resize(rows_);
    for (Index r = 0; r < rows_; ++r)
      data.y[r] = labelRemap[static_cast<std::size_t>(labelIds_[static_cast<std::size_t>(r)])];
  }

  data.provenance.source = source_;
  data.provenance.format = "csv";
  CsvReading reading;
  reading.delimiter = delimiter_;
  reading.headerChoice = headerChoiceName(options_.hasHeader);
  reading.header = header_;
  if (!options_.hasHeader) reading.headerReason = headerReason_;
  reading.skippedLines = firstLine_ - 1;
  if (label_ != kNoLabel)
    reading.labelColumn = label_ < names_.size() && !names_[label_].empty() ? names_[label_] : std::to_string(label_ + 1);
  if (!classNamesFromMetadata_.empty()) {
    reading.headerReason = "line " + std::to_string(firstLine_ - 1) +
                           " is a scikit-learn metadata line (rows, features, class names): skipped; then " +
                           headerReason_;
    nameClassesFromMetadata(data);
  }
  data.provenance.csv = reading;
  data.provenance.warnings = warnings_;
  if (dropped_ > 0)
    data.provenance.steps.insert(
        data.provenance.steps.begin(),
        "dropped " + std::to_string(dropped_) + " rows with missing values");
  return data;
}

}  // namespace csv_detail

Result<Dataset> parseCsv(std::string_view text, const LoadOptions& options,
                         const std::string& sourceName, const Progress& progress) {
  return csv_detail::CsvParser(text, options, sourceName, progress).run();
}

}  // namespace dpstudio
