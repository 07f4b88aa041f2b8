#pragma once
// Errors are values at the core boundary: every operation that can fail on user input
// returns Result<T>. Nothing throws across a thread or out of core.

#include <string>
#include <utility>
#include <variant>

namespace dpstudio {

// What kind of failure; the CLI maps each kind to its exit code (docs/cli.md).
enum class ErrorKind {
  Internal,          // exit 1: a bug or an environment failure (out of memory, disk full)
  Usage,             // exit 2: bad command-line usage
  BadData,           // exit 3: the input data cannot be read or is not a classification set
  InvalidPrivacy,    // exit 4: invalid privacy or model parameters
  BadBundle,         // exit 5: a model bundle is malformed or fails its checks
  Cancelled,         // the caller asked the work to stop; not shown as a failure
};

struct Error {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;  // what is wrong, a sentence for a person
  std::string source;   // file path or dataset name; empty if none
  long line = 0;        // 1-based line (text) or record (binary) number; 0 = not applicable
  std::string field;    // column, field or parameter name; empty if none

  // "source:line: column 'field': message", leaving out the parts that are empty.
  std::string toString() const;

  static Error badData(std::string message, std::string source = {}, long line = 0,
                       std::string field = {});
  static Error cancelled();
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

struct Ok {};
using Status = Result<Ok>;

}  // namespace dpstudio
