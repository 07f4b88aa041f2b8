#include "core/experiment/result_baselines.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace dpstudio::experiment {

std::optional<double> mostCommonClassAccuracy(const Dataset& test) {
  if (test.rows() == 0) return std::nullopt;
  std::vector<Index> counts(static_cast<std::size_t>(std::max<Index>(test.classes(), test.y.maxCoeff() + 1)), 0);
  for (Index i = 0; i < test.rows(); ++i) ++counts[static_cast<std::size_t>(test.y(i))];
  return static_cast<double>(*std::max_element(counts.begin(), counts.end())) / static_cast<double>(test.rows());
}

std::optional<std::string> noBetterThanMostCommonClassWarning(double privateAccuracy, double mostCommonClass) {
  if (privateAccuracy > mostCommonClass) return std::nullopt;
  char text[320];
  std::snprintf(text, sizeof text,
                "the private model's test accuracy %.4f is no better than always answering the most common class "
                "(%.4f): at this privacy level it has learned nothing usable. Try a larger epsilon, a larger lambda, "
                "declared feature ranges and a norm bound that fit the data, or another mechanism (a sweep "
                "compares them)",
                privateAccuracy, mostCommonClass);
  return std::string(text);
}

}  // namespace dpstudio::experiment
