#pragma once
// Adjacent datasets for the audit (ALGORITHMS §3 J): D, and D' = D with one row replaced by
// a canary chosen to move the mechanism's output as much as possible.
//
// Canary choice on data, output perturbation and prediction sensitivity: data_canary.h
// (the test points searched too; the pair retrained). Subsample-and-aggregate:
// vote_canary.h. Any other mechanism (and LMGC): train the noise-free model θ on D; the
// candidates are the unit vectors (the norm bound, ‖x‖ = 1) along ± each column of θ (θ seen
// as d × m) and ± the first min(d, 8) coordinate axes, with every label; the replaced row is
// one of the allowed rows of D. The pair (canary, replaced row) maximizing ‖∇ℓ(canary) −
// ∇ℓ(row)‖ at θ wins — to first order the minimizer moves by H⁻¹ of that difference over n,
// so this is "a far point with the label the model gets most wrong". For multiparty
// aggregation the replaced row is in the smallest party (whose model moves the average most).
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

// D is the user's (preprocessed, ‖x‖ ≤ 1) training data; the canary is chosen against it.
// Output perturbation and prediction sensitivity search the pair and the query among the
// test points too (data_canary.h); subsample-and-aggregate searches the vote (vote_canary.h).
// An experiment on the user's data: nothing is released or charged to a ledger.
Result<AuditProblem> auditProblemFromData(const AuditOptions& options, const Dataset& D,
                                          const Dataset& testPoints = Dataset{});

}  // namespace dpstudio::audit
