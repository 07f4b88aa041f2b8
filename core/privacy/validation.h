#pragma once
// Parameter checks shared by the privacy primitives. Every failure is an
// ErrorKind::InvalidPrivacy error (CLI exit code 4) whose message names the parameter,
// e.g. "epsilon must be finite and > 0, found -1", and whose `field` is that name, so
// a form can mark the offending input.

#include <optional>
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

// A warning when δ is too large to mean anything for a dataset of n records: with δ ≥ 1/n
// a mechanism may publish one whole record outright and still be "(ε, δ)-DP" (the usual
// advice is δ well below 1/n). Empty when δ = 0, δ < 1/n, or n is unknown (n ≤ 0).
// Not an error: a teacher may show exactly this on purpose; the CLI and the GUI show it.
std::optional<std::string> doubtfulDeltaWarning(double delta, long n);

// "1e-05", "3.14159": the shortest form that reads back as a person would type it.
std::string formatNumber(double value);

}  // namespace dpstudio::privacy
