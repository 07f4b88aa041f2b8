#include "core/privacy/ledger_file.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>

#include <atomic>
#include <mutex>
#include <variant>

#include "core/privacy/ledger_json.h"
#include "core/privacy/ledger_totals.h"

namespace dpstudio::privacy {
namespace {

constexpr int kLockTimeoutMs = 10000;

Error failure(const std::string& message, const QString& path) {
  return Error{ErrorKind::Internal, message, QDir::toNativeSeparators(path).toStdString(), 0, {}};
}

// QLockFile keeps processes apart but not the threads of one process (a worker recording
// answers, the GUI archiving): this mutex does.
std::mutex& processMutex() {
  static std::mutex mutex;
  return mutex;
}

// Holds the process mutex and the lock file for as long as it lives.
//
// The lock never goes stale by age (setStaleLockTime(0)): Qt's default would take over a lock
// file older than 30 s even while its writer, alive, is still between reading the ledger and
// renaming the new file over it — and the two writers' merges would then lose a release.
// A lock left by a process that died is still taken over: QLockFile finds it stale when its
// process is not running on this host (the pid, and the program's name against pid reuse, as
// the lock file records them). What it cannot check — a lock taken on another machine that
// shares the folder — waits for its writer; the error names the lock file to delete if that
// writer is gone.
class Locked {
 public:
  explicit Locked(const QString& path) : thread_(processMutex()), lock_(path + QStringLiteral(".lock")) {
    lock_.setStaleLockTime(0);
  }

  Status acquire(const QString& path) {
    if (lock_.tryLock(kLockTimeoutMs)) return Ok{};
    if (lock_.error() == QLockFile::LockFailedError) {
      qint64 pid = 0;
      QString host, application;
      const QString who = lock_.getLockInfo(&pid, &host, &application)
                              ? QStringLiteral(" (%1, pid %2 on %3)").arg(application).arg(pid).arg(host)
                              : QString();
      return failure("the privacy ledger is locked by another process" + who.toStdString() + " for more than " +
                         std::to_string(kLockTimeoutMs / 1000) +
                         " s; try again when it is done. A lock is never broken while its process runs; if "
                         "that process is gone (on another machine sharing this folder), delete " +
                         QDir::toNativeSeparators(lock_.fileName()).toStdString(),
                     path);
    }
    return failure("cannot lock the privacy ledger (cannot create " + lock_.fileName().toStdString() +
                       "; is its folder writable?)",
                   path);
  }

 private:
  std::lock_guard<std::mutex> thread_;
  QLockFile lock_;
};

QString utcStamp() { return QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")); }

// path.<what>-<UTC time>, with -2, -3 … when a file of that name is there already.
QString asideName(const QString& path, const QString& what) {
  const QString base = path + QLatin1Char('.') + what + QLatin1Char('-') + utcStamp();
  QString name = base;
  for (int n = 2; QFileInfo::exists(name); ++n) name = base + QLatin1Char('-') + QString::number(n);
  return name;
}

Result<QString> renameAside(const QString& path, const QString& what) {
  const QString aside = asideName(path, what);
  if (!QFile::rename(path, aside))
    return failure("cannot rename the privacy ledger to " + QDir::toNativeSeparators(aside).toStdString(), path);
  return aside;
}

// The file as it is, under the caller's lock.
Result<LedgerFile::Contents> readLocked(const QString& path) {
  LedgerFile::Contents contents;
  if (!QFileInfo::exists(path)) return contents;
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return failure("cannot read the privacy ledger: " + file.errorString().toStdString(), path);
  const QByteArray bytes = file.readAll();
  file.close();
  auto parsed = ledgerFromJson(bytes);
  if (auto* entries = std::get_if<std::vector<LedgerEntry>>(&parsed)) {
    contents.entries = std::move(*entries);
    return contents;
  }
  const LedgerParseError& problem = std::get<LedgerParseError>(parsed);
  if (problem.kind == LedgerParseError::Kind::NewerVersion)
    return failure("the privacy ledger is refused: " + problem.message +
                       ". It is left as it is; use that dpstudio, or archive the file to start a new ledger",
                   path);
  auto aside = renameAside(path, QStringLiteral("corrupt"));
  if (!aside)
    return failure("the privacy ledger is corrupt (" + problem.message + ") and " + aside.error().message, path);
  contents.setAside = "the privacy ledger " + QDir::toNativeSeparators(path).toStdString() + " was corrupt (" +
                      problem.message + "); it was kept aside as " +
                      QDir::toNativeSeparators(aside.value()).toStdString() + " and a new ledger was started";
  return contents;
}

}  // namespace

QString defaultLedgerPath() {
  const QString overridden = qEnvironmentVariable("DPSTUDIO_LEDGER_FILE");
  if (!overridden.isEmpty()) return overridden;
  const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
  return QDir(data).filePath(QStringLiteral("dpstudio/ledger.json"));
}

std::string sessionLabel(const std::string& program) {
  // A process may hold several sessions one after the other (a main window, then another):
  // the later ones are numbered, so that no two sessions share a label.
  static std::atomic<int> sessions{0};
  const int number = ++sessions;
  std::string label = program + ", " + QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString() +
                      ", pid " + std::to_string(QCoreApplication::applicationPid());
  if (number > 1) label += ", session " + std::to_string(number);
  return label;
}

LedgerFile::LedgerFile(QString path) : path_(std::move(path)) {}

Result<LedgerFile::Contents> LedgerFile::load() const {
  // No folder, no file: nothing to lock (and no lock file to leave in a folder made for it).
  if (!QFileInfo(path_).absoluteDir().exists()) return Contents{};
  Locked lock(path_);
  if (auto locked = lock.acquire(path_); !locked) return locked.error();
  return readLocked(path_);
}

Result<LedgerFile::Contents> LedgerFile::merge(const std::vector<LedgerEntry>& entries,
                                               const BeforeCommit& beforeCommit) const {
  const QDir folder = QFileInfo(path_).absoluteDir();
  if (!folder.exists() && !QDir().mkpath(folder.absolutePath()))
    return failure("cannot create the folder of the privacy ledger", path_);
  Locked lock(path_);
  if (auto locked = lock.acquire(path_); !locked) return locked.error();
  auto contents = readLocked(path_);
  if (!contents) return contents.error();
  bool changed = !QFileInfo::exists(path_);  // a new (or set-aside) ledger is written even when empty
  auto merged = mergeLedgerEntries(contents.value().entries, entries);
  if (!merged) {
    Error error = merged.error();  // a budget spent: the file is left as it is
    error.message += " (" + QDir::toNativeSeparators(path_).toStdString() + ")";
    return error;
  }
  changed = merged.value() || changed;
  if (changed)
    if (auto written = writeFileAtomically(ledgerToJson(contents.value().entries), path_, "the privacy ledger",
                                           beforeCommit);
        !written)
      return written.error();
  return contents;
}

Result<QString> LedgerFile::archive() const {
  if (!QFileInfo::exists(path_)) return QString();
  Locked lock(path_);
  if (auto locked = lock.acquire(path_); !locked) return locked.error();
  if (!QFileInfo::exists(path_)) return QString();  // archived by another process meanwhile
  return renameAside(path_, QStringLiteral("archived"));
}

}  // namespace dpstudio::privacy
