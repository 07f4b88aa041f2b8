#pragma once
// From "DATA" arguments to the matrices a learner sees: load the training data, load a
// separate test file or split off a stratified test part, align the test classes and
// features with the training ones, fit the preprocessing on the training part and apply
// it to both. Shared by the CLI and the GUI so both mean the same thing by the same options.

#include <cstdint>
#include <optional>
#include <string>

#include "core/data/data_schema.h"
#include "core/data/preprocess.h"
#include "core/data/split.h"
#include "core/io/loader.h"

namespace dpstudio {

struct DataRequest {
  std::string trainSpec;       // file path or builtin:NAME
  std::string testSpec;        // empty: split testFraction off the training data
  LoadOptions trainOptions;
  LoadOptions testOptions;     // libsvmFeatures is taken from the training data when unset
  double testFraction = 0.25;  // used when testSpec is empty; 0 = no test part
  std::uint64_t splitSeed = 1;
  SplitKind split = SplitKind::Stratified;
  std::optional<Index> testRows;  // ordered split: this many last rows test (else testFraction)
  PreprocessSpec preprocess;
};

struct PreparedData {
  Dataset train;             // preprocessed
  Dataset test;              // preprocessed; may have no rows
  Preprocessor preprocessor; // fitted on the training part, for later queries
  std::size_t rawFeatures = 0;
  // Only when the preprocessing ends in a feature map (random Fourier features) and the
  // caller kept them: the same rows just before the map (preprocess.h steps 1–5), the space
  // the decision view's plane lives in (model_view.h). Otherwise empty (0 rows).
  Dataset trainBeforeMap;
  Dataset testBeforeMap;
  // Values outside the declared public feature ranges, clipped by the preprocessing
  // (a count over the data: a diagnostic, NOT private).
  Index clippedTrainValues = 0;
  Index clippedTestValues = 0;
  // The schema the training data were read by (data_schema.h), kept for the bundle, whose
  // predict reads new rows by it; nullopt without one.
  std::optional<DataSchema> schema;
};

// MNIST as paper 003 §4 uses it, from the four IDX files (optionally gzipped, as
// distributed) in `dir`: 60 000 training and 10 000 test images, every row scaled to unit
// norm (a per-example transform: no privacy cost).
DataRequest mnistRequest(const std::string& dir);

// Keeps no rows before a feature map (PreparedData::trainBeforeMap stays empty). Training
// rows read by a schema (Provenance::schema) give the preprocessing its declared ranges and
// one-hot groups (declaredPreprocessing) unless the settings declare ranges of their own;
// prepareLoaded does this, so the GUI's data and the CLI's are prepared alike.
Result<PreparedData> prepareData(const DataRequest& request, const Progress& progress = {});

// The same from data already in memory (the GUI's current dataset): split off
// testFraction (seeded, stratified) unless a separate test set is given, then fit the
// preprocessing on the training part and apply it to both.
struct SplitAndPreprocess {
  double testFraction = 0.25;  // 0 = no test part
  std::uint64_t splitSeed = 1;
  SplitKind split = SplitKind::Stratified;
  std::optional<Index> testRows;  // ordered split only
  PreprocessSpec preprocess;
  // Keep PreparedData::trainBeforeMap/testBeforeMap (for the decision view) when there is a
  // feature map. The CLI, which draws no view, turns it off to save a copy of the data.
  bool keepRowsBeforeMap = true;
  bool operator==(const SplitAndPreprocess&) const = default;
};
Result<PreparedData> prepareLoaded(Dataset train, std::optional<Dataset> separateTest,
                                   const SplitAndPreprocess& settings);

// Re-expresses `test` in the training data's classes (by class name) and checks that the
// feature counts agree; a test label the training data never saw is a BadData error.
// By value: a test set handed over (std::move) is relabelled in place, not copied.
Result<Dataset> alignToTraining(Dataset test, const Dataset& train);

}  // namespace dpstudio
