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
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/privacy/composition.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

struct LedgerEntry {
  std::size_t index = 0;            // 0-based position in the session, assigned by the ledger
  std::string mechanism;            // e.g. "objective perturbation (logistic)"; not empty
  double epsilon = 0.0;             // finite, ≥ 0
  double delta = 0.0;               // in [0, 1)
  std::string dataset;              // the dataset name or source the release was computed on
  std::chrono::system_clock::time_point time;  // set by record() when left at its default
  std::string note;                 // free text (calibration, noise source, budget, …)
};

class PrivacyLedger {
 public:
  enum class Change { Recorded, Cleared };
  // Called with the change and, for Recorded, the new entry (for Cleared, an empty entry).
  using Observer = std::function<void(Change, const LedgerEntry&)>;

  // Validates (InvalidPrivacy naming "epsilon", "delta" or "mechanism"), stamps index and
  // time, appends, notifies. Returns the stored entry.
  Result<LedgerEntry> record(LedgerEntry entry);

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
