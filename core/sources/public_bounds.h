#pragma once
// Public norm bounds for the built-in datasets: a value of R (preprocess.h step 5) that
// follows from how the data are defined, not from the rows themselves. Reading R off the
// data (max‖x‖) would make it a statistic of the private data; these bounds are what a
// data owner could publish before anyone looks at a row.
//
//   digits  R = 128   each of the 64 features counts the set pixels of a 4×4 block, so it
//                     lies in 0–16 (UCI optdigits) and ‖x‖ ≤ 16·√64 = 128. Exact.
//   iris    R = 20    an assumption from botany, not from the file: no sepal or petal
//                     length or width of an iris reaches 10 cm, so ‖x‖ ≤ 10·√4 = 20.
//
//   blobs   R = ⌈r + √d + 4⌉   from the generator's definition: centres at radius r, noise
//                     at most standard normal; a row beyond R (probability < e⁻⁸) is clipped.
//
// Everything else (wine, breast_cancer, moons, xor, files) has no documented bound:
// the user chooses R, or scales rows to unit norm.

#include <optional>
#include <string>

namespace dpstudio {

struct PublicNormBound {
  double bound = 0;       // R > 0
  bool assumed = false;   // from domain knowledge rather than the data's definition
  std::string reason;     // one clause for people: why R holds
};

// spec: "builtin:NAME[:options]" or anything else (no bound).
std::optional<PublicNormBound> publicNormBound(const std::string& spec);

}  // namespace dpstudio
