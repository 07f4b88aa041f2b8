#pragma once
// What a run of a training mechanism deserves to be told before it starts, from public
// quantities and its calibration alone, in one place for both front ends (the GUI's
// Mechanism form shows them before Train, `dpstudio-cli train` prints them): a δ that is
// not below 1/n, noise that swamps any model output perturbation can release, a DP-SGD step
// too large to converge. (The calibration's own warning — as published — is the report's
// `warning`, shown with the report.)

#include <string>
#include <vector>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

// `training`: a training mechanism's options (the last two warnings are theirs); null for a
// private predictor or multiparty aggregation, which get the δ warning only.
std::vector<std::string> preRunWarnings(const MechanismReport& calibration, const ProblemShape& shape,
                                        const MechanismOptions* training);

// Private tuning of λ (docs/algorithms.md §3 H) trains each of m candidates on one of m + 1
// equal parts: what one candidate's calibration is for — the first candidate's options and
// one part's shape. Other runs: the options and shape themselves.
struct CalibratedProblem {
  MechanismOptions options;
  ProblemShape shape;
};
CalibratedProblem calibratedProblem(const MechanismOptions& options, const std::vector<double>& tuneLambdas,
                                    const ProblemShape& shape);
// That calibration (release or experiment noise: `noise`). With tuning it carries no exact
// privacy (exact_privacy.h): the release also depends on the choice among the candidates, an
// exponential mechanism, so only its (ε, δ) describes it.
Result<MechanismReport> calibrateProblem(const MechanismOptions& options, const std::vector<double>& tuneLambdas,
                                         const ProblemShape& shape, privacy::NoiseKind noise);

}  // namespace dpstudio::mech
