#pragma once
// ALGORITHMS §0 for the prediction mechanisms (F, G, I), as for training: every row must
// satisfy ‖x‖ ≤ 1, which a public norm bound enforces.

#include "core/data/dataset.h"
#include "core/util/result.h"

namespace dpstudio::predict {

// ‖x_i‖ ≤ 1 for every row (rounding allowance 1e-9), else an InvalidPrivacy error asking for
// a public norm bound (the mechanisms never rescale by a data-derived factor).
Status requireUnitRows(const Dataset& data);

}  // namespace dpstudio::predict
