#pragma once
// An audit result as JSON, with the keys `dpstudio-cli audit --json` prints (SPEC: mechanism,
// epsilon, delta, epsilon_lower, violation, trials; and calibration, confidence,
// epsilon_lower_uncorrected, statistic, problem, decision, curve, seconds, seed, warning), so a
// result saved from the GUI reads like one from the CLI.

#include <QJsonObject>
#include <QString>

#include <cstdint>

#include "core/audit/audit.h"

namespace dpstudio::ui {

QJsonObject auditResultJson(const audit::AuditResult& result, std::uint64_t seed);

// Writes auditResultJson() atomically (indented); false with *error set (naming the path).
bool writeAuditResultJson(const audit::AuditResult& result, std::uint64_t seed, const QString& path,
                          QString* error = nullptr);

}  // namespace dpstudio::ui
