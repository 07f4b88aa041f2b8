#pragma once
// An audit result as JSON, one form for `dpstudio-cli audit --json` and the Audit view's
// export (docs/cli.md keys: mechanism, epsilon, delta, epsilon_lower, violation, trials; and detectable_epsilon,
// calibration, confidence, epsilon_lower_uncorrected, statistic, problem, decision, curve,
// seconds, seed, warning).

#include <QJsonObject>

#include <cstdint>

#include "core/audit/audit.h"

namespace dpstudio::audit {

// `seed`: the master seed of the runs, written as a string (a 64-bit seed does not survive
// a JSON double).
QJsonObject auditResultJson(const AuditResult& result, std::uint64_t seed);

}  // namespace dpstudio::audit
