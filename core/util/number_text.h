#pragma once
// Numbers as text for messages, reports and files, in printf's %g style ("0.1", "1e-05").

#include <string>

namespace dpstudio {

// `value` with `digits` significant digits.
std::string significantDigits(double value, int digits);

// Three significant digits: what a person reads at a glance in a message or a report.
inline std::string briefNumber(double value) { return significantDigits(value, 3); }

// Seventeen: the text reads back as the same double (fingerprints, files, protocol fields).
inline std::string exactNumber(double value) { return significantDigits(value, 17); }

}  // namespace dpstudio
