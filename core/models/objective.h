#pragma once
// The objectives the learners and the privacy mechanisms minimize, all of one form:
//
//   J(θ) = w·Σ_i ℓ(θ; x_i, y_i) + (q/2)·‖θ‖² + cᵀθ,   θ in the model's feasible set,
//
// with w = 1 on the sum scale and w = 1/n on the mean scale (docs/algorithms.md §0.3). The ℓ2
// regularizer (q = λ), objective/loss perturbation (c = b/n or B, extra q = Δ or ρ) and
// LMGC's trace regularizer (linear in Φ: part of c) are all instances.

#include <Eigen/Core>

#include "core/models/model.h"

namespace dpstudio {

enum class LossScale { Sum, Mean };

struct ObjectiveTerms {
  LossScale scale = LossScale::Mean;
  double quadratic = 0;    // q ≥ 0
  Eigen::VectorXd linear;  // c; empty means zero
};

class Objective {
 public:
  // Keeps references to model, X and y: they must outlive the objective.
  Objective(const Model& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
            ObjectiveTerms terms);
  // The same on rows already in the learners' layout (FeatureMatrix::withSparseIfWorthIt),
  // prepared once by a caller that fits many objectives on the same X.
  Objective(const Model& model, FeatureMatrix rows, const Eigen::VectorXi& y, ObjectiveTerms terms);

  // J(θ); overwrites grad with ∇J(θ).
  double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const;
  double value(const Eigen::VectorXd& theta) const;

  const Model& model() const { return model_; }
  double lossWeight() const { return weight_; }
  const ObjectiveTerms& terms() const { return terms_; }

 private:
  const Model& model_;
  FeatureMatrix rows_;  // the dense rows, plus a sparse copy when most entries are zero
  const Eigen::VectorXi& y_;
  ObjectiveTerms terms_;
  double weight_;
};

}  // namespace dpstudio
