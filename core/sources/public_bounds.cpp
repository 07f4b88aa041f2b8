#include "core/sources/public_bounds.h"

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
  return std::nullopt;
}

}  // namespace dpstudio
