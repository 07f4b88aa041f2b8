#include "core/privacy/ledger.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>
#include <utility>

#include "core/privacy/ledger_totals.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

Status validate(const LedgerEntry& entry) {
  if (entry.mechanism.empty())
    return Error{ErrorKind::InvalidPrivacy, "mechanism must be named", {}, 0, "mechanism"};
  if (auto ok = requireNonNegative("epsilon", entry.epsilon); !ok) return ok.error();
  if (!(entry.delta >= 0 && entry.delta < 1)) return invalidParameter("delta", "in [0, 1)", entry.delta);
  if (const auto& b = entry.inferenceBudget; b && !(b->id != 0 && b->budget >= 1 && b->answers >= 0 && b->before >= 0))
    return Error{ErrorKind::InvalidPrivacy, "an inference budget needs an id, B >= 1 and answer counts >= 0", {}, 0,
                 "budget"};
  return Ok{};
}

std::optional<std::size_t> findBudget(const std::vector<LedgerEntry>& entries, std::uint64_t budgetId) {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].inferenceBudget && entries[i].inferenceBudget->id == budgetId) return i;
  return std::nullopt;
}

// The session's own count of a budget (one entry per budget) within B, or the refusal.
Status withinBudget(const LedgerEntry& entry, long long adding) {
  const InferenceBudgetUse& b = *entry.inferenceBudget;
  if (b.counted() <= b.budget) return Ok{};
  return budgetSpentError(b.budget, b.counted() - adding, adding, "this session");
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
  std::optional<std::size_t> sameBudget;
  Observer observer;
  {
    std::lock_guard lock(mutex_);
    if (entry.inferenceBudget) sameBudget = findBudget(entries_, entry.inferenceBudget->id);
    entry.index = entries_.size();
    if (entry.session.empty()) entry.session = session_;
    session = entries_;
    observer = observer_;  // a copy: called after the lock is released
  }
  // The same budget again in this session: its release is on the record; its count grows.
  if (sameBudget) return addAnswers(*sameBudget, entry.inferenceBudget->answers);
  if (entry.inferenceBudget)
    if (auto ok = withinBudget(entry, entry.inferenceBudget->counted()); !ok) return ok.error();
  if (entry.time == std::chrono::system_clock::time_point{})
    entry.time = std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  if (entry.id.empty()) entry.id = newLedgerEntryId();
  session.push_back(std::move(entry));
  auto kept = keep(std::move(session));
  if (!kept) return kept.error();
  LedgerEntry stored;
  {
    std::lock_guard lock(mutex_);
    entries_ = std::move(kept).value();
    stored = entries_.back();
  }
  if (observer) observer(Change::Recorded, stored);
  return stored;
}

// Under changeMutex_.
Result<LedgerEntry> PrivacyLedger::addAnswers(std::size_t at, long long answers) {
  std::vector<LedgerEntry> session;
  Observer observer;
  {
    std::lock_guard lock(mutex_);
    session = entries_;
    observer = observer_;
  }
  if (answers == 0) return session[at];
  session[at].inferenceBudget->answers += answers;
  if (auto ok = withinBudget(session[at], answers); !ok) return ok.error();
  auto kept = keep(std::move(session));
  if (!kept) return kept.error();  // nothing changes: the answers must not be given
  LedgerEntry changed;
  {
    std::lock_guard lock(mutex_);
    entries_ = std::move(kept).value();
    changed = entries_[at];
  }
  if (observer) observer(Change::Updated, changed);
  return changed;
}

// Under changeMutex_.
Result<std::vector<LedgerEntry>> PrivacyLedger::keep(std::vector<LedgerEntry> session) {
  if (!keeper_) return session;
  auto ledger = keeper_(session);
  if (!ledger) return ledger.error();
  // Each entry as the kept ledger holds it (its index is the session's own).
  for (LedgerEntry& mine : session) {
    const auto it = std::find_if(ledger.value().begin(), ledger.value().end(),
                                 [&mine](const LedgerEntry& e) { return e.id == mine.id; });
    if (it == ledger.value().end()) continue;
    const std::size_t index = mine.index;
    mine = *it;
    mine.index = index;
  }
  return session;
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
