#include "core/privacy/release_granularity.h"

#include <algorithm>
#include <cmath>

#include "core/privacy/validation.h"

namespace dpstudio::privacy {

Result<double> releaseGranularity(double scale) {
  if (auto ok = requirePositive("scale", scale); !ok) return ok.error();
  // frexp: scale = f·2^e with f in [0.5, 1), so ⌊log2 scale⌋ = e − 1 exactly (no log2
  // rounding at powers of two).
  int exponent = 0;
  std::frexp(scale, &exponent);
  return std::ldexp(1.0, exponent - 1 - kReleaseGridBitsBelowScale);
}

double floatSpacing(double magnitude) {
  if (!(magnitude > 0.0) || !std::isfinite(magnitude)) return 0.0;
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // ⌊log2 M⌋ = e − 1
  return std::ldexp(1.0, exponent - 1 - 52);
}

Result<double> releaseGrid(double scale, double largest) {
  auto floor = releaseGranularity(scale);
  if (!floor) return floor.error();
  if (!(largest >= 0.0) || !std::isfinite(largest))
    return Error{ErrorKind::InvalidPrivacy, "the largest released magnitude must be finite, found " +
                                                formatNumber(largest), {}, 0, "largest"};
  return std::max(floor.value(), std::ldexp(floatSpacing(largest), kReleaseGridUlpBits));
}

bool floatErrorCovered(double Delta, Eigen::Index m, double largest) {
  return std::sqrt(static_cast<double>(m)) * floatSpacing(largest) <= (kReleaseNoiseFactor - 1.0) * Delta;
}

double roundToGranularity(double x, double granularity) {
  if (!std::isfinite(x)) return x;
  // nearbyint under the default rounding mode rounds ties to even.
  return std::nearbyint(x / granularity) * granularity;
}

void roundToGranularity(Eigen::Ref<Eigen::VectorXd> values, double granularity) {
  for (Eigen::Index i = 0; i < values.size(); ++i)
    values[i] = roundToGranularity(values[i], granularity);
}

Result<double> applyReleaseGranularity(const NoiseSource& source, Eigen::Ref<Eigen::VectorXd> values,
                                       double scale) {
  return applyReleaseGranularity(source.kind(), values, scale);
}

Result<double> applyReleaseGranularity(NoiseKind kind, Eigen::Ref<Eigen::VectorXd> values, double scale) {
  double largest = 0.0;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    if (std::isfinite(values[i])) largest = std::max(largest, std::abs(values[i]));
  auto grid = releaseGrid(scale, largest);
  if (!grid) return grid.error();
  if (kind != NoiseKind::Release) return 0.0;
  roundToGranularity(values, grid.value());
  return grid.value();
}

}  // namespace dpstudio::privacy
