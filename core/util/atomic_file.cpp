#include "core/util/atomic_file.h"

#include <QSaveFile>

namespace dpstudio {

Status writeFileAtomically(const QByteArray& bytes, const QString& path, const std::string& what,
                           const BeforeCommit& beforeCommit) {
  auto failed = [&](const QString& reason) {
    return Error{ErrorKind::Internal, "cannot write " + what + ": " + reason.toStdString(), path.toStdString(), 0, {}};
  };
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return failed(file.errorString());
  if (file.write(bytes) != bytes.size()) {
    const QString reason = file.errorString();
    file.cancelWriting();
    return failed(reason);
  }
  if (beforeCommit && !beforeCommit()) {
    file.cancelWriting();
    file.commit();  // cancelled: removes the temporary file, leaves the target as it was
    return Error{ErrorKind::Internal, "the write of " + what + " was abandoned before it was committed",
                 path.toStdString(), 0, {}};
  }
  if (!file.commit()) return failed(file.errorString());
  return Ok{};
}

}  // namespace dpstudio
