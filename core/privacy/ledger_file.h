#pragma once
// The ledger that outlives the session (docs/formats/ledger-format.md): one JSON
// file per user that the GUI and the CLI (`--ledger FILE|default`) append to.
//
// Every operation takes a lock file beside the ledger (FILE.lock, QLockFile: a lock left by
// a process that died on this host is taken over; a lock whose process runs is never broken,
// however old) and, within the process, a mutex; a writer re-reads
// the file under the lock, merges its entries (mergeLedgerEntry) and writes the whole file
// atomically (core/util/atomic_file.h). So two writers never lose each other's releases, and
// a reader never sees half a file.
//
// A file that cannot be read as a ledger is never silently reset: a corrupt one is renamed
// aside (FILE.corrupt-<UTC time>) and reported, and the ledger starts again empty; one of a
// newer format version is refused and left untouched (a later dpstudio wrote it), as is one
// that cannot be read at all.

#include <QString>

#include <optional>
#include <string>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/util/atomic_file.h"

namespace dpstudio::privacy {

// DPSTUDIO_LEDGER_FILE when set (tests, shared set-ups), else ledger.json in the per-user
// data folder of dpstudio: ~/.local/share/dpstudio on Linux, ~/Library/Application
// Support/dpstudio on macOS, %LOCALAPPDATA%/dpstudio on Windows. The GUI and the CLI
// (`--ledger default`) must find the same file, so the folder is named here rather than
// taken from QStandardPaths::AppDataLocation, which depends on the running program's name.
QString defaultLedgerPath();

// Names one session in its entries: "dpstudio-cli train, 2025-06-03T10:04:12Z, pid 4242".
// The program, the session's start (UTC) and the process id, and ", session N" for the
// N-th session of one process: readable, and unique, so that a session tells its own
// entries from earlier ones.
std::string sessionLabel(const std::string& program);

class LedgerFile {
 public:
  explicit LedgerFile(QString path);

  const QString& path() const { return path_; }

  struct Contents {
    std::vector<LedgerEntry> entries;  // in the file's order
    // Set when the file was corrupt: what was wrong and where it was kept aside. The ledger
    // then starts again empty (entries holds only what a merge just added).
    std::optional<std::string> setAside;
  };

  // The ledger as the file holds it. No file: an empty ledger. Errors (ErrorKind::Internal,
  // the path as source): a newer format version, a file that cannot be read, a corrupt file
  // that cannot be renamed aside, the lock held by another process for more than 10 s.
  Result<Contents> load() const;

  // Under the lock: re-reads the file (as load(), setting a corrupt one aside), merges
  // `entries` into it (mergeLedgerEntries) and, when that changed anything, writes it
  // atomically (creating the folder if needed). Returns the ledger as written. Merging entries
  // the file already holds changes nothing, so a writer may send its whole session each time.
  // Refused, the file untouched, when a budget's count of answers over the file's entries
  // would exceed B (ErrorKind::InvalidPrivacy, field "budget": "inference budget spent …").
  Result<Contents> merge(const std::vector<LedgerEntry>& entries, const BeforeCommit& beforeCommit = {}) const;

  // Under the lock: renames the file aside as FILE.archived-<UTC time> and returns that
  // path (empty when there is no file). The history is kept there, never deleted; the
  // ledger starts again empty.
  Result<QString> archive() const;

 private:
  QString path_;
};

}  // namespace dpstudio::privacy
