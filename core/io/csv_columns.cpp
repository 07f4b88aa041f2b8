// CsvParser's columns (csv_parser.h): the label column, and the feature columns a schema
// declares (by header name or by position), each found once before any row is read.
#include <algorithm>

#include "core/io/csv_parser.h"

namespace dpstudio::csv_detail {

// A column as a schema names it: a header name, else a 1-based number (-1 = last).
std::optional<std::size_t> CsvParser::findColumn(const std::string& spec) const {
  if (header_) {
    const auto it = std::find(names_.begin(), names_.end(), spec);
    if (it != names_.end()) return static_cast<std::size_t>(it - names_.begin());
  }
  long long number = 0;
  if (io::parseInteger(io::trimSpaces(spec), number) != io::IntegerKind::Integer || number == 0) return std::nullopt;
  const auto count = static_cast<long long>(columns_);
  const long long resolved = number < 0 ? number + count : number - 1;
  if (resolved < 0 || resolved >= count) return std::nullopt;
  return static_cast<std::size_t>(resolved);
}

// The schema's feature columns, in its order (data_schema.h): by header name when it names
// them, else by position among the columns that are neither the label nor ignored. Every
// other column must be ignored by name: a column nobody declared is an error, not a feature.
MaybeError CsvParser::applySchema() {
  if (!options_.schema) return std::nullopt;
  const DataSchema& schema = *options_.schema;
  std::vector<bool> ignored(columns_, false);
  for (const std::string& spec : schema.ignoredColumns) {
    const auto column = findColumn(spec);
    if (!column)
      return fail("the schema ignores column '" + spec + "', which the file does not have", 0, "ignore");
    if (*column == label_) return fail("the schema ignores the label column " + columnPhrase(*column), 0, "ignore");
    ignored[*column] = true;
  }
  std::vector<std::size_t> candidates;
  for (std::size_t column : featureColumns_)
    if (!ignored[column]) candidates.push_back(column);
  featureColumns_ = candidates;
  declared_.assign(featureColumns_.size(), nullptr);
  if (schema.features.empty()) {
    if (featureColumns_.empty()) return fail("the schema ignores every feature column", 0, "ignore");
    return std::nullopt;
  }
  const bool named = !schema.features.front().name.empty();
  if (!named) {
    if (candidates.size() != schema.features.size())
      return fail("the schema declares " + std::to_string(schema.features.size()) +
                      " features by position, but the file has " + std::to_string(candidates.size()) +
                      " feature columns",
                  0, "features");
  } else {
    if (!header_)
      return fail("the schema names its features, but the file's first row is not read as a header (--header yes "
                  "if it is one)",
                  0, "features");
    featureColumns_.clear();
    std::vector<bool> used(columns_, false);
    for (const FeatureDeclaration& f : schema.features) {
      const auto it = std::find(names_.begin(), names_.end(), f.name);
      if (it == names_.end())
        return fail("the schema's feature '" + f.name + "' is not a column of the file", 0, f.name);
      const auto column = static_cast<std::size_t>(it - names_.begin());
      if (column == label_) return fail("the schema's feature '" + f.name + "' is the label column", 0, f.name);
      if (ignored[column]) return fail("the schema's feature '" + f.name + "' is also ignored", 0, f.name);
      used[column] = true;
      featureColumns_.push_back(column);
    }
    for (std::size_t column : candidates)
      if (!used[column])
        return fail("column " + columnPhrase(column) +
                        " is not in the schema: declare it under \"features\" or list it under \"ignore\"",
                    0, columnName(column));
  }
  declared_.resize(featureColumns_.size());
  for (std::size_t k = 0; k < featureColumns_.size(); ++k) declared_[k] = &schema.features[k];
  return std::nullopt;
}

MaybeError CsvParser::resolveLabelColumn() {
  const std::string& spec = options_.labelColumn;
  if (spec.empty()) {
    label_ = columns_ - 1;
    return std::nullopt;
  }
  if (header_) {
    const auto it = std::find(names_.begin(), names_.end(), spec);
    if (it != names_.end()) {
      label_ = static_cast<std::size_t>(it - names_.begin());
      return std::nullopt;
    }
  }
  // Column numbers are 1-based, as in every message ("column 3"); -1 is the last.
  long long number = 0;
  if (io::parseInteger(io::trimSpaces(spec), number) == io::IntegerKind::Integer) {
    const auto count = static_cast<long long>(columns_);
    if (number == 0)
      return fail("label column 0 does not exist: columns are numbered from 1 (-1 is the last)");
    const long long resolved = number < 0 ? number + count : number - 1;
    if (resolved < 0 || resolved >= count)
      return fail("label column " + spec + " is out of range: the file has " + std::to_string(columns_) +
                  " columns, numbered from 1 (-1 is the last)");
    label_ = static_cast<std::size_t>(resolved);
    return std::nullopt;
  }
  if (header_) return fail("no column named '" + spec + "' in the header");
  return fail("label column '" + spec +
              "' is not a column number, and the file has no header to find a name in");
}

}  // namespace dpstudio::csv_detail
