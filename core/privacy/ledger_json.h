#pragma once
// The ledger file's format (docs/ledger-format.md), version 1: one JSON object
//
//   {"format": "dpstudio-ledger", "version": 1, "written_by": "dpstudio 0.1.0",
//    "entries": [{"id", "session", "index", "time", "mechanism", "epsilon", "delta",
//                 "dataset": {"name", "path"}, "note", "inference_budget"}],
//    "total": {...}, "datasets": [...]}
//
// "total" and "datasets" are the running totals (ledger_totals.h), written for people and
// scripts that read the file; they are derived, so a reader recomputes them and ignores
// what the file says. Every entry field is written and read back exactly: ε and δ at full
// precision, the time in ISO 8601 UTC with milliseconds, a budget id (64 bits) as a decimal
// string because JSON numbers are doubles.

#include <QByteArray>
#include <QJsonObject>

#include <string>
#include <variant>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/privacy/ledger_totals.h"

namespace dpstudio::privacy {

inline constexpr const char* kLedgerFormat = "dpstudio-ledger";
inline constexpr int kLedgerVersion = 1;

QByteArray ledgerToJson(const std::vector<LedgerEntry>& entries);

// One entry as the file writes it, and one dataset's total as its "datasets" list does: for
// front ends that print what they recorded (`dpstudio-cli train --ledger … --json`).
QJsonObject ledgerEntryToJson(const LedgerEntry& entry);
QJsonObject datasetTotalToJson(const DatasetTotal& total);

struct LedgerParseError {
  // NewerVersion: a well-formed file of a later version, to be left as it is (a newer
  // dpstudio wrote it). Corrupt: anything else that is not a version-1 ledger.
  enum class Kind { Corrupt, NewerVersion } kind = Kind::Corrupt;
  std::string message;  // what is wrong and where: "entry 3: epsilon must be a finite number >= 0"
};

// The entries of a ledger file, or what is wrong with it. Every entry is checked as the
// ledger checks what it records (ε finite ≥ 0, δ in [0, 1), a named mechanism, a budget with
// B ≥ 1 and 0 ≤ used ≤ B), and ids must be unique.
std::variant<std::vector<LedgerEntry>, LedgerParseError> ledgerFromJson(const QByteArray& bytes);

}  // namespace dpstudio::privacy
