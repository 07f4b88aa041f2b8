#pragma once
// A data schema: what the user declares, publicly, about a file's structure before any row
// is read (issue 32 item 1; docs/formats/schema.md). The label column and its classes, each
// feature column's range or categories, the columns to leave out. Everything a schema says
// is public, so a model whose layout follows it reveals nothing about which values occur
// in the private rows; whatever it leaves undeclared is read off the data and marked, as
// without a schema (declared_structure.h). The JSON form is core/io/schema_json.h's.
//
// The schema also decides the preprocessing's first step: a numeric feature's range is
// mapped to [−½, ½] (centred, preprocess.h), a categorical feature becomes one indicator per
// declared category, declared the range [−1, 1] so that an indicator's 0 stays 0 and its 1
// becomes ½, and the indicators of one feature form a one-hot group, of which a row has
// exactly one non-zero. So each declared feature adds at most ¼ to a row's squared norm,
// and the derived norm bound is √(features)/2 whatever the number of categories.

#include <optional>
#include <string>
#include <vector>

#include "core/data/preprocess.h"
#include "core/util/result.h"

namespace dpstudio {

struct FeatureDeclaration {
  // The column's header name; empty: the column at this position among the feature columns
  // (a file without a header).
  std::string name;
  std::optional<FeatureRange> range;    // a numeric feature's public range
  std::vector<std::string> categories;  // a categorical feature's values, in indicator order
  bool categorical() const { return !categories.empty(); }
  bool operator==(const FeatureDeclaration&) const = default;
};

struct DataSchema {
  std::string labelColumn;           // a header name or 1-based column number; empty: the last
  std::vector<std::string> classes;  // in class order; empty: read off the data (marked)
  // The feature columns in the order the model reads them; empty: every column that is not the
  // label or ignored, each numeric or categorical as its cells say (categories marked).
  std::vector<FeatureDeclaration> features;
  std::vector<std::string> ignoredColumns;  // header names or 1-based column numbers
  std::optional<FeatureRange> defaultRange;  // numeric features without a range of their own
  Index featureCount = 0;                    // LIBSVM's dimension (0: not declared)
  // Features by position (no `features` list, featureCount declared): runs of columns of
  // which a row has at most one non-zero — a categorical variable already one-hot encoded,
  // as in a9a. Each column of a group is declared the indicator range; the derived norm bound
  // counts the group once. `first` is 0-based here ("one_hot_groups" counts from 1).
  std::vector<OneHotGroup> oneHotGroups;
  // A schema drafted from a file's rows (draftSchema) says so until a person has replaced
  // what it read off the data and removed the mark; until then its structure is marked
  // "schema drafted from the data" in every output.
  bool draftedFromData = false;

  Status validate() const;
  bool declaresCategories() const;
  bool operator==(const DataSchema&) const = default;
};

// The name Provenance::structureFromData uses for a drafted schema.
inline constexpr const char* kStructureDraftedSchema = "schema drafted from the data";

// The features' declared ranges over the columns the loader makes (a categorical feature's
// indicators in place), and the indicators' one-hot groups: what PreprocessSpec's
// publicRanges and oneHotGroups take. Empty ranges when nothing has a range (then the user
// gives a norm bound or unit rows); an error naming the feature when some numeric features
// have a range and others none.
struct DeclaredPreprocessing {
  std::vector<FeatureRange> ranges;
  std::vector<OneHotGroup> groups;
};
Result<DeclaredPreprocessing> declaredPreprocessing(const DataSchema& schema);

// A schema for a file's layout drafted from its rows, for a person to edit: the label column,
// the classes present, each numeric feature's observed [min, max] and each categorical
// feature's categories present, marked draftedFromData. CSV features keep their names
// (a file without a header: by position); other formats get one range for all features.
DataSchema draftSchema(const Dataset& data);

// The range every indicator column is declared (see above).
inline constexpr FeatureRange kIndicatorRange{-1.0, 1.0};

}  // namespace dpstudio
