#include "core/data/random_features.h"

#include <cmath>
#include <numbers>
#include <sstream>

#include "core/random/rng.h"
#include "core/util/parallel.h"

namespace dpstudio {

Status RandomFeaturesSpec::validate() const {
  if (dim < 1) return Error{ErrorKind::Usage, "rff-dim must be at least 1", {}, 0, "rff-dim"};
  if (!(std::isfinite(gamma) && gamma > 0))
    return Error{ErrorKind::Usage, "rff-gamma must be finite and > 0", {}, 0, "rff-gamma"};
  return Ok{};
}

Result<RandomFourierFeatures> makeRandomFourierFeatures(const RandomFeaturesSpec& spec, Index inputDim) {
  if (auto status = spec.validate(); !status) return status.error();
  if (inputDim < 1) return Error{ErrorKind::Usage, "random Fourier features need at least one input feature", {}, 0, "rff-dim"};
  RandomFourierFeatures map;
  map.spec = spec;
  map.omega.resize(inputDim, spec.dim);
  map.offsets.resize(spec.dim);
  Rng rng(spec.seed);
  const double sd = std::sqrt(2.0 * spec.gamma);  // ω ~ N(0, 2γ I)
  for (Index j = 0; j < spec.dim; ++j) {
    for (Index i = 0; i < inputDim; ++i) map.omega(i, j) = sd * rng.normal();
    map.offsets[j] = 2.0 * std::numbers::pi * rng.uniform01();
  }
  return map;
}

Eigen::MatrixXd RandomFourierFeatures::apply(const Eigen::MatrixXd& X) const {
  const Index n = X.rows();
  Eigen::MatrixXd out(n, outputDim());
  const double scale = 1.0 / std::sqrt(static_cast<double>(outputDim()));
  // The cosines dominate the cost (scalar cos for doubles), so the chunks are parallel too.
  const RowChunks chunks{n};
  parallelFor(chunks.count(), [&](Index chunk) {
    auto block = out.middleRows(chunks.begin(chunk), chunks.size(chunk));
    block.noalias() = X.middleRows(chunks.begin(chunk), chunks.size(chunk)) * omega;
    block.rowwise() += offsets;
    block = scale * block.array().cos().matrix();
  });
  return out;
}

std::string RandomFourierFeatures::describe() const {
  std::ostringstream text;
  text << "random Fourier features for the RBF kernel exp(-gamma ||x - x'||^2): D = " << spec.dim
       << ", gamma = " << spec.gamma << ", seed " << spec.seed
       << " (data-independent draws, published with the model; ||phi(x)|| <= 1)";
  return text.str();
}

}  // namespace dpstudio
