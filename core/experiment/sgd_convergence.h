#pragma once
// Whether DP-SGD's settings converge, apart from its noise (issue 32 item 3): the same steps,
// Poisson batches and clipping with σ = 0, on the same training rows, scored on the test part
// beside the non-private (L-BFGS) model. A private DP-SGD result far below the non-private
// one is either the price of the noise or settings that underfit even without it (too few
// steps, too small a step); only this run tells them apart. It reads the private rows and is
// an experiment diagnostic: NOT private, never released, not charged to any ledger.

#include <optional>
#include <string>

#include "core/data/dataset.h"
#include "core/experiment/privacy_plan.h"
#include "core/mechanisms/mechanism.h"
#include "core/util/progress.h"

namespace dpstudio::experiment {

// The test accuracy of DP-SGD run with `options` but σ = 0 (batches drawn from a fixed
// experiment seed, so the diagnostic is repeatable); none for another mechanism, without
// test rows, or when the run fails (cancelled included).
std::optional<double> noiseFreeSgdAccuracy(const mech::MechanismOptions& options, const Dataset& train,
                                           const Dataset& test, const Progress& progress = {});

// The same for a plan, where the diagnostic applies: DP-SGD (tuned or not, not chosen by a
// selection) that adds noise; none for any other plan. The CLI's train and the GUI's run
// call this one.
std::optional<double> noiseFreeSgdAccuracy(const PrivacyPlan& plan, const Dataset& train, const Dataset& test,
                                           const Progress& progress = {});
// Whether that diagnostic applies to `plan` (so that a caller can share out its progress).
bool hasNoiseFreeSgdDiagnostic(const PrivacyPlan& plan);

// The gap, in accuracy, from which noise-free DP-SGD counts as not converged. Smaller gaps
// are normal — a few hundred SGD steps do not reach L-BFGS's minimizer of a weakly
// regularized objective (digits: 0.909 against 0.971 at the defaults), and at a fixed ε more
// steps also mean more noise per step — and are shown as the number, not a warning.
inline constexpr double kUnderfitGap = 0.10;

// "DP-SGD's settings underfit even without noise: …", when the noise-free run scores more
// than kUnderfitGap below the non-private model; none otherwise.
std::optional<std::string> sgdUnderfitsWarning(double noiseFreeAccuracy, double nonPrivateAccuracy);

}  // namespace dpstudio::experiment
