#pragma once
// Parameter checks shared by the privacy primitives. Every failure is an
// ErrorKind::InvalidPrivacy error (CLI exit code 4) whose message names the parameter,
// e.g. "epsilon must be finite and > 0, found -1", and whose `field` is that name, so
// a form can mark the offending input.

#include <string>

#include "core/util/result.h"

namespace dpstudio::privacy {

Error invalidParameter(const std::string& name, const std::string& requirement, double found);

// value finite and > 0.
Status requirePositive(const std::string& name, double value);
// value finite and ≥ 0.
Status requireNonNegative(const std::string& name, double value);
// value in the open interval (0, 1).
Status requireOpenUnit(const std::string& name, double value);

// "1e-05", "3.14159": the shortest form that reads back as a person would type it.
std::string formatNumber(double value);

}  // namespace dpstudio::privacy
