#include "core/experiment/mechanism_item.h"

#include <cstdlib>

namespace dpstudio::experiment {
namespace {

Error usage(const std::string& message) { return Error{ErrorKind::Usage, message, {}, 0, "mechanisms"}; }

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The whole of `text` as a number (as QString::toDouble/toLongLong accept it), or nothing.
std::optional<double> wholeNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

std::optional<long long> wholeInteger(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Result<MechanismItem> parseMechanismItem(const std::string& item) {
  std::vector<std::string> parts = split(item, ':');
  MechanismItem parsed;
  parsed.name = trimmed(parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string& part = parts[i];
    const bool parties = part.rfind("parties=", 0) == 0, fractions = part.rfind("split=", 0) == 0;
    if (parties || fractions) {
      if (parsed.name != "multiparty") return usage("'" + item + "': parties= and split= apply to multiparty only");
      if (parties) {
        const auto k = wholeInteger(part.substr(8));
        if (!k) return usage("'" + item + "': parties=K needs an integer");
        parsed.parties = static_cast<Index>(*k);
      } else {
        for (const std::string& f : split(part.substr(6), '/')) {
          const auto value = wholeNumber(f);
          if (!value) return usage("'" + item + "': split= needs fractions like 0.2/0.3/0.5");
          parsed.split.push_back(*value);
        }
      }
      continue;
    }
    if (auto c = mech::parseCalibration(part)) parsed.calibration = *c;
    else if (auto f = mech::parseNoiseFamily(part)) parsed.family = *f;
    else
      return usage("'" + item + "': unknown modifier '" + part +
                   "' (use corrected, published, l2-laplace, gaussian, parties=K or split=f1/f2/..)");
  }
  return parsed;
}

}  // namespace dpstudio::experiment
