#include "core/privacy/validation.h"

#include <cmath>

#include "core/util/number_text.h"

namespace dpstudio::privacy {

std::string formatNumber(double value) { return significantDigits(value, 10); }

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

std::optional<std::string> doubtfulDeltaWarning(double delta, long n) {
  if (n <= 0 || !(delta > 0)) return std::nullopt;
  const double inverseN = 1.0 / static_cast<double>(n);
  if (delta < inverseN) return std::nullopt;
  return "delta = " + formatNumber(delta) + " is not below 1/n = 1/" + std::to_string(n) +
         " (" + formatNumber(inverseN) +
         "): with delta >= 1/n a mechanism may publish a whole record and still satisfy the "
         "guarantee; choose delta well below 1/n (e.g. 1/n^2 = " +
         formatNumber(inverseN * inverseN) + ")";
}

}  // namespace dpstudio::privacy
