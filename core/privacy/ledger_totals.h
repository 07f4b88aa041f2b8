#pragma once
// The ledger across sessions (SPEC "Ledger"): how entries from several sessions and
// processes are merged into one record, and the running totals per dataset by basic
// composition (ALGORITHMS §1). Plain values; the ledger file (ledger_file.h), the CLI and the
// Ledger view all use these, so that they cannot disagree.

#include <cstddef>
#include <string>
#include <vector>

#include "core/privacy/composition.h"
#include "core/privacy/ledger.h"

namespace dpstudio::privacy {

// Adds `entry` to `entries` by the one merge rule: an entry with the same id, or carrying the
// same inference budget (a later answer of that budget, from any session or process), is the
// same release — the count of answers given is raised to the larger of the two (capped at B,
// never lowered) and nothing else changes; any other entry is appended. Returns whether
// `entries` changed. Merging the same entry twice changes nothing the second time, so a
// writer may send its whole session again after a failed write.
bool mergeLedgerEntry(std::vector<LedgerEntry>& entries, const LedgerEntry& entry);

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
