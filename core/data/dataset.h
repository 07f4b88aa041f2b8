#pragma once
// The in-memory classification dataset every loader produces and every model consumes.

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio {

using Index = Eigen::Index;
struct DataSchema;  // data_schema.h

// Where a dataset came from and what was done to it. Anything fitted on the data itself
// (PCA bases, means, min/max) is a release of private information: such steps are listed
// in notPrivate so that every output built on this dataset can say so.
// How a CSV file was read, so that a person can check it (CLI `info`, JSON key "header").
struct CsvReading {
  char delimiter = ',';
  std::string headerChoice = "auto";  // what was asked: "auto", "yes" or "no"
  bool header = false;                // the first row read was taken as column names
  std::string headerReason;           // why, for people (auto only); empty otherwise
  long skippedLines = 0;              // physical lines skipped before the first row read
  std::string labelColumn;            // the label column's header name, else its 1-based number; empty: none
};

// A categorical column as the CSV loader one-hot encoded it: its name, its first indicator
// among the features and its categories in indicator order (declared by a schema, or read
// off the data and then marked not private).
struct CategoricalColumn {
  std::string name;
  Index first = 0;
  std::vector<std::string> categories;
  bool declared = false;
};

struct Provenance {
  std::string source;                   // path, or "builtin:NAME", or generator spec
  std::string format;                   // "csv", "libsvm", "idx", "builtin", "generator"
  bool gzip = false;                    // the file was gzip-compressed
  std::vector<std::string> steps;       // preprocessing applied, in order, for people
  std::vector<std::string> notPrivate;  // data-dependent steps that were applied
  // Doubtful readings a person should check (a weak header guess, a label column that
  // looks continuous); shown as warnings, never errors.
  std::vector<std::string> warnings;
  std::optional<CsvReading> csv;        // CSV files only
  // Structure read off the private rows rather than declared: "classes", "dimension",
  // "stratified split" (declared_structure.h). Empty when all of it was declared.
  std::vector<std::string> structureFromData;
  std::vector<CategoricalColumn> categoricalColumns;  // CSV files only
  // The schema the rows were read by (data_schema.h), or null: preparing the data takes its
  // declared ranges (prepare.h), a bundle keeps it.
  std::shared_ptr<const DataSchema> schema;

  bool isPrivacySafe() const { return notPrivate.empty(); }
};

struct Dataset {
  Eigen::MatrixXd X;                      // n × d features, one row per example
  Eigen::VectorXi y;                      // n class indices in [0, C)
  std::vector<std::string> classNames;    // C names; classNames[k] is class k's label
  std::vector<std::string> featureNames;  // d names
  Provenance provenance;
  // False for rows read without labels (LabelUse::None: new rows to predict): y is then all
  // 0 and classNames empty, and nothing may score or train on them.
  bool labelled = true;

  Index rows() const { return X.rows(); }
  Index features() const { return X.cols(); }
  Index classes() const { return static_cast<Index>(classNames.size()); }

  std::vector<Index> classCounts() const;  // C counts, in class order
  double maxRowNorm() const;               // max_i ‖x_i‖₂ (0 for an empty set), summed as below

  // The rows at the given indices, in that order, with the same classes and features.
  Dataset subset(const std::vector<Index>& rowIndices) const;
};

// Every row's Σ_j x_ij², bit for bit as X.row(i).squaredNorm() sums it, in one column sweep
// (a strided reduction per row costs a cache miss per value on a column-major matrix).
Eigen::VectorXd sequentialRowSquaredNorms(const Eigen::Ref<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>& X);

// Checks what every consumer relies on: shapes agree, labels are in range, every value is
// finite, there is at least one row and at least `minimumClasses` classes are present (two
// to train; one for rows that are only scored). Unlabelled data: the shapes and values only.
Status validateForClassification(const Dataset& data, Index minimumClasses = 2);

}  // namespace dpstudio
