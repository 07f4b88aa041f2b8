#pragma once
// Datasets shipped inside the product (resources/datasets, compiled in) and seeded
// synthetic generators for teaching. Spec: "builtin:NAME" or, for generators,
// "builtin:NAME:key=value,key=value" (e.g. "builtin:blobs:classes=4,dim=2,separation=3,seed=7").

#include <cstdint>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace dpstudio {

struct BuiltinInfo {
  std::string name;         // "iris", "blobs", …
  bool generator = false;   // synthetic, parameterized by key=value options
  std::string description;  // one line for people
  std::string parameters;   // generators: "key=default,…"; datasets: empty
  std::string citation;     // datasets: origin and licence
};

std::vector<BuiltinInfo> builtinCatalog();

// The two features a shipped dataset is usually plotted on, as column indices (A, B): part of
// its public description, never read off its rows. Iris: petal length against petal width,
// where the three species separate (on the first two, the sepal measurements, the decision
// view cuts the model through the mean petal size and shows nearly one class). nullopt for
// every other spec: the first two features.
std::optional<std::pair<Index, Index>> suggestedViewFeatures(const std::string& spec);

// name: what follows "builtin:". Unknown names and bad options are BadData errors.
Result<Dataset> loadBuiltin(const std::string& nameAndOptions);

// The generators, also callable directly. All draw from Rng(seed) only.
struct BlobsOptions {
  int classes = 3;
  int dim = 2;
  int perClass = 100;
  double separation = 3.0;   // distance between neighbouring class centres, in units of σ
  double anisotropy = 2.0;   // ratio of the largest to the smallest σ of each class
  std::uint64_t seed = 1;
};
Dataset makeBlobs(const BlobsOptions& options);
// The options of "blobs[:key=value,…]" (what follows "builtin:"), defaults for those not given.
Result<BlobsOptions> blobsOptions(const std::string& nameAndOptions);
// Where makeBlobs() puts the class centres: on a circle of this radius about the origin.
double blobsCentreRadius(const BlobsOptions& options);

struct MoonsOptions {
  int perClass = 150;
  double noise = 0.1;
  std::uint64_t seed = 1;
};
Dataset makeMoons(const MoonsOptions& options);

struct XorOptions {
  int perClass = 150;
  double noise = 0.2;
  std::uint64_t seed = 1;
};
Dataset makeXor(const XorOptions& options);

}  // namespace dpstudio
