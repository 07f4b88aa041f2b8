#pragma once
// The ledger file's format (docs/formats/ledger-format.md), version 2: one JSON object
//
//   {"format": "dpstudio-ledger", "version": 2, "written_by": "dpstudio 0.1.0",
//    "entries": [{"id", "session", "index", "time", "mechanism", "epsilon", "delta",
//                 "dataset": {"name", "path"}, "note",
//                 "inference_budget": null or {"id", "budget", "answers", "before", "opens"}}],
//    "total": {...}, "datasets": [...], "budgets": [{"id", "budget", "used", "remaining", "entries"}]}
//
// "total", "datasets" and "budgets" are the running totals (ledger_totals.h), written for
// people and scripts that read the file; they are derived, so a reader recomputes them and
// ignores what the file says. Every entry field is written and read back exactly: ε and δ at
// full precision, the time in ISO 8601 UTC with milliseconds, a budget id (64 bits) as a
// decimal string because JSON numbers are doubles.
//
// Version 1 (one entry per budget, its "used" the largest count any session reported) is
// read: each budget's entry as its opening with "used" as its answers. Files are written as
// version 2, which a dpstudio that reads version 1 only refuses rather than mis-merges.

#include <QByteArray>
#include <QJsonObject>

#include <string>
#include <variant>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/privacy/ledger_totals.h"

namespace dpstudio::privacy {

inline constexpr const char* kLedgerFormat = "dpstudio-ledger";
inline constexpr int kLedgerVersion = 2;

QByteArray ledgerToJson(const std::vector<LedgerEntry>& entries);

// One entry as the file writes it, and one dataset's total as its "datasets" list does: for
// front ends that print what they recorded (`dpstudio-cli train --ledger … --json`).
QJsonObject ledgerEntryToJson(const LedgerEntry& entry);
QJsonObject datasetTotalToJson(const DatasetTotal& total);
// The count of one budget over the entries, as the file's "budgets" list writes it: {"id",
// "budget", "used" (budgetAnswers), "remaining", "entries"}.
QJsonObject budgetTotalToJson(const std::vector<LedgerEntry>& entries, std::uint64_t budgetId);

struct LedgerParseError {
  // NewerVersion: a well-formed file of a later version, to be left as it is (a newer
  // dpstudio wrote it). Corrupt: anything else that is not a version-1 or version-2 ledger.
  enum class Kind { Corrupt, NewerVersion } kind = Kind::Corrupt;
  std::string message;  // what is wrong and where: "entry 3: epsilon must be a finite number >= 0"
};

// The entries of a ledger file, or what is wrong with it. Every entry is checked as the
// ledger checks what it records (ε finite ≥ 0, δ in [0, 1), a named mechanism, a budget with
// B ≥ 1 and answer counts ≥ 0 that one entry keeps within B), and ids must be unique.
std::variant<std::vector<LedgerEntry>, LedgerParseError> ledgerFromJson(const QByteArray& bytes);

}  // namespace dpstudio::privacy
