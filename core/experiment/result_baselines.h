#pragma once
// The two numbers a private result is read against: always answering the most common class,
// and the same learner trained without privacy on the same rows. A private model at or
// below the first has learned nothing worth its noise, and one far below the second pays
// more for privacy than it needs to; both are measured on the test part (evaluation, NOT
// private) and shown beside the private accuracy, with a warning in the first case.

#include <optional>
#include <string>

#include "core/data/dataset.h"

namespace dpstudio::experiment {

// The largest class share of `test`'s rows: the accuracy of always answering its most
// common class. None without rows.
std::optional<double> mostCommonClassAccuracy(const Dataset& test);

// "the private model's test accuracy 0.2312 is no better than always answering the most
// common class (0.2380)…", when privateAccuracy ≤ mostCommonClass; none otherwise.
std::optional<std::string> noBetterThanMostCommonClassWarning(double privateAccuracy, double mostCommonClass);

}  // namespace dpstudio::experiment
