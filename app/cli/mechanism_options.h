#pragma once
// The options that choose a model and a privacy mechanism, shared by train, calibrate,
// sweep and audit.

#include "app/cli/cli_common.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/selection_settings.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::cli {

// --model, --mechanism, --epsilon, --delta, --lambda, --huber, --lambda2, --distribution,
// --calibration, --batch-size, --clip-norm, --epochs, --learning-rate, --noise-multiplier.
void addMechanismOptions(QCommandLineParser& parser);
// --noise release|experiment (release by default: train, predict and party print releases) and
// --seed S, which only experiment mode takes.
void addNoiseOptions(QCommandLineParser& parser);

Result<mech::MechanismOptions> mechanismOptions(const Command& command);
// The same for the mechanism named here rather than by --mechanism (sweep's --mechanisms).
Result<mech::MechanismOptions> mechanismOptions(const Command& command, const QString& mechanism);

// --tune-lambdas L1,L2,..: private parameter tuning (docs/algorithms.md §3 H) over these λ.
void addTuningOption(QCommandLineParser& parser);
// The candidates, or an empty list when the option is absent. A malformed list is a usage
// error; values that are not finite and > 0 are invalid privacy parameters (exit 4), as
// are --mechanism none and the other checks of TuningOptions::validate().
// forSelection: the λ grid of --mechanism auto, checked by the selection itself.
Result<std::vector<double>> tuneLambdas(const Command& command, const mech::MechanismOptions& base,
                                        bool forSelection = false);
// --selection-runs and --selection-law (--mechanism auto).
Result<mech::SelectionSettings> selectionSettings(const Command& command);

struct NoiseChoice {
  privacy::NoiseKind kind = privacy::NoiseKind::Release;
  std::uint64_t seed = 1;
};
Result<NoiseChoice> noiseChoice(const Command& command);

// The report as text: mechanism, noise source, every derived value with its formula, the
// norms drawn (named ||symbol||) and the "as published" warning.
void printMechanismReport(const mech::MechanismReport& report, const QString& noiseSymbol);

}  // namespace dpstudio::cli
