#pragma once
// `train --out FILE.dpmodel`: the run exported as a model bundle (core/bundle), the same for
// training mechanisms, private predictors and multiparty releases.

#include <optional>

#include "app/cli/cli_common.h"
#include "core/experiment/plan_run.h"

namespace dpstudio::cli {

// --out FILE.dpmodel
void addBundleOutputOption(QCommandLineParser& parser);

// Writes the bundle when --out was given (atomically) and returns its path; nullopt without
// --out. A private predictor's bundle records the answers it has given so far.
Result<std::optional<QString>> writeRunBundle(const Command& command, const experiment::PrivacyPlan& plan,
                                              const experiment::PlanRun& run, const PreparedData& data,
                                              const privacy::NoiseProvenance& noise);

// The "bundle" key of train's JSON (the path, or null) and its text line.
void reportBundle(const std::optional<QString>& path, QJsonObject* json);

}  // namespace dpstudio::cli
