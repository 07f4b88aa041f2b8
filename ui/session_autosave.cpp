#include "ui/session_autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>
#include <atomic>

namespace dpstudio::ui {
namespace {

const QString kLockSuffix = QStringLiteral(".lock");
const QString kClosedSuffix = QStringLiteral(".closed");  // a clean end that kept its sweeps

QString sweepFile(const QString& folder, int index) {
  return QDir(folder).filePath(QStringLiteral("sweep-%1.csv").arg(index, 3, 10, QLatin1Char('0')));
}

// Several windows of one process each have a session of their own.
QString newSessionId() {
  static std::atomic<int> windows{0};
  return QStringLiteral("%1-%2-%3")
      .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMddThhmmsszzz")))
      .arg(QCoreApplication::applicationPid())
      .arg(windows++);
}

// What a session folder saved, read back; the folder is removed.
SessionAutosave::Recovered readBack(const QDir& saved, QDateTime since) {
  SessionAutosave::Recovered recovered;
  recovered.saved = since;
  for (const QFileInfo& file : saved.entryInfoList({QStringLiteral("sweep-*.csv")}, QDir::Files, QDir::Name)) {
    recovered.saved = std::max(recovered.saved, file.lastModified());
    auto table = experiment::readTrialTable(file.filePath().toStdString());
    if (table)
      recovered.sweeps.push_back(std::move(table).value());
    else
      recovered.problems << QString::fromStdString(table.error().toString());
  }
  QDir(saved).removeRecursively();
  return recovered;
}

}  // namespace

QString SessionAutosave::defaultFolder() {
  const QString configured = qEnvironmentVariable("DPSTUDIO_SESSION_DIR");
  if (!configured.isEmpty()) return configured;
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("sessions"));
}

SessionAutosave::SessionAutosave(QString folder) : folder_(std::move(folder)), id_(newSessionId()) {
  if (!QDir().mkpath(folder_)) return;
  lock_ = std::make_unique<QLockFile>(QDir(folder_).filePath(id_ + kLockSuffix));
  active_ = lock_->tryLock(0) && QDir(folder_).mkpath(id_);
}

SessionAutosave::~SessionAutosave() {
  if (!active_) return;
  QFile closed(QDir(folder_).filePath(id_ + kClosedSuffix));
  if (!(keep_ && savedSweeps_ > 0 && closed.open(QIODevice::WriteOnly))) QDir(sessionFolder()).removeRecursively();
  lock_->unlock();  // removes the lock file
}

std::optional<SessionAutosave::Recovered> SessionAutosave::recoverClosed() {
  QDir folder(folder_);
  const QFileInfoList marks = folder.entryInfoList({QStringLiteral("*") + kClosedSuffix}, QDir::Files, QDir::Time);
  if (marks.isEmpty()) return std::nullopt;
  const QFileInfo& newest = marks.front();
  Recovered recovered = readBack(QDir(folder.filePath(newest.fileName().chopped(kClosedSuffix.size()))),
                                 newest.lastModified());
  QFile::remove(newest.filePath());
  if (recovered.sweeps.empty() && recovered.problems.isEmpty()) return std::nullopt;
  return recovered;
}

std::optional<SessionAutosave::Recovered> SessionAutosave::recoverCrashed() {
  QDir folder(folder_);
  // Newest first: the session a user most likely wants back.
  const QFileInfoList locks =
      folder.entryInfoList({QStringLiteral("*") + kLockSuffix}, QDir::Files, QDir::Time);
  for (const QFileInfo& info : locks) {
    const QString id = info.fileName().chopped(kLockSuffix.size());
    if (id == id_) continue;
    QLockFile other(info.filePath());
    other.setStaleLockTime(0);  // stale only when its process is gone, however old
    if (!other.tryLock(0)) continue;  // a live session (or one this user cannot claim)
    Recovered recovered = readBack(QDir(folder.filePath(id)), info.lastModified());
    other.unlock();
    if (recovered.sweeps.empty() && recovered.problems.isEmpty()) continue;  // it had nothing to give back
    return recovered;
  }
  return std::nullopt;
}

Status SessionAutosave::saveSweeps(const std::vector<experiment::TrialTable>& sweeps) {
  if (!active_) return Ok{};
  const QString folder = sessionFolder();
  for (std::size_t k = 0; k < sweeps.size(); ++k)
    if (auto status = experiment::writeTrialTable(sweepFile(folder, static_cast<int>(k)).toStdString(), sweeps[k]);
        !status)
      return status;
  for (int k = static_cast<int>(sweeps.size()); k < savedSweeps_; ++k) QFile::remove(sweepFile(folder, k));
  savedSweeps_ = static_cast<int>(sweeps.size());
  return Ok{};
}

}  // namespace dpstudio::ui
