#include "core/privacy/validation.h"

#include <cmath>
#include <cstdio>

namespace dpstudio::privacy {

std::string formatNumber(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

Error invalidParameter(const std::string& name, const std::string& requirement, double found) {
  return Error{ErrorKind::InvalidPrivacy,
               name + " must be " + requirement + ", found " + formatNumber(found), {}, 0, name};
}

Status requirePositive(const std::string& name, double value) {
  if (std::isfinite(value) && value > 0) return Ok{};
  return invalidParameter(name, "finite and > 0", value);
}

Status requireNonNegative(const std::string& name, double value) {
  if (std::isfinite(value) && value >= 0) return Ok{};
  return invalidParameter(name, "finite and >= 0", value);
}

Status requireOpenUnit(const std::string& name, double value) {
  if (value > 0 && value < 1) return Ok{};  // false for NaN
  return invalidParameter(name, "in (0, 1)", value);
}

}  // namespace dpstudio::privacy
