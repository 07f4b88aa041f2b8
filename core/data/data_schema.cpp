#include "core/data/data_schema.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dpstudio {
namespace {

Error invalid(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

bool validRange(const FeatureRange& r) { return std::isfinite(r.lo) && std::isfinite(r.hi) && r.hi > r.lo; }

std::string featureLabel(const FeatureDeclaration& feature, std::size_t k) {
  return feature.name.empty() ? "feature " + std::to_string(k + 1) : "feature '" + feature.name + "'";
}

}  // namespace

bool DataSchema::declaresCategories() const {
  return std::any_of(features.begin(), features.end(), [](const FeatureDeclaration& f) { return f.categorical(); });
}

Status DataSchema::validate() const {
  std::set<std::string> seenClasses;
  for (const std::string& c : classes) {
    if (c.empty()) return invalid("a declared class is empty", "classes");
    if (!seenClasses.insert(c).second) return invalid("class '" + c + "' is declared twice", "classes");
  }
  if (!classes.empty() && classes.size() < 2) return invalid("declare at least two classes", "classes");
  if (defaultRange && !validRange(*defaultRange))
    return invalid("the feature range must be finite with hi > lo", "feature_range");
  if (featureCount < 0) return invalid("the feature count must be >= 1", "feature_count");
  if (featureCount > 0 && !features.empty() && featureCount != static_cast<Index>(features.size()))
    return invalid("feature_count (" + std::to_string(featureCount) + ") differs from the " +
                       std::to_string(features.size()) + " features listed",
                   "feature_count");
  if (!oneHotGroups.empty()) {
    if (!features.empty() || featureCount < 1)
      return invalid("one-hot groups are for features by position: declare feature_count, not features "
                     "(a CSV's categorical feature takes its categories instead)",
                     "one_hot_groups");
    Index end = 0;
    for (const OneHotGroup& g : oneHotGroups) {
      if (g.count < 1 || g.first < end || g.first + g.count > featureCount)
        return invalid("one-hot group at column " + std::to_string(g.first + 1) + " (" + std::to_string(g.count) +
                           " columns) must be within the " + std::to_string(featureCount) +
                           " features, after the group before it",
                       "one_hot_groups");
      end = g.first + g.count;
    }
  }
  const bool named = !features.empty() && !features.front().name.empty();
  std::set<std::string> seenNames;
  for (std::size_t k = 0; k < features.size(); ++k) {
    const FeatureDeclaration& f = features[k];
    if (f.name.empty() == named)
      return invalid("name every feature (a file with a header) or none (columns by position)", "features");
    if (named && !seenNames.insert(f.name).second)
      return invalid("feature '" + f.name + "' is declared twice", "features");
    if (named && f.name == labelColumn)
      return invalid("'" + f.name + "' is the label column and a feature", "features");
    if (f.categorical() && f.range)
      return invalid(featureLabel(f, k) + " has both a range and categories: a feature is one or the other",
                     "features");
    if (f.range && !validRange(*f.range))
      return invalid(featureLabel(f, k) + ": the range must be finite with hi > lo", "features");
    std::set<std::string> seenCategories;
    for (const std::string& c : f.categories)
      if (!seenCategories.insert(c).second)
        return invalid(featureLabel(f, k) + ": category '" + c + "' is declared twice", "features");
    if (named && std::find(ignoredColumns.begin(), ignoredColumns.end(), f.name) != ignoredColumns.end())
      return invalid(featureLabel(f, k) + " is also ignored", "ignore");
  }
  return Ok{};
}

Result<DeclaredPreprocessing> declaredPreprocessing(const DataSchema& schema) {
  if (auto valid = schema.validate(); !valid) return valid.error();
  DeclaredPreprocessing out;
  if (schema.features.empty() && !schema.oneHotGroups.empty()) {
    // One range per column: the groups' indicators, the feature range elsewhere.
    out.ranges.assign(static_cast<std::size_t>(schema.featureCount), schema.defaultRange.value_or(kIndicatorRange));
    Index grouped = 0;
    for (const OneHotGroup& g : schema.oneHotGroups) {
      std::fill_n(out.ranges.begin() + g.first, g.count, kIndicatorRange);
      grouped += g.count;
    }
    if (grouped < schema.featureCount && !schema.defaultRange)
      return invalid("columns outside the one-hot groups need a range: give \"feature_range\"", "feature_range");
    out.groups = schema.oneHotGroups;
    if (out.ranges.size() == 1) out.groups.clear();
    return out;
  }
  if (schema.features.empty()) {
    if (schema.defaultRange) out.ranges = {*schema.defaultRange};
    return out;
  }
  // Every numeric feature has a range (its own or the default), or none has.
  std::size_t numeric = 0, ranged = 0;
  const FeatureDeclaration* unranged = nullptr;
  for (const FeatureDeclaration& f : schema.features) {
    if (f.categorical()) continue;
    ++numeric;
    if (f.range || schema.defaultRange) ++ranged;
    else if (!unranged) unranged = &f;
  }
  if (ranged == 0 && numeric > 0) return out;
  if (ranged < numeric)
    return invalid(featureLabel(*unranged, static_cast<std::size_t>(unranged - schema.features.data())) +
                       " has no range while other numeric features have one: give it a range (or "
                       "\"feature_range\" for every feature without one)",
                   "features");
  for (const FeatureDeclaration& f : schema.features) {
    if (!f.categorical()) {
      out.ranges.push_back(f.range ? *f.range : *schema.defaultRange);
      continue;
    }
    out.groups.push_back({static_cast<Index>(out.ranges.size()), static_cast<Index>(f.categories.size())});
    out.ranges.insert(out.ranges.end(), f.categories.size(), kIndicatorRange);
  }
  // A single column cannot carry groups (PreprocessSpec wants one range per column then).
  if (out.ranges.size() == 1) out.groups.clear();
  return out;
}

DataSchema draftSchema(const Dataset& data) {
  DataSchema schema;
  schema.draftedFromData = true;
  if (data.labelled) schema.classes = data.classNames;
  // A range that holds one value still needs hi > lo.
  const auto observed = [](double lo, double hi) { return FeatureRange{lo, hi > lo ? hi : lo + 1}; };
  const Provenance& p = data.provenance;
  if (!p.csv) {
    if (data.features() > 0) schema.defaultRange = observed(data.X.minCoeff(), data.X.maxCoeff());
    if (p.format == "libsvm") schema.featureCount = data.features();
    return schema;
  }
  schema.labelColumn = p.csv->labelColumn;
  auto categorical = p.categoricalColumns.begin();
  for (Index j = 0; j < data.features();) {
    FeatureDeclaration f;
    if (categorical != p.categoricalColumns.end() && categorical->first == j) {
      f.name = categorical->name;
      f.categories = categorical->categories;
      j += static_cast<Index>(categorical->categories.size());
      ++categorical;
    } else {
      f.name = j < static_cast<Index>(data.featureNames.size()) ? data.featureNames[static_cast<std::size_t>(j)] : "";
      f.range = observed(data.X.col(j).minCoeff(), data.X.col(j).maxCoeff());
      ++j;
    }
    if (!p.csv->header) f.name.clear();
    schema.features.push_back(std::move(f));
  }
  return schema;
}

}  // namespace dpstudio
