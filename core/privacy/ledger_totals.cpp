#include "core/privacy/ledger_totals.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

namespace dpstudio::privacy {
namespace {

// Union-find over entry positions.
class Groups {
 public:
  explicit Groups(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }

  std::size_t root(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  // The earlier entry stays the root, so that datasets keep the order of their first entry.
  void join(std::size_t a, std::size_t b) {
    a = root(a);
    b = root(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> parent_;
};

void insertSorted(std::vector<std::string>& into, const std::string& value) {
  if (value.empty()) return;
  auto at = std::lower_bound(into.begin(), into.end(), value);
  if (at == into.end() || *at != value) into.insert(at, value);
}

}  // namespace

bool mergeLedgerEntry(std::vector<LedgerEntry>& entries, const LedgerEntry& entry) {
  const auto same = std::find_if(entries.begin(), entries.end(),
                                 [&entry](const LedgerEntry& e) { return !entry.id.empty() && e.id == entry.id; });
  if (same != entries.end()) {
    if (!same->inferenceBudget || !entry.inferenceBudget) return false;
    InferenceBudgetUse& kept = *same->inferenceBudget;
    if (entry.inferenceBudget->answers <= kept.answers) return false;
    kept.answers = entry.inferenceBudget->answers;
    return true;
  }
  LedgerEntry added = entry;
  if (added.inferenceBudget) {
    const std::uint64_t id = added.inferenceBudget->id;
    const auto opening = std::find_if(entries.begin(), entries.end(), [id](const LedgerEntry& e) {
      return e.inferenceBudget && e.inferenceBudget->id == id && e.inferenceBudget->opens;
    });
    if (opening != entries.end()) {
      added.inferenceBudget->opens = false;
      added.inferenceBudget->before = 0;  // counted where they were given, or never seen
      added.epsilon = 0;
      added.delta = 0;
      if (added.dataset.empty()) added.dataset = opening->dataset;
      if (added.datasetName.empty()) added.datasetName = opening->datasetName;
    }
  }
  entries.push_back(std::move(added));
  return true;
}

long long budgetAnswers(const std::vector<LedgerEntry>& entries, std::uint64_t budgetId) {
  long long sum = 0;
  for (const LedgerEntry& e : entries)
    if (e.inferenceBudget && e.inferenceBudget->id == budgetId) sum += e.inferenceBudget->counted();
  return sum;
}

Error budgetSpentError(long long budget, long long counted, long long requested, const std::string& where) {
  return Error{ErrorKind::InvalidPrivacy,
               "inference budget spent: " + where + " counts " + std::to_string(counted) + " of the " +
                   std::to_string(budget) +
                   " answers this predictor may give under its privacy guarantee (every session, every copy of "
                   "its bundle); " +
                   std::to_string(requested) + " more refused",
               {}, 0, "budget"};
}

Result<bool> mergeLedgerEntries(std::vector<LedgerEntry>& entries, const std::vector<LedgerEntry>& incoming) {
  std::vector<LedgerEntry> merged = entries;
  bool changed = false;
  for (const LedgerEntry& entry : incoming) changed = mergeLedgerEntry(merged, entry) || changed;
  for (const LedgerEntry& entry : incoming) {
    if (!entry.inferenceBudget) continue;
    const std::uint64_t id = entry.inferenceBudget->id;
    const long long was = budgetAnswers(entries, id), now = budgetAnswers(merged, id);
    if (now > was && now > entry.inferenceBudget->budget)
      return budgetSpentError(entry.inferenceBudget->budget, was, now - was, "the privacy ledger");
  }
  entries = std::move(merged);
  return changed;
}

PrivacyCost ledgerTotal(const std::vector<LedgerEntry>& entries) {
  PrivacyCost sum;
  for (const LedgerEntry& e : entries) {
    sum.epsilon += e.epsilon;
    sum.delta += e.delta;
  }
  return sum;
}

std::vector<DatasetTotal> datasetTotals(const std::vector<LedgerEntry>& entries) {
  Groups groups(entries.size());
  std::map<std::string, std::size_t> byPath, byName;
  std::optional<std::size_t> unknown;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LedgerEntry& e = entries[i];
    if (!e.dataset.empty()) {
      if (auto [at, inserted] = byPath.emplace(e.dataset, i); !inserted) groups.join(at->second, i);
    }
    if (!e.datasetName.empty()) {
      if (auto [at, inserted] = byName.emplace(e.datasetName, i); !inserted) groups.join(at->second, i);
    }
    if (e.dataset.empty() && e.datasetName.empty()) {
      if (unknown) groups.join(*unknown, i);
      else unknown = i;
    }
  }
  std::vector<DatasetTotal> totals;
  std::map<std::size_t, std::size_t> slotOfRoot;  // root entry → position in `totals`
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto [at, inserted] = slotOfRoot.emplace(groups.root(i), totals.size());
    if (inserted) totals.emplace_back();
    DatasetTotal& total = totals[at->second];
    const LedgerEntry& e = entries[i];
    insertSorted(total.names, e.datasetName);
    insertSorted(total.paths, e.dataset);
    total.cost.epsilon += e.epsilon;
    total.cost.delta += e.delta;
    ++total.releases;
  }
  return totals;
}

const DatasetTotal* totalOf(const std::vector<DatasetTotal>& totals, const LedgerEntry& entry) {
  auto contains = [](const std::vector<std::string>& sorted, const std::string& value) {
    return !value.empty() && std::binary_search(sorted.begin(), sorted.end(), value);
  };
  for (const DatasetTotal& total : totals) {
    if (contains(total.paths, entry.dataset) || contains(total.names, entry.datasetName)) return &total;
    if (entry.dataset.empty() && entry.datasetName.empty() && total.paths.empty() && total.names.empty())
      return &total;
  }
  return nullptr;
}

}  // namespace dpstudio::privacy
