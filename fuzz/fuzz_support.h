#pragma once
// What the fuzz targets share: a Progress whose fractions are checked, and checks of what a
// reader promises about a dataset it accepted. A broken promise aborts, which libFuzzer
// reports as a crash with the input that did it.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/data/dataset.h"
#include "core/util/progress.h"

namespace dpstudio::fuzz {

// The dense-matrix limit the text readers get (LoadOptions::maxDenseValues): 2^18 values,
// 2 MiB. The readers' own, 2^29 (4 GiB), lets a few bytes ask for hundreds of MB and
// millions of feature names (a LIBSVM index of 10^7: 8 s under ASan), by design, and 2^22
// still took > 10 s on a busy machine: each such input would be a fuzzer timeout.
inline constexpr std::uint64_t kMaxDenseValues = std::uint64_t{1} << 18;

[[noreturn]] inline void broken(const char* what) {
  std::fprintf(stderr, "dpstudio fuzz: broken promise: %s\n", what);
  std::abort();
}

inline Progress checkedProgress() {
  return Progress([](double fraction) {
    if (!(fraction >= 0.0 && fraction <= 1.0)) broken("progress fraction outside [0, 1]");
  });
}

// A dataset a reader returned: one label per row, one name per feature and class, labels in
// [0, C), finite features (the readers refuse inf and nan).
inline void checkDataset(const Dataset& data) {
  if (data.y.size() != data.X.rows()) broken("labels and rows differ in number");
  if (static_cast<Index>(data.featureNames.size()) != data.X.cols()) broken("feature names and columns differ");
  for (Index i = 0; i < data.y.size(); ++i)
    if (data.y[i] < 0 || data.y[i] >= data.classes()) broken("label index outside [0, classes)");
  if (!data.X.allFinite()) broken("a feature value is not finite");
}

}  // namespace dpstudio::fuzz
