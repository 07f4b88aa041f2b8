#pragma once
// Writing a whole file atomically: the bytes go to a temporary file in the target's folder
// (QSaveFile), which is renamed over the target only once it is complete. A failure, or the
// process dying, before the rename leaves no file at the target and an existing one
// untouched. The one writer of every file that must never be seen half-written: model
// bundles (core/bundle/zip_io.h) and the privacy ledger (core/privacy/ledger_file.h).

#include <QByteArray>
#include <QString>

#include <functional>
#include <string>

#include "core/util/result.h"

namespace dpstudio {

// A test's window into a write: called after the temporary file is fully written and before
// it is renamed over the target (a test kills the process here, or returns false to abandon
// the write: the result is then an Internal error and nothing is committed).
using BeforeCommit = std::function<bool()>;

// `what` names the file in errors ("the bundle", "the privacy ledger"): "cannot write the
// bundle: <reason>", with the path as the error's source. Errors are ErrorKind::Internal.
Status writeFileAtomically(const QByteArray& bytes, const QString& path, const std::string& what,
                           const BeforeCommit& beforeCommit = {});

}  // namespace dpstudio
