#include "core/io/parse_util.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace dpstudio::io {

namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// Plain decimals ("-12.5", "0.622788": what numeric CSV files hold) read exactly without
// std::from_chars, which was a third of reading a large CSV. Clinger's fast path: the digits as
// an integer m < 2^53 and k ≤ 22 digits after the point make m and 10^k exact doubles, so
// m / 10^k is one correctly rounded division, the value from_chars gives, bit for bit. Anything
// else (an exponent, more digits, "nan", ".5") returns false and goes to from_chars.
bool parsePlainDecimal(std::string_view text, double& value) {
  static constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                            1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr std::uint64_t kExact = std::uint64_t{1} << 53;
  const char* p = text.data();
  const char* const end = p + text.size();
  const bool negative = p != end && *p == '-';
  if (negative) ++p;
  std::uint64_t mantissa = 0;
  const char* const integerStart = p;
  for (; p != end && *p >= '0' && *p <= '9'; ++p) {
    mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
    if (mantissa >= kExact) return false;
  }
  if (p == integerStart) return false;
  std::size_t fraction = 0;
  if (p != end) {
    if (*p != '.') return false;
    const char* const fractionStart = ++p;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
      mantissa = mantissa * 10 + static_cast<std::uint64_t>(*p - '0');
      if (mantissa >= kExact) return false;
    }
    fraction = static_cast<std::size_t>(p - fractionStart);
    if (p != end || fraction == 0 || fraction > 22) return false;
  }
  const double magnitude = static_cast<double>(mantissa) / kPowersOfTen[fraction];
  value = negative ? -magnitude : magnitude;
  return true;
}

}  // namespace

NumberKind parseNumber(std::string_view text, double& value) {
  if (parsePlainDecimal(text, value)) return NumberKind::Number;
  // std::from_chars rejects '+', so it is skipped here; "+-1" must stay invalid.
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) return NumberKind::NotNumber;
  }
  if (text.empty()) return NumberKind::NotNumber;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (ptr != last) return NumberKind::NotNumber;
  if (ec == std::errc::result_out_of_range) {
    // from_chars flags underflow (1e-400) and overflow (1e400) alike; strtod tells them
    // apart: an underflow is a harmless tiny number, an overflow is not a finite value.
    const std::string copy(text);
    errno = 0;
    value = std::strtod(copy.c_str(), nullptr);
    return std::isfinite(value) ? NumberKind::Number : NumberKind::NotFinite;
  }
  if (ec != std::errc()) return NumberKind::NotNumber;
  return std::isfinite(value) ? NumberKind::Number : NumberKind::NotFinite;
}

IntegerKind parseInteger(std::string_view text, long long& value) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text.front() == '+' || text.front() == '-'))
      return IntegerKind::NotInteger;
  }
  if (text.empty()) return IntegerKind::NotInteger;
  const char* last = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), last, value, 10);
  if (ptr != last) return IntegerKind::NotInteger;
  if (ec == std::errc::result_out_of_range) return IntegerKind::Overflow;
  if (ec != std::errc()) return IntegerKind::NotInteger;
  return IntegerKind::Integer;
}

std::optional<BytePosition> findNulByte(std::string_view text) {
  const std::size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  BytePosition at{1, 1};
  for (std::size_t i = 0; i < nul; ++i) {
    const char c = text[i];
    const bool lineEnds = c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'));
    if (lineEnds) {
      ++at.line;
      at.column = 1;
    } else if (c != '\r') {
      ++at.column;
    }
  }
  return at;
}

std::string binaryDataMessage(const BytePosition& at, std::string_view format) {
  return "a NUL byte at column " + std::to_string(at.column) + ": binary data, not " + std::string(format) +
         " text (a spreadsheet, image or compressed file under a text name?)";
}

bool isMissingToken(std::string_view text) {
  switch (text.size()) {
    case 0: return true;
    case 1: return text[0] == '?';
    case 2: return equalsIgnoreCase(text, "na");
    case 3: return equalsIgnoreCase(text, "n/a");
    case 4: return equalsIgnoreCase(text, "null");
    default: return false;
  }
}

std::string quoteForMessage(std::string_view text) {
  constexpr std::size_t kMax = 40;
  std::string out;
  out.reserve(std::min(text.size(), kMax) + 5);
  out += '\'';
  out.append(text.substr(0, kMax));
  if (text.size() > kMax) out += "...";
  out += '\'';
  return out;
}

std::string numberedName(std::string_view prefix, long long number) {
  std::string out(prefix);
  out += std::to_string(number);
  return out;
}

std::string_view trimSpaces(std::string_view text) {
  const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

int LabelTable::intern(std::string_view label) {
  if (lastId_ >= 0 && label == lastLabel_) return lastId_;
  auto it = ids_.find(label);
  if (it == ids_.end()) {
    it = ids_.emplace(std::string(label), static_cast<int>(names_.size())).first;
    names_.emplace_back(label);
  }
  lastLabel_.assign(label);
  lastId_ = it->second;
  return lastId_;
}

void LabelTable::finish(std::vector<std::string>& classNames, std::vector<int>& remap) const {
  const std::size_t k = names_.size();
  std::vector<double> values(k, 0.0);
  bool allNumbers = true;
  for (std::size_t i = 0; i < k && allNumbers; ++i)
    allNumbers = parseNumber(names_[i], values[i]) == NumberKind::Number;

  std::vector<std::size_t> order(k);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (allNumbers) {
    // Equal values with different spellings ("1", "1.0") stay distinct classes; the
    // spelling breaks the tie so that the order does not depend on the file's order.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (values[a] != values[b]) return values[a] < values[b];
      return names_[a] < names_[b];
    });
  } else {
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return names_[a] < names_[b]; });
  }
  classNames.clear();
  classNames.reserve(k);
  remap.assign(k, 0);
  for (std::size_t rank = 0; rank < k; ++rank) {
    classNames.push_back(names_[order[rank]]);
    remap[order[rank]] = static_cast<int>(rank);
  }
}

Progress subProgress(const Progress& parent, double from, double to) {
  return Progress([parent, from, to](double f) { parent.report(from + (to - from) * f); },
                  parent.stopToken());
}

}  // namespace dpstudio::io
