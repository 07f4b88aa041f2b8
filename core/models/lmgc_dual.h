#pragma once
// A certificate of optimality for LMGC's training problem: a lower bound on its minimum by
// Lagrangian duality, so that "J(Φ) is within r of the minimum" can be checked without
// trusting any solver (tests, bench/bench_lmgc).
//
// The problem (lmgc.h): minimize J(Φ) = w·Σ_p H_h(m_p(Φ)) + ⟨c, Φ⟩ + (q/2)‖Φ‖²_F over every
// Φ_c ⪰ 0, p = (i, c ≠ y_i), m_p = ⟨A_p, Φ⟩ the margins. The Huber hinge is a maximum,
// H_h(m) = max_{α∈[0,1]} α(1 + h − m) − hα², so for every α ∈ [0,1]^pairs
//
//   J* ≥ D(α) = w·Σ_p (α_p(1 + h) − hα_p²) + min_{Φ⪰0} ⟨c − wΣ_p α_pA_p, Φ⟩ + (q/2)‖Φ‖²
//            = w·Σ_p (α_p(1 + h) − hα_p²) − (1/2q)·Σ_c ‖[wΣ_p α_pA_p − c]₊‖²_F
//
// ([·]₊ the PSD part of each class block). With α_p = −H_h'(m_p(Φ)) (the hinge's slope at
// a candidate Φ), D(α) = J* exactly at the minimizer (the KKT conditions), so
// J(Φ) − D(α) ≥ J(Φ) − J* is a computable bound on how far Φ is from optimal in objective.
// Needs q > 0 (otherwise the inner minimum is −∞ unless the bracket is ⪯ 0; returned as −∞).

#include <Eigen/Core>

#include "core/models/lmgc.h"
#include "core/models/objective.h"

namespace dpstudio {

struct LmgcDualityGap {
  double primal = 0;  // J(Φ)
  double dual = 0;    // D(α(Φ)) ≤ J*
  double gap() const { return primal - dual; }
  // (J − D)/max(|J|, tiny): the relative distance of J(Φ) from the minimum, at most.
  double relative() const;
};

// J at theta (feasible: every Φ_c ⪰ 0) and the dual bound from the slopes there. `terms`
// as for Objective (any scale).
LmgcDualityGap lmgcDualityGap(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                              const ObjectiveTerms& terms, const Eigen::VectorXd& theta);

}  // namespace dpstudio
