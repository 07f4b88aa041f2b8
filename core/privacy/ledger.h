#pragma once
// The session privacy ledger (SPEC "Ledger"): every release of the session — a trained
// private model, a batch of private answers, an accountant run that was used — with its
// (ε, δ), and the running total by basic composition (ALGORITHMS §1), the only rule that
// is valid for arbitrary, adaptively chosen releases.
//
// The session is what this process released. What earlier sessions released lives in the
// ledger file (ledger_file.h); a keeper (setKeeper) writes every change there before the
// change counts as recorded, so that nothing is released without being on the record.
//
// Thread-safe: workers record, the GUI reads. An observer (one std::function, e.g. the
// ui/ adapter emitting a Qt signal) is called after each change, on the recording thread,
// outside the ledger's lock, so it may read the ledger back.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/privacy/composition.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

// A private predictor's inference budget (ALGORITHMS §3 F, G): the entry that records the
// whole (ε, δ) of its B answers is made at the first answer, and the count of answers given
// follows as they are given, so the ledger shows what remains of every open budget.
struct InferenceBudgetUse {
  // Identifies the budget: predict::AnswerBudget::id(), a bundle's inference.budget_id;
  // random, never 0, never reused.
  std::uint64_t id = 0;
  long long budget = 0;  // B ≥ 1
  long long used = 0;    // answers given so far, 0 ≤ used ≤ B

  long long remaining() const { return budget - used; }
};

struct LedgerEntry {
  std::size_t index = 0;            // 0-based position in the session, assigned by the ledger
  std::string mechanism;            // e.g. "objective perturbation (logistic)"; not empty
  double epsilon = 0.0;             // finite, ≥ 0
  double delta = 0.0;               // in [0, 1)
  // The dataset the release was computed on: its identity (datasetIdentity(): a built-in
  // spec or an absolute path; empty when unknown, e.g. answers of a bundle whose entry this
  // ledger never saw). Never anything read from the data.
  std::string dataset;
  // Set by record() when left at its default, in whole milliseconds (the file's precision).
  std::chrono::system_clock::time_point time;
  std::string note;                 // free text (calibration, noise source, …)
  std::optional<InferenceBudgetUse> inferenceBudget;  // private predictors only
  // The user's name for the dataset (`--dataset-name`), empty when none was given. Entries
  // that share a path or a name are one dataset in the totals (ledger_totals.h): the name
  // is how a copy of the data at another path is counted with it.
  std::string datasetName;
  std::string id;       // unique across sessions (32 hex digits); set by record() when empty
  std::string session;  // the session that recorded it (ledger_file.h's sessionLabel())
};

class PrivacyLedger {
 public:
  enum class Change { Recorded, Updated, Cleared };
  // Called with the change and, for Recorded and Updated, the entry as it now is (for
  // Cleared, an empty entry).
  using Observer = std::function<void(Change, const LedgerEntry&)>;

  // Keeps the session beyond the process: called with every entry of the session as it
  // will be after a change (the new entry included), before the change is made. An error
  // refuses the change: record() returns it and nothing is recorded. Called under a lock
  // that orders the session's changes, never under the lock readers take.
  using Keeper = std::function<Status(const std::vector<LedgerEntry>& session)>;

  // Validates (InvalidPrivacy naming "epsilon", "delta" or "mechanism"), stamps index,
  // time, id and session, keeps (setKeeper), appends, notifies Recorded. Returns the stored
  // entry. An entry whose inference budget is already in the session is that release again
  // (a later answer of the same budget, or the same bundle answering in another process):
  // its count of answers is raised instead (as recordAnswersGiven) and that entry returned.
  Result<LedgerEntry> record(LedgerEntry entry);

  // Raises the count of answers given by the budget `budgetId` to `used` (capped at B) and
  // notifies Updated. Never lowers it: answers given concurrently may report out of order.
  // Nothing happens while no entry carries that budget (its opening answer is being
  // recorded; the opening reads the count when it records). A keeper's error is not
  // returned: the whole (ε, δ) of the budget is on the record since its opening, and the
  // count is kept again with the next change.
  void recordAnswersGiven(std::uint64_t budgetId, long long used);

  std::vector<LedgerEntry> entries() const;  // a snapshot
  std::size_t size() const;
  // (Σε, Σδ) over all entries, or over the entries of one dataset. A δ total ≥ 1 means
  // the composed guarantee is void; the caller must show that.
  PrivacyCost total() const;
  PrivacyCost totalFor(const std::string& dataset) const;

  void clear();                         // a new session (the keeper is not called)
  void setObserver(Observer observer);  // replaces the previous one; empty to remove
  void setKeeper(Keeper keeper);        // replaces the previous one; empty to keep nothing
  // Stamped on every entry recorded from now on whose session is empty.
  void setSession(std::string session);
  std::string session() const;

 private:
  Result<LedgerEntry> raiseBudget(std::uint64_t budgetId, long long used);

  std::mutex changeMutex_;  // orders changes (and the keeper's writes); taken before mutex_
  mutable std::mutex mutex_;
  std::vector<LedgerEntry> entries_;
  Observer observer_;
  Keeper keeper_;
  std::string session_;
};

// 32 random hex digits (128 bits from the OS): an entry id, unique across sessions.
std::string newLedgerEntryId();

}  // namespace dpstudio::privacy
