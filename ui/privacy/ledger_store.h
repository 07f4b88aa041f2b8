#pragma once
// The GUI's side of the ledger file (core/privacy/ledger_file.h): it keeps the session's
// ledger in the per-user file and reads back what earlier sessions, and other processes
// (`dpstudio-cli … --ledger default`), recorded there.
//
// It installs the session ledger's keeper: every release is written to the file before it
// counts as recorded, on whichever thread records it, so a release the file cannot take is
// refused with the file's error (the training is then not shown, the answers not given).
// The history is the file's entries of other sessions, read at start and again by reload()
// (after each change of the session, and when the Ledger page is shown). A file that was corrupt is
// reported once (notice()) and kept aside by core; one that cannot be used (a newer
// format, unreadable) is reported by problem() for as long as it lasts.
//
// Signals are past tense and come on the GUI thread: changed() after the history, the
// notice or the problem changed.

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/privacy/ledger_file.h"
#include "core/util/result.h"

namespace dpstudio::ui {

class LedgerStore : public QObject {
  Q_OBJECT

 public:
  // Names the session ("dpstudio, <start time>, pid N"), installs the keeper and reads the
  // history. The ledger must outlive the store; the store removes its keeper when it goes.
  LedgerStore(std::shared_ptr<privacy::PrivacyLedger> ledger, const QString& path, QObject* parent = nullptr);
  ~LedgerStore() override;

  QString path() const;
  // Entries of earlier sessions and other processes, in the file's order, as of the last
  // read. The session's own entries are in the session ledger, not here.
  const std::vector<privacy::LedgerEntry>& history() const { return history_; }
  // What is wrong with the file now (releases are refused while it lasts), or empty.
  QString problem() const;
  // What happened to the file that the user must know (a corrupt file kept aside), or empty.
  QString notice() const;

  // Renames the file aside (FILE.archived-<time>) and starts a new ledger: the history and
  // the session are emptied (what was released stays released; the record is in the
  // archive). Returns the archive's path, empty when there was no file.
  Result<QString> archive();

 public slots:
  // Reads the file again (GUI thread).
  void reload();

 signals:
  void changed();

 private:
  struct Shared;  // what the keeper (any thread) shares with the store

  std::shared_ptr<privacy::PrivacyLedger> ledger_;
  std::shared_ptr<Shared> shared_;
  std::vector<privacy::LedgerEntry> history_;
};

}  // namespace dpstudio::ui
