#pragma once
// The audit's view of each mechanism (internal to core/audit): the mechanism prepared once
// on D and once on D' — its noise-free part computed — and a run that draws the mechanism's
// noise and reduces the release to the audit statistic (audit.h says which, per mechanism).

#include <functional>
#include <string>

#include "core/audit/audit.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::audit::detail {

// One full run of the mechanism on one dataset, reduced to the statistic. Called
// concurrently from worker threads, each with its own source: must only read shared state.
using Run = std::function<Result<double>(privacy::NoiseSource& noise)>;

struct PreparedAudit {
  Run onD;
  Run onDprime;
  std::string statistic;  // what the scalar is
  double epsilon = 0;     // the claim audited
  double delta = 0;
  std::optional<mech::Calibration> calibration;
  std::string warning;    // the mechanism's own "as published" warning
};

Result<PreparedAudit> prepareTraining(const AuditOptions& options, const AuditProblem& problem);
Result<PreparedAudit> preparePrediction(const AuditOptions& options, const AuditProblem& problem);
Result<PreparedAudit> prepareMultiparty(const AuditOptions& options, const AuditProblem& problem);

}  // namespace dpstudio::audit::detail
