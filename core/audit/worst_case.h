#pragma once
// The audit's worst cases (ALGORITHMS §3 J (a)): adjacent datasets on which one substitution
// moves the release as far as the calibration allows, built in one dimension, where the
// ℓ2-Laplace privacy loss reaches its maximum on half of the draws (in m dimensions it
// rarely nears it).
//
//  - One decisive row, for the binary linear models (logistic regression, Huber SVM) and the
//    mechanisms that release or answer from their minimizer: every row but one is at the
//    origin, where a linear model without intercept has zero loss gradient, so θ* is set by
//    the one row (x = 1, label 1); D' flips its label. For the Huber SVM with 1/(nλ) ≤ 1 − h
//    both rows sit on the linear part of the loss (|ℓ'| = 1), so θ* = ±1/(nλ) moves by
//    exactly Δ = 2/(nλ); for logistic regression |ℓ'| ≈ 1/2 near θ = 0 and θ* moves by about
//    Δ/2 — no row of a logistic model moves it by the full Δ, which the calibration
//    nevertheless covers.
//  - A vote split, for subsample-and-aggregate: k of the T teachers vote 0 at the query,
//    T − k vote 1, and the canary flips one teacher from 0 to 1. The likelihood ratio of one
//    answer approaches e^{2β} as the vote grows lopsided, but the rare answer then becomes
//    too rare to observe in N runs; k is chosen to maximize the bound N runs can certify.

#include <cstdint>

#include "core/audit/audit.h"

namespace dpstudio::audit {

// D and D' = D with row `row` replaced by (canary, label); the query is the canary.
AuditProblem withCanary(const Dataset& D, Index row, const Eigen::VectorXd& canary, int label,
                        std::string description);

// Rows of the one-decisive-row problem for λ and Huber h: ⌈1.25·reach/(λ(1 − h))⌉ within
// [40, 200 000], so that the released θ stays on the linear part of the loss. reach = 1 where
// noise is added to θ* (output perturbation, prediction sensitivity); objective perturbation's
// θ itself moves with the noise b ~ ℓ2-Laplace(ε'/2), and reach = 1 + 6/ε keeps it there for
// all but a few draws. At the cap (very small λ) θ leaves the linear part more often, and
// the bound the audit reaches is lower.
Index decisiveRowCount(double lambda, double huber, double reach = 1.0);

// n rows in d = 1; the decisive row is `row` (the others at the origin, labels alternating).
// The query (prediction mechanisms) is x = 1.
AuditProblem oneDecisiveRow(Index n, Index row, const std::string& why);

// The ε that the single-answer test "answer = target → D'" certifies at its expected counts
// with `certifyRuns` held-out runs, for answers drawn ∝ exp(β·votes) from the vote counts on
// D and on D' (either orientation of the test; −∞ when nothing can be certified).
double certifiableEpsilon(const Eigen::VectorXi& votesD, const Eigen::VectorXi& votesDprime, Index target, double beta,
                          long long certifyRuns);

// The split k (teachers voting 0 on D, 1 ≤ k ≤ T) whose single-answer test certifies the
// largest ε with `certifyRuns` held-out runs, for answers drawn ∝ exp(β·votes).
Index bestVoteSplit(Index teachers, double beta, long long certifyRuns);

// 3T rows in d = 2 cut by the predictor's own partition (equalRandomParts with
// partitionSeed): the parts of the first k teachers hold x = e₁ with label 0, the others
// x = e₂ with label 1; at the query (0.2, 0.98)/‖·‖ they vote 0 and 1. D' replaces one row
// of teacher 1 by the canary (e₂, label 1), which turns its vote to 1.
AuditProblem voteSplit(Index teachers, Index zeroVotes, std::uint64_t partitionSeed);

}  // namespace dpstudio::audit
