#pragma once
// The session privacy ledger (docs/formats/ledger-format.md): every release of the session — a trained
// private model, a batch of private answers, an accountant run that was used — with its
// (ε, δ), and the running total by basic composition (docs/algorithms.md §1.3), the only rule that
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

// A private predictor's inference budget (docs/algorithms.md §3 F, G): the (ε, δ) of its B answers
// is recorded once, by the entry that opens the budget, at the first answer the ledger sees;
// every session that answers through the predictor — the same bundle again, or a copy of it —
// records its own count of answers under the budget's id, and the ledger's count for the
// budget is the SUM over its entries (budgetAnswers(), ledger_totals.h). A copy of a bundle
// keeps its own count, so the ledger is what adds the copies up; no entry raises another's.
struct InferenceBudgetUse {
  // Identifies the budget: predict::AnswerBudget::id(), a bundle's inference.budget_id;
  // random, never 0, never reused, shared by every copy.
  std::uint64_t id = 0;
  long long budget = 0;   // B ≥ 1
  long long answers = 0;  // answers this entry's session gave, ≥ 0
  // Answers the predictor had given before its session recorded any (elsewhere: in another
  // ledger, or without one), ≥ 0: counted only when this entry opens the budget — a ledger
  // that had opened it counted them where they were given, or never saw them.
  long long before = 0;
  // Whether this entry opens the budget in its ledger, holding the (ε, δ) of all B answers.
  // An entry of a budget the ledger had opened already holds only its session's answers, at
  // ε = δ = 0 (mergeLedgerEntry decides, under the ledger file's lock).
  bool opens = true;

  long long counted() const { return answers + (opens ? before : 0); }  // what it adds to the budget's count
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
  // will be after a change (the new entry included), before the change is made. It returns
  // the ledger the session now is part of (the ledger file's entries after the merge), from
  // which the session takes its own entries as that ledger holds them (by id: an answering
  // session of a budget the file had opened is an entry at ε = δ = 0, named with the
  // opening's dataset). An error refuses the change: record() returns it and nothing is
  // recorded. Called under a lock that orders the session's changes, never under the lock
  // readers take.
  using Keeper = std::function<Result<std::vector<LedgerEntry>>(const std::vector<LedgerEntry>& session)>;

  // Validates (InvalidPrivacy naming "epsilon", "delta", "mechanism" or "budget"), stamps
  // index, time, id and session, keeps (setKeeper), appends, notifies Recorded. Returns the
  // stored entry. An entry carrying an inference budget records `answers` answers given now
  // (and, the first time, `before`): when the session holds an entry of that budget already,
  // its answers grow by that many instead (Updated) and that entry is returned. Refused
  // (InvalidPrivacy, field "budget", nothing recorded) when the session's count of the budget
  // — or the kept ledger's, summed over every session and copy — would exceed B: record
  // BEFORE drawing the answers, so that refused answers are never drawn.
  Result<LedgerEntry> record(LedgerEntry entry);

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
  Result<LedgerEntry> addAnswers(std::size_t at, long long answers);
  // Under changeMutex_: keeps `session` (the keeper) and returns it as kept.
  Result<std::vector<LedgerEntry>> keep(std::vector<LedgerEntry> session);

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
