#pragma once
// Saving an audit result from the Audit view: the JSON `dpstudio-cli audit --json` prints
// (core/audit/audit_json.h), so a result saved from the GUI reads like one from the CLI.

#include <QString>

#include <cstdint>

#include "core/audit/audit.h"

namespace dpstudio::ui {

// Writes audit::auditResultJson() atomically (indented); false with *error set (naming the path).
bool writeAuditResultJson(const audit::AuditResult& result, std::uint64_t seed, const QString& path,
                          QString* error = nullptr);

}  // namespace dpstudio::ui
