#pragma once
// Training to the exact minimizer that a sensitivity bound needs (ALGORITHMS §3 A): the
// bound Δ = 2K/(nλ) is for the minimizer itself, so the optimizer must reach a gradient norm
// of at most 1e-9·(1 + ‖θ‖) and a run that stops short releases nothing. Shared by
// prediction sensitivity (F) and multiparty aggregation (I).

#include "core/learn/learner.h"

namespace dpstudio::predict {

// The caller's control with the tolerance tightened to 1e-9 and at least 20 000 iterations.
TrainControl exactControl(const TrainControl& control);

// Ok when summary.gradientNorm ≤ 1e-9·(1 + ‖theta‖); otherwise an Internal error that says
// nothing was released and why ("the optimizer stopped at gradient norm …").
Status requireExactMinimizer(const OptimizeSummary& summary, const Eigen::VectorXd& theta);

// ‖x_i‖ ≤ 1 for every row (rounding allowance 1e-9), else an InvalidPrivacy error asking for
// a public norm bound (the mechanisms never rescale by a data-derived factor).
Status requireUnitRows(const Dataset& data);

}  // namespace dpstudio::predict
