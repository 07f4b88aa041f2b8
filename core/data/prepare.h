#pragma once
// From "DATA" arguments to the matrices a learner sees: load the training data, load a
// separate test file or split off a stratified test part, align the test classes and
// features with the training ones, fit the preprocessing on the training part and apply
// it to both. Shared by the CLI and the GUI so both mean the same thing by the same options.

#include <cstdint>
#include <optional>
#include <string>

#include "core/data/preprocess.h"
#include "core/io/loader.h"

namespace dpstudio {

struct DataRequest {
  std::string trainSpec;       // file path or builtin:NAME
  std::string testSpec;        // empty: split testFraction off the training data
  LoadOptions trainOptions;
  LoadOptions testOptions;     // libsvmFeatures is taken from the training data when unset
  double testFraction = 0.25;  // used when testSpec is empty; 0 = no test part
  std::uint64_t splitSeed = 1;
  PreprocessSpec preprocess;
};

struct PreparedData {
  Dataset train;             // preprocessed
  Dataset test;              // preprocessed; may have no rows
  Preprocessor preprocessor; // fitted on the training part, for later queries
  std::size_t rawFeatures = 0;
};

Result<PreparedData> prepareData(const DataRequest& request, const Progress& progress = {});

// The same from data already in memory (the GUI's current dataset): split off
// testFraction (seeded, stratified) unless a separate test set is given, then fit the
// preprocessing on the training part and apply it to both.
struct SplitAndPreprocess {
  double testFraction = 0.25;  // 0 = no test part
  std::uint64_t splitSeed = 1;
  PreprocessSpec preprocess;
};
Result<PreparedData> prepareLoaded(Dataset train, std::optional<Dataset> separateTest,
                                   const SplitAndPreprocess& settings);

// Re-expresses `test` in the training data's classes (by class name) and checks that the
// feature counts agree; a test label the training data never saw is a BadData error.
Result<Dataset> alignToTraining(const Dataset& test, const Dataset& train);

}  // namespace dpstudio
