#pragma once
// What the audit (docs/algorithms.md §3 J) of a plan audits: the one mapping from a PrivacyPlan to
// core's audit::AuditOptions, used by `dpstudio-cli audit` and the GUI's Audit view alike.
// The audit sits below the experiment layer and knows mechanisms, not plans.

#include <cstdint>

#include "core/audit/audit.h"
#include "core/experiment/privacy_plan.h"

namespace dpstudio::experiment {

// A non-private plan has nothing to audit, and private λ tuning (§3 H) is not audited: both
// are errors naming the mechanism.
Result<audit::AuditOptions> auditOptionsFor(const PrivacyPlan& plan, long long trials, std::uint64_t seed);

}  // namespace dpstudio::experiment
