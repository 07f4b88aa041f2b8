#pragma once
// What a sweep trial measures besides test accuracy, so that a chart can draw the published
// bounds of docs/algorithms.md §4 (theory_bounds.h) beside what they bound: the excess risk of the
// released model over the non-private minimizer θ* of the same objective, on the training
// rows and on the test rows, and, for multiparty, the distance of the parties' noiseless
// average to the all-data minimizer. Measured only for the series a bound applies to, and
// only when a sweep asks (SweepControl::measureBoundedQuantities): each costs two passes
// over the training rows and two over the test rows.
//
// Like every sweep number these are measured on the private rows: experiment diagnostics,
// NOT private, never part of a release.

#include <limits>

#include <Eigen/Core>

#include "core/experiment/theory_bounds.h"
#include "core/learn/learner.h"

namespace dpstudio::experiment {

struct TrialMeasures {
  BoundShape shape;  // the trial's training part (n, d, C): what its bounds are evaluated for
  double distance = std::numeric_limits<double>::quiet_NaN();         // ‖ŵ − w*‖ (multiparty)
  double empiricalExcess = std::numeric_limits<double>::quiet_NaN();  // J(θ) − J(θ*), training rows
  double trueExcess = std::numeric_limits<double>::quiet_NaN();       // the same risk on the test rows

  double value(BoundedQuantity quantity) const;  // NaN when not measured
};

// J of `learner` at θ on `data`, the objective θ* minimizes (core/learn/learner.h): LMGC
// Σℓ + λ(Σ tr Ψ_c + ½‖Φ‖²) on the sum scale, the binary linear models (1/n)Σℓ + (λ/2)‖θ‖²
// (multiparty's local learner has λ = 2λ_paper, so this is paper 004's (1/n)Σℓ + λ‖w‖²).
// One-vs-rest and softmax are not needed by any bound: NaN.
double learnerObjective(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& theta,
                        const Dataset& data);

// The risk whose expectation a "true excess risk" theorem bounds, on `data` (the test rows):
// LMGC the mean loss (paper 000's L̃, no regularizer); a binary linear learner the mean loss
// plus (λ/2)‖θ‖² (paper 004's J̃). NaN for other models or data without rows.
double heldOutRisk(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& theta, const Dataset& data);

// The excess risks of `released` over `reference` (θ*), both parameters of `model`.
TrialMeasures measureExcessRisk(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& released,
                                const Eigen::VectorXd& reference, const Dataset& train, const Dataset& test);

}  // namespace dpstudio::experiment
