#pragma once
// Seeded, stratified train/test splits: every class keeps (close to) the same share in
// both parts, and the same seed gives the same split on every machine.

#include <cstdint>
#include <vector>

#include "core/data/dataset.h"

namespace dpstudio {

struct SplitIndices {
  std::vector<Index> train;  // ascending row indices
  std::vector<Index> test;   // row indices in seeded random order: any prefix is a random,
                             // roughly stratified sample (prediction answers the first B)
};

// testFraction in (0, 1). Each class with n_c rows sends round(testFraction·n_c) of them
// to the test part, but always keeps at least one in the training part.
Result<SplitIndices> stratifiedSplit(const Eigen::VectorXi& labels, Index classes,
                                     double testFraction, std::uint64_t seed);

struct TrainTest {
  Dataset train;
  Dataset test;
};

Result<TrainTest> splitDataset(const Dataset& data, double testFraction, std::uint64_t seed);

}  // namespace dpstudio
