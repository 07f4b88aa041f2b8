#pragma once
// Small pieces the text and binary loaders share: number recognition, missing-value
// tokens, label interning with the class order every loader uses, and progress that
// is throttled and mapped onto a sub-range. Internal to core/io.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/progress.h"

namespace dpstudio::io {

// The largest dense feature matrix a loader builds (rows × features): 2^29 doubles,
// 4 GiB. A sparse file with a stray huge index must fail clearly, not exhaust memory.
inline constexpr std::uint64_t kMaxDenseValues = std::uint64_t{1} << 29;

// rows × columns exceeds `limit` values (checked without overflowing).
inline bool tooLargeForDense(std::uint64_t rows, std::uint64_t columns, std::uint64_t limit = kMaxDenseValues) {
  return columns != 0 && rows > limit / columns;
}

enum class NumberKind {
  Number,     // a finite double; the whole text was consumed
  NotFinite,  // "nan", "inf", "-infinity", or a value beyond the range of double
  NotNumber,  // anything else (including the empty string)
};

// Parses the whole of `text` as a decimal floating-point number (a leading '+' is
// accepted). No surrounding whitespace is allowed: callers trim first.
NumberKind parseNumber(std::string_view text, double& value);

// Parses the whole of `text` as a base-10 integer (leading '+' accepted).
enum class IntegerKind { Integer, Overflow, NotInteger };
IntegerKind parseInteger(std::string_view text, long long& value);

// Where a text file holds binary data: the first NUL byte, by 1-based line (a lone CR, LF
// and CRLF each end one) and 1-based byte column. A text format has none, so one means an
// image, a spreadsheet or a compressed file under a text name; reading on would quote the
// byte in an error message or, worse, take it for a category.
struct BytePosition {
  long line = 0;
  std::size_t column = 0;
};
std::optional<BytePosition> findNulByte(std::string_view text);
// "a NUL byte at column K: binary data, not <format> text (…)": the message for the above.
std::string binaryDataMessage(const BytePosition& at, std::string_view format);

// The spellings of a missing value: "", "NA", "N/A", "?", "null" (case-insensitive).
bool isMissingToken(std::string_view text);

// `text` in single quotes for an error message, cut to 40 characters.
std::string quoteForMessage(std::string_view text);

// prefix followed by the number: "x12", "f3". (Built by appending: GCC 12 warns falsely
// about "x" + std::to_string(k), bug 105651.)
std::string numberedName(std::string_view prefix, long long number);

// Leading and trailing spaces, tabs and carriage returns removed.
std::string_view trimSpaces(std::string_view text);

// Distinct label strings in first-seen order; finish() sorts them into class order:
// numerically when every label is a number ("-1" < "+1", "2" < "10"), else by bytes.
class LabelTable {
 public:
  int intern(std::string_view label);
  int size() const { return static_cast<int>(names_.size()); }
  const std::string& name(int id) const { return names_[static_cast<std::size_t>(id)]; }

  // classNames in class order, and remap[firstSeenId] = class index.
  void finish(std::vector<std::string>& classNames, std::vector<int>& remap) const;

 private:
  std::map<std::string, int, std::less<>> ids_;
  std::vector<std::string> names_;
  // Consecutive rows usually share a label: a one-entry cache skips the map lookup.
  std::string lastLabel_;
  int lastId_ = -1;
};

// A view of `parent` that maps [0, 1] onto [from, to] and shares its stop token.
Progress subProgress(const Progress& parent, double from, double to);

// Reports at most about a hundred times per task, so that a callback that crosses
// threads is not flooded, and answers whether to keep going.
class ProgressTicker {
 public:
  explicit ProgressTicker(const Progress& progress) : progress_(progress) {}
  // false when cancellation has been requested.
  bool update(double fraction) {
    if (fraction >= next_) {
      progress_.report(fraction);
      next_ = fraction + 0.01;
    }
    return !progress_.cancelled();
  }
  void done() { progress_.report(1.0); }
  // Whether cancellation was requested; safe from any thread (update() is not).
  bool cancelled() const { return progress_.cancelled(); }

 private:
  const Progress& progress_;
  double next_ = 0.0;
};

}  // namespace dpstudio::io
