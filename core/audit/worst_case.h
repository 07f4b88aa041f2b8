#pragma once
// The audit's worst cases (docs/algorithms.md §3 J (a)): adjacent datasets on which one substitution
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
//  - Loss perturbation on a binary linear model (docs/algorithms.md §3 C): the same row (x = 1,
//    label 1) with one companion at the origin (n = 2, so nλ ≪ ρ). Its noise-free objective
//    is J(θ) = ℓ(yθ) + (A/2)θ², A = nλ + ρ, and an output θ is explained by the noise
//    b(θ) = −J'(θ). For the Huber SVM on (1 − h, 1 + h) D's row is on the quadratic part
//    (ℓ'' = 1/(2h) = L) while D''s flipped row is linear: b_D − b_D' = 2 = 2K up to the
//    knot, and the Jacobian ratio is 1 + L/A ≈ 1 + ε/2, both at once. The privacy loss peaks
//    where b_D(θ) = 0, θ₀ = (1+h)/(1+2hA), at β(1 + Aθ₀) + log(1 + 1/(2hA)): with ε = 1,
//    h = ½, λ = 10⁻² it is 0.90 for the correct calibration (β = ε/4, ρ = 1/(hε); θ₀ falls
//    on the knot 1 − h, where the proof's bound ε/2 + log(1 + ε/2) = 0.905 is all but
//    reached), and 1.56 for the factor-2 double (β = ε/2, ρ = 1/(2hε): 0.88 from the noise,
//    0.68 from the Jacobian) — more than the ε it claims.
//    Logistic regression reaches less: |ℓ'| = 1 and ℓ'' = ¼ never meet.
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
