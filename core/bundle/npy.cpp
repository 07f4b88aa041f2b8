#include "core/bundle/npy.h"

#include <QtEndian>

#include <cctype>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace dpstudio::bundle {
namespace {

using Index = Eigen::Index;

constexpr char kMagic[] = "\x93NUMPY";
constexpr int kMagicLength = 6;
constexpr int kPreambleLength = kMagicLength + 2 + 2;  // magic, version, header length
constexpr int kAlignment = 64;

Error bad(const std::string& member, const std::string& message) {
  return Error{ErrorKind::BadBundle, message, member, 0, {}};
}

// A header's shape. No memory is set aside for it until the data's length matches: a
// 129-byte .npy claiming 707604980 values once allocated 5.7 GB before being refused.
struct NpyShape {
  long long rows = 0, cols = 1;  // each below 10^9, so 8 * rows * cols cannot overflow
  bool oneDimensional = false;
  std::string text() const {
    if (oneDimensional) return "(" + std::to_string(rows) + ",)";
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
  }
};

// The header dict, read strictly: exactly the keys descr, fortran_order and shape, in any
// order, with the values a float64 C-order array of one or two dimensions has.
class HeaderParser {
 public:
  HeaderParser(std::string text, std::string member) : s_(std::move(text)), member_(std::move(member)) {}

  Result<NpyShape> parse() {
    skipSpaces();
    if (!eat('{')) return fail("the header is not a Python dict");
    bool haveDescr = false, haveOrder = false, haveShape = false;
    std::vector<long long> shape;
    for (;;) {
      skipSpaces();
      if (eat('}')) break;
      auto key = quoted();
      if (!key) return fail("the header holds something other than quoted keys");
      skipSpaces();
      if (!eat(':')) return fail("the header's key '" + *key + "' has no value");
      skipSpaces();
      if (*key == "descr") {
        auto descr = quoted();
        if (!descr) return fail("the header's descr is not a string");
        if (*descr != "<f8") return fail("dtype '" + *descr + "' is not '<f8' (little-endian float64)");
        haveDescr = true;
      } else if (*key == "fortran_order") {
        if (s_.compare(pos_, 5, "False") == 0) {
          pos_ += 5;
        } else if (s_.compare(pos_, 4, "True") == 0) {
          return fail("the array is in Fortran order; only C order is accepted");
        } else {
          return fail("the header's fortran_order is neither True nor False");
        }
        haveOrder = true;
      } else if (*key == "shape") {
        auto parsed = tuple();
        if (!parsed) return fail("the header's shape is not a tuple of whole numbers");
        shape = *parsed;
        haveShape = true;
      } else {
        return fail("the header has an unexpected key '" + *key + "'");
      }
      skipSpaces();
      if (eat('}')) break;
      if (!eat(',')) return fail("the header dict is malformed");
    }
    skipSpaces();
    if (pos_ != s_.size()) return fail("the header has text after its dict");
    if (!haveDescr || !haveOrder || !haveShape) return fail("the header lacks descr, fortran_order or shape");
    if (shape.size() != 1 && shape.size() != 2)
      return fail("the array has " + std::to_string(shape.size()) + " dimensions; only 1 or 2 are accepted");
    NpyShape out;
    out.oneDimensional = shape.size() == 1;
    out.rows = shape[0];
    out.cols = out.oneDimensional ? 1 : shape[1];
    return out;
  }

 private:
  Error fail(const std::string& message) const { return bad(member_, message); }
  void skipSpaces() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n')) ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<std::string> quoted() {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return std::nullopt;
    const char quote = s_[pos_++];
    const std::size_t end = s_.find(quote, pos_);
    if (end == std::string::npos) return std::nullopt;
    std::string out = s_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return out;
  }
  // "(3,)", "(3, 4)", "()": whole numbers only, each below 2^31 so that sizes cannot overflow.
  std::optional<std::vector<long long>> tuple() {
    if (!eat('(')) return std::nullopt;
    std::vector<long long> out;
    for (;;) {
      skipSpaces();
      if (eat(')')) return out;
      std::size_t digits = 0;
      long long value = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        value = value * 10 + (s_[pos_++] - '0');
        if (++digits > 9) return std::nullopt;
      }
      if (digits == 0) return std::nullopt;
      out.push_back(value);
      skipSpaces();
      if (eat(')')) return out;
      if (!eat(',')) return std::nullopt;
    }
  }

  std::string s_;
  std::string member_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string NpyArray::shapeText() const {
  if (oneDimensional) return "(" + std::to_string(values.rows()) + ",)";
  return "(" + std::to_string(values.rows()) + ", " + std::to_string(values.cols()) + ")";
}

