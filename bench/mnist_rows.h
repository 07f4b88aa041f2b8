#pragma once
// MNIST's 60 000 training rows scaled to norm 1, read from a data folder (DPSTUDIO_DATA_DIR
// in the benchmarks): what the benchmarks of a softmax fit and of its gradient measure on.

#include <string>
#include <utility>

#include "core/sources/prepare.h"

namespace dpstudio::bench {

inline Result<Dataset> readMnistUnitRows(const std::string& dir) {
  DataRequest request;
  request.trainSpec = dir + "/train-images-idx3-ubyte.gz";
  request.trainOptions.labelsPath = dir + "/train-labels-idx1-ubyte.gz";
  request.testFraction = 0;
  request.preprocess.unitRows = true;
  auto prepared = prepareData(request);
  if (!prepared) return prepared.error();
  return std::move(prepared.value().train);
}

}  // namespace dpstudio::bench
