#include "core/util/result.h"

namespace dpstudio {

std::string Error::toString() const {
  std::string out;
  if (!source.empty()) {
    out += source;
    if (line > 0) out += ":" + std::to_string(line);
    out += ": ";
  } else if (line > 0) {
    out += "line " + std::to_string(line) + ": ";
  }
  // Data errors name the column; parameter errors already name their parameter.
  if (!field.empty() && kind == ErrorKind::BadData) out += "column '" + field + "': ";
  // Bundle errors name the member of the archive (bundle_archive.h).
  if (!field.empty() && kind == ErrorKind::BadBundle) out += field + ": ";
  out += message;
  return out;
}

Error Error::badData(std::string message, std::string source, long line, std::string field) {
  return Error{ErrorKind::BadData, std::move(message), std::move(source), line, std::move(field)};
}

Error Error::cancelled() { return Error{ErrorKind::Cancelled, "cancelled", {}, 0, {}}; }

}  // namespace dpstudio
