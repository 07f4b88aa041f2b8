#pragma once
// Adjacent datasets for the audit (docs/algorithms.md §3 J): D, and D' = D with one row replaced by
// a canary chosen to move the mechanism's output as much as possible.
//
// Canary choice (data_canary.h): the candidates are unit vectors (the norm bound, ‖x‖ = 1)
// along ± each column of the noise-free model θ (seen as d × m) and ± the first min(d, 8)
// coordinate axes, and on the user's data the test points too, each with every label; the
// replaced row is one of the allowed rows of D. Output perturbation and prediction
// sensitivity retrain the best pairs and keep the one that moves θ* (or the answer at the best
// query) furthest; subsample-and-aggregate searches the vote (vote_canary.h); every other
// mechanism (and LMGC) takes the pair maximizing ‖∇ℓ(canary) − ∇ℓ(row)‖ at θ — to first
// order the minimizer moves by H⁻¹ of that difference over n, and the noise that explains a
// perturbed objective's output (or a DP-SGD step) by the difference itself: "a far point with
// the label the model gets most wrong". For multiparty aggregation the replaced row is in the
// smallest party (whose model moves the average most).
//
// Built-in problems (no data given): the worst cases of worst_case.h — one decisive row in
// d = 1 for output and objective perturbation and prediction sensitivity on logistic
// regression and the Huber SVM, and for multiparty aggregation (the row in the smallest
// party), for loss perturbation on them (n = 2), and for DP-SGD and loss perturbation on
// two-class softmax (DP-SGD with no more
// rows than its batch, so every step samples the row); a vote split for
// subsample-and-aggregate. Everything else (softmax with more classes, LMGC, DP-LMGC): two
// Gaussian clusters in d = 2 (40 rows) and the canary rule above.

#include "core/audit/audit.h"

namespace dpstudio::audit {

Result<AuditProblem> builtinAuditProblem(const AuditOptions& options);

// D is the user's (preprocessed, ‖x‖ ≤ 1) training data; the canary is chosen against it,
// among the test points too (‖x‖ ≤ 1 as well); subsample-and-aggregate searches the vote
// (vote_canary.h). An experiment on the user's data: nothing is released or charged to a
// ledger, and the description says so.
Result<AuditProblem> auditProblemFromData(const AuditOptions& options, const Dataset& D,
                                          const Dataset& testPoints = Dataset{});

}  // namespace dpstudio::audit
