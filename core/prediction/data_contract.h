#pragma once
// docs/algorithms.md §0.2 for the prediction mechanisms (F, I), as for training: every row must
// satisfy ‖x‖ ≤ 1, which a public norm bound enforces.

#include "core/data/dataset.h"
#include "core/mechanisms/mechanism_internal.h"
#include "core/util/result.h"

namespace dpstudio::predict {

// The rows F and I train on: an InvalidPrivacy error asking for a public norm bound when a
// row has ‖x‖ > 1 + 1e-9 (the mechanisms never rescale by a data-derived factor); rows
// within that rounding allowance are clipped to ‖x‖ ≤ 1 exactly (mech::detail::unitBallRows),
// so that the calibrated Δ holds.
Result<mech::detail::UnitBallRows> unitRows(const Dataset& data);

}  // namespace dpstudio::predict
