#pragma once
// The ledger across sessions (docs/formats/ledger-format.md): how entries from several sessions and
// processes are merged into one record, and the running totals per dataset by basic
// composition (docs/algorithms.md §1.3). Plain values; the ledger file (ledger_file.h), the CLI and the
// Ledger view all use these, so that they cannot disagree.

#include <cstddef>
#include <string>
#include <vector>

#include "core/privacy/composition.h"
#include "core/privacy/ledger.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

// Adds `entry` to `entries` by the one merge rule:
//  - an entry with the same id is the same release: for an inference budget, its count of
//    answers is raised to the larger of the two (a session's count only grows), nothing else
//    changes;
//  - an entry of an inference budget that an entry of `entries` opens (another session, or a
//    copy of the bundle, answering again) is appended as that session's answers: opens =
//    false, before = 0, ε = δ = 0 (the opening holds the (ε, δ) of all B answers), and the
//    opening's dataset path and name where it has none (a bundle never names its data);
//  - any other entry is appended as it is.
// Returns whether `entries` changed. Merging the same entry twice changes nothing the second
// time, so a writer may send its whole session again after a failed write.
bool mergeLedgerEntry(std::vector<LedgerEntry>& entries, const LedgerEntry& entry);

// The answers a ledger counts for the budget `budgetId`: Σ counted() over its entries — every
// session, every copy of the predictor's bundle.
long long budgetAnswers(const std::vector<LedgerEntry>& entries, std::uint64_t budgetId);

// ErrorKind::InvalidPrivacy, field "budget": "inference budget spent: <where> counts N of the B
// answers …; M more refused".
Error budgetSpentError(long long budget, long long counted, long long requested, const std::string& where);

// Merges every entry of `incoming` (mergeLedgerEntry) or none: refused (budgetSpentError, "the
// privacy ledger") when the count of a budget it raises would exceed B. Returns whether
// `entries` changed.
Result<bool> mergeLedgerEntries(std::vector<LedgerEntry>& entries, const std::vector<LedgerEntry>& incoming);

// (Σε, Σδ) over the entries. A δ total ≥ 1 means the composed guarantee is void.
PrivacyCost ledgerTotal(const std::vector<LedgerEntry>& entries);

// What one dataset has spent.
struct DatasetTotal {
  std::vector<std::string> names;  // the user's names for it, sorted; usually one or none
  std::vector<std::string> paths;  // its identities (datasetIdentity()), sorted; none if unknown
  PrivacyCost cost;
  std::size_t releases = 0;
};

// The totals per dataset. Entries are one dataset when they share a path or a user's name,
// transitively: /data/a.csv named "clinic" and its copy /backup/a.csv named "clinic" add up,
// and an unnamed entry of /data/a.csv joins them. Without a data hash (which would be
// derived from the private data) this is all that can link a copy; the grouping can only
// join, so a total is never split across two lines. Entries with neither path nor name
// form one dataset, "unknown". Datasets are in the order of their first entry.
std::vector<DatasetTotal> datasetTotals(const std::vector<LedgerEntry>& entries);

// The total (of datasetTotals() over entries that include `entry`) that counts `entry`; null
// when none does.
const DatasetTotal* totalOf(const std::vector<DatasetTotal>& totals, const LedgerEntry& entry);

}  // namespace dpstudio::privacy
