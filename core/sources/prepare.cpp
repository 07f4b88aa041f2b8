#include "core/sources/prepare.h"

#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "core/data/declared_structure.h"
#include "core/sources/source.h"
#include "core/data/split.h"

namespace dpstudio {
namespace {

// A public norm bound far above the rows' norms shrinks every row towards 0: the model then
// learns next to nothing, privately or not (--norm-bound 1e300 was accepted without a word).
// Said when the largest training row, after the bound, has norm below kShrunkRows: R is more
// than 20 times the largest row. The norm is read off the data, so the warning is a
// diagnostic for the analyst, not part of any release.
constexpr double kShrunkRows = 0.05;

std::optional<std::string> normBoundFarAboveRows(const PreprocessSpec& spec, const Dataset& rows) {
  if (!spec.normBound || rows.rows() == 0) return std::nullopt;
  const double largest = rows.X.rowwise().norm().maxCoeff();
  if (!(largest < kShrunkRows)) return std::nullopt;
  char text[400];
  std::snprintf(text, sizeof text,
                "the norm bound R = %g is far above the rows: after it the largest training row has norm %.3g "
                "(of at most 1), so every row is close to 0 and the model learns next to nothing, privately or "
                "not. Declare the features' ranges instead (R then follows from them) or choose a smaller R "
                "from the data's known domain; this norm is measured on the data, a diagnostic, NOT private",
                *spec.normBound, largest);
  return std::string(text);
}

}  // namespace


Result<Dataset> alignToTraining(Dataset test, const Dataset& train) {
  const std::string& src = test.provenance.source;
  if (test.features() != train.features())
    return Error::badData("the test data have " + std::to_string(test.features()) +
                              " features but the training data have " +
                              std::to_string(train.features()),
                          src);
  std::map<std::string, int> trainIndex;
  for (std::size_t k = 0; k < train.classNames.size(); ++k) trainIndex[train.classNames[k]] = static_cast<int>(k);
  std::vector<int> remap(test.classNames.size(), -1);
  for (std::size_t k = 0; k < test.classNames.size(); ++k) {
    const auto it = trainIndex.find(test.classNames[k]);
    if (it != trainIndex.end()) remap[k] = it->second;
  }
  for (Index i = 0; i < test.y.size(); ++i) {
    const int mapped = remap[static_cast<std::size_t>(test.y[i])];
    if (mapped < 0)
      return Error::badData("label '" + test.classNames[static_cast<std::size_t>(test.y[i])] +
                                "' does not occur in the training data",
                            src, static_cast<long>(i + 1), "label");
    test.y[i] = mapped;
  }
  test.classNames = train.classNames;
  return test;
}

DataRequest mnistRequest(const std::string& dir) {
  DataRequest request;
  request.trainSpec = dir + "/train-images-idx3-ubyte.gz";
  request.trainOptions.labelsPath = dir + "/train-labels-idx1-ubyte.gz";
  request.testSpec = dir + "/t10k-images-idx3-ubyte.gz";
  request.testOptions.labelsPath = dir + "/t10k-labels-idx1-ubyte.gz";
  request.preprocess.unitRows = true;
  return request;
}

Result<PreparedData> prepareData(const DataRequest& request, const Progress& progress) {
  const bool separateTest = !request.testSpec.empty();
  const double loadShare = separateTest ? 0.5 : 1.0;
  Progress trainProgress([&](double f) { progress.report(f * loadShare * 0.9); }, progress.stopToken());
  auto loaded = openDataset(request.trainSpec, request.trainOptions, trainProgress);
  if (!loaded) return loaded.error();
  Dataset train = std::move(loaded).value();

  std::optional<Dataset> test;
  if (separateTest) {
    LoadOptions testOptions = request.testOptions;
    if (testOptions.libsvmFeatures == 0) testOptions.libsvmFeatures = train.features();
    Progress testProgress([&](double f) { progress.report(0.45 + f * 0.45); }, progress.stopToken());
    auto loadedTest = openDataset(request.testSpec, testOptions, testProgress);
    if (!loadedTest) return loadedTest.error();
    test = std::move(loadedTest).value();
  }
  if (progress.cancelled()) return Error::cancelled();
  auto prepared = prepareLoaded(std::move(train), std::move(test),
                                {request.testFraction, request.splitSeed, request.split, request.testRows,
                                 request.preprocess, /*keepRowsBeforeMap=*/false});
  progress.report(1.0);
  return prepared;
}

Result<PreparedData> prepareLoaded(Dataset train, std::optional<Dataset> separateTest,
                                   const SplitAndPreprocess& settings) {
  Dataset test;
  if (separateTest) {
    auto aligned = alignToTraining(std::move(*separateTest), train);
    separateTest.reset();
    if (!aligned) return aligned.error();
    test = std::move(aligned).value();
  } else if (settings.split == SplitKind::Ordered) {
    auto split = splitDatasetOrdered(train, settings.testFraction, settings.testRows);
    if (!split) return split.error();
    train = std::move(split.value().train);
    test = std::move(split.value().test);
  } else if (settings.testFraction > 0) {
    auto split = splitDataset(train, settings.testFraction, settings.splitSeed);
    if (!split) return split.error();
    train = std::move(split.value().train);
    test = std::move(split.value().test);
    // Stratification reads every label: which rows are trained on depends on all of them.
    markStructureFromData(train.provenance, kStructureSplit);
    markStructureFromData(test.provenance, kStructureSplit);
  } else {
    test = train.subset({});
  }

  PreparedData out;
  out.rawFeatures = static_cast<std::size_t>(train.features());
  PreprocessSpec spec = settings.preprocess;
  if (train.provenance.schema) {
    out.schema = *train.provenance.schema;
    if (spec.publicRanges.empty()) {
      auto declared = declaredPreprocessing(*out.schema);
      if (!declared) return declared.error();
      spec.publicRanges = std::move(declared.value().ranges);
      spec.oneHotGroups = std::move(declared.value().groups);
    }
  }
  auto pre = fitPreprocessor(spec, train);
  if (!pre) return pre.error();
  out.clippedTrainValues = countOutsideRanges(spec.publicRanges, train.X);
  out.clippedTestValues = countOutsideRanges(spec.publicRanges, test.X);
  out.preprocessor = std::move(pre).value();
  // The raw rows are handed over and transformed in place: one copy of the data at a time.
  auto trainBefore = out.preprocessor.applyBeforeFeatureMap(std::move(train));
  if (!trainBefore) return trainBefore.error();
  auto testBefore = out.preprocessor.applyBeforeFeatureMap(std::move(test));
  if (!testBefore) return testBefore.error();
  if (auto far = normBoundFarAboveRows(settings.preprocess, trainBefore.value()))
    trainBefore.value().provenance.warnings.push_back(*far);
  if (out.preprocessor.hasFeatureMap() && settings.keepRowsBeforeMap) {
    out.train = out.preprocessor.applyFeatureMap(trainBefore.value());
    out.test = out.preprocessor.applyFeatureMap(testBefore.value());
    out.trainBeforeMap = std::move(trainBefore).value();
    out.testBeforeMap = std::move(testBefore).value();
  } else {
    out.train = out.preprocessor.applyFeatureMap(std::move(trainBefore).value());
    out.test = out.preprocessor.applyFeatureMap(std::move(testBefore).value());
  }
  return out;
}

}  // namespace dpstudio