bool NpyArray::operator==(const NpyArray& other) const {
  if (oneDimensional != other.oneDimensional || values.rows() != other.values.rows() ||
      values.cols() != other.values.cols())
    return false;
  return values.size() == 0 ||
         std::memcmp(values.data(), other.values.data(), sizeof(double) * static_cast<std::size_t>(values.size())) == 0;
}

QByteArray writeNpy(const NpyArray& array) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': " + array.shapeText() + ", }";
  // Pad with spaces so that preamble + header + '\n' is a multiple of 64 (numpy.lib.format).
  const std::size_t unpadded = kPreambleLength + header.size() + 1;
  header.append((kAlignment - unpadded % kAlignment) % kAlignment, ' ');
  header.push_back('\n');

  QByteArray out(kMagic, kMagicLength);
  out.append('\x01');
  out.append('\x00');
  const auto length = qToLittleEndian(static_cast<quint16>(header.size()));
  out.append(reinterpret_cast<const char*>(&length), 2);
  out.append(header.data(), static_cast<qsizetype>(header.size()));
  const Index rows = array.values.rows(), cols = array.values.cols();
  out.reserve(out.size() + static_cast<qsizetype>(8 * array.values.size()));
  // cols > 0 first: an empty array may have any number of rows (fuzz_npy: 719805447 x 0).
  for (Index i = 0; cols > 0 && i < rows; ++i)
    for (Index j = 0; j < cols; ++j) {
      const double value = qToLittleEndian(array.values(i, j));
      out.append(reinterpret_cast<const char*>(&value), 8);
    }
  return out;
}

Result<NpyArray> readNpy(const QByteArray& bytes, const std::string& member) {
  if (bytes.size() < kPreambleLength || std::memcmp(bytes.constData(), kMagic, kMagicLength) != 0)
    return bad(member, "not a .npy array (no \\x93NUMPY magic)");
  if (bytes[kMagicLength] != 1 || bytes[kMagicLength + 1] != 0)
    return bad(member, ".npy format version " + std::to_string(int(bytes[kMagicLength])) + "." +
                           std::to_string(int(bytes[kMagicLength + 1])) + " is not 1.0");
  quint16 headerLength = 0;
  std::memcpy(&headerLength, bytes.constData() + kMagicLength + 2, 2);
  headerLength = qFromLittleEndian(headerLength);
  const qsizetype dataStart = kPreambleLength + headerLength;
  if (bytes.size() < dataStart) return bad(member, "the .npy header is cut short");
  const std::string header(bytes.constData() + kPreambleLength, headerLength);
  if (header.empty() || header.back() != '\n') return bad(member, "the .npy header does not end with a newline");
  for (char c : header)
    if (static_cast<unsigned char>(c) >= 0x80 || (c < 0x20 && c != '\n'))
      return bad(member, "the .npy header is not printable ASCII");

  auto parsed = HeaderParser(header, member).parse();
  if (!parsed) return parsed.error();
  const NpyShape shape = parsed.value();
  const qsizetype expected = static_cast<qsizetype>(8 * shape.rows * shape.cols);
  if (bytes.size() - dataStart != expected)
    return bad(member, "holds " + std::to_string(bytes.size() - dataStart) + " data bytes, but shape " +
                           shape.text() + " needs " + std::to_string(expected));
  NpyArray out;
  out.oneDimensional = shape.oneDimensional;
  const auto rows = static_cast<Index>(shape.rows), cols = static_cast<Index>(shape.cols);
  out.values.resize(rows, cols);
  const char* data = bytes.constData() + dataStart;
  // cols > 0 first: a 128-byte file of shape (719805447, 0) spun 7 * 10^8 empty rows (16 s
  // under ASan) before fuzz_npy found it.
  for (Index i = 0; cols > 0 && i < rows; ++i)
    for (Index j = 0; j < cols; ++j) {
      double value = 0;
      std::memcpy(&value, data, 8);
      out.values(i, j) = qFromLittleEndian(value);
      data += 8;
    }
  return out;
}

}  // namespace dpstudio::bundle
