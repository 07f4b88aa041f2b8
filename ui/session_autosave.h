#pragma once
// What a session made that nothing else keeps, saved as it goes so that a crash loses little:
// the sweeps shown (their trial tables, core/experiment/trial_table.h, written atomically).
// The settings are saved by the window's periodic saveSettings(); the privacy ledger needs
// nothing here (every release is written to the ledger file when it is recorded).
//
// Each window's session holds a lock file in the sessions folder (DPSTUDIO_SESSION_DIR, or
// AppDataLocation/sessions) and keeps its files in a folder of the same name; a clean end
// removes both. A lock left by a process that is gone marks a session that ended without
// closing: recoverCrashed() claims the newest such session, hands back what it saved and
// removes it. Older ones stay for the next start, so that nothing is dropped unseen.
//
// A clean end may keep its sweeps for the next start (keepForNextStart(): quitting used to
// drop a sweep of thousands of trials without a word): its folder stays, marked closed, and
// recoverClosed() hands it back once.

#include <QDateTime>
#include <QLockFile>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

#include "core/experiment/trial_table.h"

namespace dpstudio::ui {

class SessionAutosave {
 public:
  explicit SessionAutosave(QString folder = defaultFolder());
  ~SessionAutosave();  // a clean end: this session's files go
  SessionAutosave(const SessionAutosave&) = delete;
  SessionAutosave& operator=(const SessionAutosave&) = delete;

  static QString defaultFolder();

  struct Recovered {
    QDateTime saved;  // when that session last saved
    std::vector<experiment::TrialTable> sweeps;
    QStringList problems;  // files that could not be read back, with the reason
  };
  // The newest session that ended without closing, claimed and removed; nothing when none.
  std::optional<Recovered> recoverCrashed();
  // The newest session that closed keeping its sweeps, claimed and removed; nothing when none.
  std::optional<Recovered> recoverClosed();
  // At this session's clean end, keep what it saved (call saveSweeps() first) for the next
  // start instead of removing it.
  void keepForNextStart() { keep_ = true; }

  // Replaces this session's saved sweeps with `sweeps` (in order). Errors name the file.
  Status saveSweeps(const std::vector<experiment::TrialTable>& sweeps);

  // Empty when the session could not take its lock (no autosave then), else its folder.
  QString sessionFolder() const { return active_ ? folder_ + QLatin1Char('/') + id_ : QString(); }

 private:
  QString folder_;
  QString id_;
  std::unique_ptr<QLockFile> lock_;
  bool active_ = false;
  bool keep_ = false;
  int savedSweeps_ = 0;
};

}  // namespace dpstudio::ui
