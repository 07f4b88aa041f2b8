#include "core/data/split.h"

#include <algorithm>
#include <cmath>

#include "core/random/rng.h"

namespace dpstudio {

Result<SplitIndices> stratifiedSplit(const Eigen::VectorXi& labels, Index classes,
                                     double testFraction, std::uint64_t seed) {
  if (!(testFraction > 0.0 && testFraction < 1.0))
    return Error{ErrorKind::Usage, "the test fraction must be in (0, 1)", {}, 0, "test-fraction"};
  std::vector<std::vector<Index>> byClass(static_cast<std::size_t>(classes));
  for (Index i = 0; i < labels.size(); ++i) {
    const int label = labels[i];
    if (label < 0 || label >= classes)
      return Error::badData("label index out of range", {}, static_cast<long>(i + 1));
    byClass[static_cast<std::size_t>(label)].push_back(i);
  }
  Rng rng(seed);
  SplitIndices out;
  for (auto& members : byClass) {
    rng.shuffle(members);
    const auto count = static_cast<Index>(members.size());
    auto toTest = static_cast<Index>(std::llround(testFraction * static_cast<double>(count)));
    toTest = std::min(toTest, std::max<Index>(count - 1, 0));
    out.test.insert(out.test.end(), members.begin(), members.begin() + toTest);
    out.train.insert(out.train.end(), members.begin() + toTest, members.end());
  }
  std::sort(out.train.begin(), out.train.end());
  // The test part in seeded random order, not ascending: the private predictors answer its
  // first B rows, and on a file sorted by class (iris, the generators) an ascending prefix
  // would be a single class.
  std::sort(out.test.begin(), out.test.end());
  rng.shuffle(out.test);
  if (out.test.empty())
    return Error::badData("the test part would be empty: too few rows for this test fraction");
  return out;
}

Result<TrainTest> splitDataset(const Dataset& data, double testFraction, std::uint64_t seed) {
  auto indices = stratifiedSplit(data.y, data.classes(), testFraction, seed);
  if (!indices) return indices.error();
  TrainTest out{data.subset(indices.value().train), data.subset(indices.value().test)};
  const std::string step = "stratified split: test fraction " + std::to_string(testFraction) +
                           ", seed " + std::to_string(seed);
  out.train.provenance.steps.push_back(step + " (train part)");
  out.test.provenance.steps.push_back(step + " (test part)");
  return out;
}

Result<SplitIndices> orderedSplit(Index rows, double testFraction, std::optional<Index> testRows) {
  Index toTest = 0;
  if (testRows) {
    if (*testRows < 1)
      return Error{ErrorKind::Usage, "the number of test rows must be at least 1", {}, 0, "test-rows"};
    toTest = *testRows;
  } else {
    if (!(testFraction > 0.0 && testFraction < 1.0))
      return Error{ErrorKind::Usage, "the test fraction must be in (0, 1)", {}, 0, "test-fraction"};
    toTest = static_cast<Index>(std::llround(testFraction * static_cast<double>(rows)));
  }
  if (toTest < 1 || toTest >= rows)
    return Error::badData("an ordered split of " + std::to_string(rows) + " rows with " + std::to_string(toTest) +
                          " test rows leaves " + (toTest < 1 ? "no test rows" : "no training rows"));
  SplitIndices out;
  for (Index i = 0; i < rows - toTest; ++i) out.train.push_back(i);
  for (Index i = rows - toTest; i < rows; ++i) out.test.push_back(i);
  return out;
}

std::vector<Index> seededSample(Index rows, Index count, std::uint64_t seed) {
  std::vector<Index> all(static_cast<std::size_t>(std::max<Index>(rows, 0)));
  for (Index i = 0; i < rows; ++i) all[static_cast<std::size_t>(i)] = i;
  if (count >= rows) return all;
  Rng rng(seed);
  rng.shuffle(all);
  all.resize(static_cast<std::size_t>(std::max<Index>(count, 0)));
  std::sort(all.begin(), all.end());
  return all;
}

Result<TrainTest> splitDatasetOrdered(const Dataset& data, double testFraction, std::optional<Index> testRows) {
  auto indices = orderedSplit(data.rows(), testFraction, testRows);
  if (!indices) return indices.error();
  TrainTest out{data.subset(indices.value().train), data.subset(indices.value().test)};
  const std::string step = "ordered split: first " + std::to_string(indices.value().train.size()) +
                           " rows train, last " + std::to_string(indices.value().test.size()) + " rows test";
  out.train.provenance.steps.push_back(step + " (train part)");
  out.test.provenance.steps.push_back(step + " (test part)");
  return out;
}

}  // namespace dpstudio
