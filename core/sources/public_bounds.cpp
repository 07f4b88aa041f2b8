#include "core/sources/public_bounds.h"

#include <cmath>
#include <cstdio>

#include "core/sources/builtin.h"
#include "core/sources/source.h"

namespace dpstudio {

std::optional<PublicNormBound> publicNormBound(const std::string& spec) {
  if (!isBuiltinSpec(spec)) return std::nullopt;
  const std::string rest = spec.substr(spec.find(':') + 1);
  const std::string name = rest.substr(0, rest.find(':'));
  if (name == "digits")
    return PublicNormBound{128.0, false,
                           "each pixel is a count from 0 to 16, so \u2016x\u2016 \u2264 16\u00b7\u221a64 = 128"};
  if (name == "iris")
    return PublicNormBound{20.0, true,
                           "no iris measurement reaches 10 cm, so \u2016x\u2016 < 10\u00b7\u221a4 = 20"};
  if (name == "blobs") {
    const auto options = blobsOptions(rest);
    if (!options) return std::nullopt;
    // Each row is a centre plus a rotated, per-axis-shrunk standard normal z, so
    // ‖x‖ ≤ r + ‖z‖, and ‖z‖ > √d + 4 has probability below e^(−8) (Gaussian concentration
    // of the norm, 1-Lipschitz). A property of the generator, not of the rows.
    const double radius = blobsCentreRadius(options.value());
    const double bound = std::ceil(radius + std::sqrt(static_cast<double>(options.value().dim)) + 4.0);
    char reason[200];
    std::snprintf(reason, sizeof reason,
                  "the generator puts class centres %.3g from the origin and adds at most standard normal "
                  "noise, so \u2016x\u2016 > %.3g + \u221ad + 4 has probability below e\u207b\u2078; the rare "
                  "row beyond is clipped",
                  radius, radius);
    return PublicNormBound{bound, true, reason};
  }
  return std::nullopt;
}

}  // namespace dpstudio
