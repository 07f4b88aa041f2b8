#pragma once
// The options that choose a model and a privacy mechanism, shared by train, calibrate,
// sweep and audit.

#include "app/cli/cli_common.h"
#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::cli {

// --model, --mechanism, --epsilon, --delta, --lambda, --huber, --lambda2, --distribution,
// --calibration, --batch-size, --clip-norm, --epochs, --learning-rate, --noise-multiplier.
void addMechanismOptions(QCommandLineParser& parser);
// --noise experiment|release and --seed S.
void addNoiseOptions(QCommandLineParser& parser);

Result<mech::MechanismOptions> mechanismOptions(const Command& command);

struct NoiseChoice {
  privacy::NoiseKind kind = privacy::NoiseKind::Experiment;
  std::uint64_t seed = 1;
};
Result<NoiseChoice> noiseChoice(const Command& command);

}  // namespace dpstudio::cli
