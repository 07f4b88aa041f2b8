#include "core/data/declared_structure.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace dpstudio {
namespace {

std::optional<double> asNumber(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const char* begin = text.c_str();
  if (*begin == '+') ++begin;  // LIBSVM's "+1"
  char* end = nullptr;
  const double value = std::strtod(begin, &end);
  if (end == begin || *end != '\0' || !std::isfinite(value)) return std::nullopt;
  return value;
}

bool sameLabel(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const auto x = asNumber(a), y = asNumber(b);
  return x && y && *x == *y;
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

void markStructureFromData(Provenance& provenance, const std::string& what) {
  auto& marks = provenance.structureFromData;
  if (std::find(marks.begin(), marks.end(), what) == marks.end()) marks.push_back(what);
}

Result<std::vector<std::string>> parseDeclaredClasses(const std::string& text) {
  const auto invalid = [&](const std::string& why) {
    return Error{ErrorKind::Usage, why + ", found '" + text + "'", {}, 0, "classes"};
  };
  std::vector<std::string> classes;
  if (text.find(',') == std::string::npos) {
    const std::string count = trimmed(text);
    long long n = 0;
    const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (ec != std::errc() || end != count.data() + count.size() || n < 2 || n > 1000000)
      return invalid("must be a list of labels (0,1,2) or a class count >= 2");
    for (long long k = 0; k < n; ++k) classes.push_back(std::to_string(k));
    return classes;
  }
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    classes.push_back(trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (classes.back().empty()) return invalid("has an empty label");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (std::size_t i = 0; i < classes.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (sameLabel(classes[i], classes[j])) return invalid("declares '" + classes[i] + "' twice");
  if (classes.size() < 2) return invalid("needs at least two classes");
  return classes;
}

Result<Dataset> applyDeclaredClasses(Dataset data, const std::vector<std::string>& classes) {
  std::vector<int> remap(data.classNames.size(), -1);
  for (std::size_t k = 0; k < data.classNames.size(); ++k)
    for (std::size_t c = 0; c < classes.size(); ++c)
      if (sameLabel(data.classNames[k], classes[c])) {
        remap[k] = static_cast<int>(c);
        break;
      }
  for (Index i = 0; i < data.rows(); ++i) {
    const int mapped = remap[static_cast<std::size_t>(data.y[i])];
    if (mapped < 0) {
      std::string declared;
      for (const auto& name : classes) declared += (declared.empty() ? "" : ",") + name;
      return Error::badData("data row " + std::to_string(i + 1) + " has label '" +
                                data.classNames[static_cast<std::size_t>(data.y[i])] +
                                "', which is not one of the declared classes (" + declared + ")",
                            data.provenance.source, static_cast<long>(i + 1), "label");
    }
    data.y[i] = mapped;
  }
  data.classNames = classes;
  auto& marks = data.provenance.structureFromData;
  marks.erase(std::remove(marks.begin(), marks.end(), std::string(kStructureClasses)), marks.end());
  return data;
}

}  // namespace dpstudio
