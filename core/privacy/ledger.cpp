#include "core/privacy/ledger.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <utility>

#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

Status validate(const LedgerEntry& entry) {
  if (entry.mechanism.empty())
    return Error{ErrorKind::InvalidPrivacy, "mechanism must be named", {}, 0, "mechanism"};
  if (auto ok = requireNonNegative("epsilon", entry.epsilon); !ok) return ok.error();
  if (!(entry.delta >= 0 && entry.delta < 1)) return invalidParameter("delta", "in [0, 1)", entry.delta);
  if (const auto& b = entry.inferenceBudget;
      b && !(b->id != 0 && b->budget >= 1 && b->used >= 0 && b->used <= b->budget))
    return Error{ErrorKind::InvalidPrivacy, "an inference budget needs an id, B >= 1 and 0 <= used <= B", {}, 0,
                 "budget"};
  return Ok{};
}

std::vector<LedgerEntry>::iterator findBudget(std::vector<LedgerEntry>& entries, std::uint64_t budgetId) {
  return std::find_if(entries.begin(), entries.end(), [budgetId](const LedgerEntry& e) {
    return e.inferenceBudget && e.inferenceBudget->id == budgetId;
  });
}

}  // namespace

std::string newLedgerEntryId() {
  std::random_device os;  // the OS's entropy: ids of two processes started together differ
  std::string id;
  for (int i = 0; i < 4; ++i) {
    char word[9];
    std::snprintf(word, sizeof word, "%08x", static_cast<unsigned>(os()));
    id += word;
  }
  return id;
}

Result<LedgerEntry> PrivacyLedger::record(LedgerEntry entry) {
  if (auto valid = validate(entry); !valid) return valid.error();
  std::lock_guard changing(changeMutex_);  // no other change until this one is made
  std::vector<LedgerEntry> session;
  bool sameBudget = false;
  {
    std::lock_guard lock(mutex_);
    sameBudget = entry.inferenceBudget && findBudget(entries_, entry.inferenceBudget->id) != entries_.end();
    entry.index = entries_.size();
    session = entries_;
  }
  // The same budget again: the release is on the record already; only its count moves.
  if (sameBudget) return raiseBudget(entry.inferenceBudget->id, entry.inferenceBudget->used);
  if (entry.time == std::chrono::system_clock::time_point{})
    entry.time = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  if (entry.id.empty()) entry.id = newLedgerEntryId();
  Observer observer;
  {
    std::lock_guard lock(mutex_);
    if (entry.session.empty()) entry.session = session_;
    observer = observer_;  // a copy: called after the lock is released
  }
  if (keeper_) {
    session.push_back(entry);
    if (auto kept = keeper_(session); !kept) return kept.error();
  }
  {
    std::lock_guard lock(mutex_);
    entries_.push_back(entry);
  }
  if (observer) observer(Change::Recorded, entry);
  return entry;
}

// Under changeMutex_.
Result<LedgerEntry> PrivacyLedger::raiseBudget(std::uint64_t budgetId, long long used) {
  Observer observer;
  LedgerEntry changed;
  std::vector<LedgerEntry> session;
  {
    std::lock_guard lock(mutex_);
    auto it = findBudget(entries_, budgetId);
    if (it == entries_.end()) return Error{ErrorKind::Internal, "no entry carries this budget", {}, 0, "budget"};
    InferenceBudgetUse& budget = *it->inferenceBudget;
    const long long raised = std::min(std::max(budget.used, used), budget.budget);
    if (raised == budget.used) return *it;
    // Raised in memory whatever the keeper says: these answers were given.
    budget.used = raised;
    changed = *it;
    session = entries_;
    observer = observer_;
  }
  Status kept = keeper_ ? keeper_(session) : Status(Ok{});
  if (observer) observer(Change::Updated, changed);
  if (!kept) return kept.error();
  return changed;
}

void PrivacyLedger::recordAnswersGiven(std::uint64_t budgetId, long long used) {
  std::lock_guard changing(changeMutex_);
  {
    std::lock_guard lock(mutex_);
    if (findBudget(entries_, budgetId) == entries_.end()) return;
  }
  (void)raiseBudget(budgetId, used);
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
  std::lock_guard changing(changeMutex_);
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

void PrivacyLedger::setKeeper(Keeper keeper) {
  std::lock_guard changing(changeMutex_);  // not while a change is being kept
  keeper_ = std::move(keeper);
}

void PrivacyLedger::setSession(std::string session) {
  std::lock_guard lock(mutex_);
  session_ = std::move(session);
}

std::string PrivacyLedger::session() const {
  std::lock_guard lock(mutex_);
  return session_;
}

}  // namespace dpstudio::privacy
