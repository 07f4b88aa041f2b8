#pragma once
// What `train`'s private-prediction and multiparty outputs share: the run's wall time, the
// guarantee of what was printed, and the JSON fields every release has.

#include <QJsonObject>

#include <chrono>

#include "app/cli/cli_common.h"
#include "core/bundle/bundle_export.h"
#include "core/experiment/privacy_plan.h"
#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::cli {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start);

// The guarantee of what this run printed: the answers given now drew from `noise` (a
// predictor's later answers draw their own, which the bundle's context says).
bundle::GuaranteeScope printedScope(const mech::MechanismReport& report, const experiment::PrivacyPlan& plan,
                                    const PreparedData& data, const privacy::NoiseSource& noise);

// private, the guarantee, model, mechanism, ε and δ, the data's shape and preprocessing, the report.
QJsonObject releaseJson(const mech::MechanismReport& report, const PreparedData& data, double seconds,
                        const bundle::GuaranteeScope& scope);

}  // namespace dpstudio::cli
