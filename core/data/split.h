#pragma once
// Seeded, stratified train/test splits: every class keeps (close to) the same share in
// both parts, and the same seed gives the same split on every machine.

#include <cstdint>
#include <optional>
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

// The first rows train, the last testRows (or round(testFraction·n)) test, in file order:
// UCI letter's convention (first 16 000 / last 4 000), and the honest split of data sorted
// by time. Both parts must keep at least one row.
Result<SplitIndices> orderedSplit(Index rows, double testFraction, std::optional<Index> testRows = {});

// `count` of the row indices 0..rows−1, drawn uniformly without replacement from Rng(seed),
// in ascending order (all of them when count ≥ rows). The CLI's private prediction answers
// such a sample of the test rows: on a file sorted by class, the first rows are one class.
std::vector<Index> seededSample(Index rows, Index count, std::uint64_t seed);

enum class SplitKind { Stratified, Ordered };

struct TrainTest {
  Dataset train;
  Dataset test;
};

Result<TrainTest> splitDataset(const Dataset& data, double testFraction, std::uint64_t seed);
Result<TrainTest> splitDatasetOrdered(const Dataset& data, double testFraction, std::optional<Index> testRows = {});

}  // namespace dpstudio
