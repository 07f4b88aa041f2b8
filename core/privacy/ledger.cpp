#include "core/privacy/ledger.h"

#include <algorithm>
#include <utility>

#include "core/privacy/validation.h"

namespace dpstudio::privacy {

Result<LedgerEntry> PrivacyLedger::record(LedgerEntry entry) {
  if (entry.mechanism.empty())
    return Error{ErrorKind::InvalidPrivacy, "mechanism must be named", {}, 0, "mechanism"};
  if (auto ok = requireNonNegative("epsilon", entry.epsilon); !ok) return ok.error();
  if (!(entry.delta >= 0 && entry.delta < 1)) return invalidParameter("delta", "in [0, 1)", entry.delta);
  if (const auto& b = entry.inferenceBudget;
      b && !(b->id != 0 && b->budget >= 1 && b->used >= 0 && b->used <= b->budget))
    return Error{ErrorKind::InvalidPrivacy, "an inference budget needs an id, B >= 1 and 0 <= used <= B", {}, 0,
                 "budget"};
  if (entry.time == std::chrono::system_clock::time_point{})
    entry.time = std::chrono::system_clock::now();
  Observer observer;
  {
    std::lock_guard lock(mutex_);
    entry.index = entries_.size();
    entries_.push_back(entry);
    observer = observer_;  // a copy: called after the lock is released
  }
  if (observer) observer(Change::Recorded, entry);
  return entry;
}

void PrivacyLedger::recordAnswersGiven(std::uint64_t budgetId, long long used) {
  Observer observer;
  LedgerEntry changed;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(entries_.begin(), entries_.end(), [budgetId](const LedgerEntry& e) {
      return e.inferenceBudget && e.inferenceBudget->id == budgetId;
    });
    if (it == entries_.end()) return;
    InferenceBudgetUse& budget = *it->inferenceBudget;
    const long long raised = std::min(std::max(budget.used, used), budget.budget);
    if (raised == budget.used) return;
    budget.used = raised;
    changed = *it;
    observer = observer_;
  }
  if (observer) observer(Change::Updated, changed);
}

std::vector<LedgerEntry> PrivacyLedger::entries() const {
  std::lock_guard lock(mutex_);
  return entries_;
}

std::size_t PrivacyLedger::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

PrivacyCost PrivacyLedger::total() const {
  std::lock_guard lock(mutex_);
  PrivacyCost sum;
  for (const LedgerEntry& entry : entries_) {
    sum.epsilon += entry.epsilon;
    sum.delta += entry.delta;
  }
  return sum;
}

PrivacyCost PrivacyLedger::totalFor(const std::string& dataset) const {
  std::lock_guard lock(mutex_);
  PrivacyCost sum;
  for (const LedgerEntry& entry : entries_) {
    if (entry.dataset != dataset) continue;
    sum.epsilon += entry.epsilon;
    sum.delta += entry.delta;
  }
  return sum;
}

void PrivacyLedger::clear() {
  Observer observer;
  {
    std::lock_guard lock(mutex_);
    entries_.clear();
    observer = observer_;
  }
  if (observer) observer(Change::Cleared, LedgerEntry{});
}

void PrivacyLedger::setObserver(Observer observer) {
  std::lock_guard lock(mutex_);
  observer_ = std::move(observer);
}

}  // namespace dpstudio::privacy
