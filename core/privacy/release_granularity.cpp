#include "core/privacy/release_granularity.h"

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
  auto granularity = releaseGranularity(scale);
  if (!granularity) return granularity.error();
  if (source.kind() != NoiseKind::Release) return 0.0;
  roundToGranularity(values, granularity.value());
  return granularity.value();
}

}  // namespace dpstudio::privacy
