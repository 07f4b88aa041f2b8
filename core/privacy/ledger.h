#pragma once
// The session privacy ledger (SPEC "Ledger"): every release of the session — a trained
// private model, a batch of private answers, an accountant run that was used — with its
// (ε, δ), and the running total by basic composition (ALGORITHMS §1), the only rule that
// is valid for arbitrary, adaptively chosen releases.
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
  std::uint64_t id = 0;  // identifies the budget (predict::AnswerBudget::id()), never reused
  long long budget = 0;  // B ≥ 1
  long long used = 0;    // answers given so far, 0 ≤ used ≤ B

  long long remaining() const { return budget - used; }
};

struct LedgerEntry {
  std::size_t index = 0;            // 0-based position in the session, assigned by the ledger
  std::string mechanism;            // e.g. "objective perturbation (logistic)"; not empty
  double epsilon = 0.0;             // finite, ≥ 0
  double delta = 0.0;               // in [0, 1)
  std::string dataset;              // the dataset name or source the release was computed on
  std::chrono::system_clock::time_point time;  // set by record() when left at its default
  std::string note;                 // free text (calibration, noise source, …)
  std::optional<InferenceBudgetUse> inferenceBudget;  // private predictors only
};

class PrivacyLedger {
 public:
  enum class Change { Recorded, Updated, Cleared };
  // Called with the change and, for Recorded and Updated, the entry as it now is (for
  // Cleared, an empty entry).
  using Observer = std::function<void(Change, const LedgerEntry&)>;

  // Validates (InvalidPrivacy naming "epsilon", "delta" or "mechanism"), stamps index and
  // time, appends, notifies. Returns the stored entry.
  Result<LedgerEntry> record(LedgerEntry entry);

  // Raises the count of answers given by the budget `budgetId` to `used` (capped at B) and
  // notifies Updated. Never lowers it: answers given concurrently may report out of order.
  // Nothing happens while no entry carries that budget (its opening answer is being
  // recorded; the opening reads the count when it records).
  void recordAnswersGiven(std::uint64_t budgetId, long long used);

  std::vector<LedgerEntry> entries() const;  // a snapshot
  std::size_t size() const;
  // (Σε, Σδ) over all entries, or over the entries of one dataset. A δ total ≥ 1 means
  // the composed guarantee is void; the caller must show that.
  PrivacyCost total() const;
  PrivacyCost totalFor(const std::string& dataset) const;

  void clear();                         // a new session
  void setObserver(Observer observer);  // replaces the previous one; empty to remove

 private:
  mutable std::mutex mutex_;
  std::vector<LedgerEntry> entries_;
  Observer observer_;
};

}  // namespace dpstudio::privacy
