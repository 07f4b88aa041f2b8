#pragma once
// The interface every learner offers to optimizers and privacy mechanisms. A model is a
// parameterization plus a per-example loss; the trained parameters live outside it, as
// one flat vector θ, so that a mechanism can perturb θ without knowing the model.
//
// Conventions (docs/algorithms.md §0, §2): rows x satisfy ‖x‖₂ ≤ 1 wherever privacy constants are
// used; labels are class indices 0..C−1; scores are "larger is more likely", so the
// prediction is the row-wise argmax of scores() for every model.
//
// Thread-safety: const member functions may be called concurrently; a model holds no
// mutable state.

#include <memory>
#include <string>

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/models/feature_matrix.h"

namespace dpstudio {

enum class ModelKind { LogisticRegression, HuberSvm, Softmax, Lmgc };

std::string modelKindName(ModelKind kind);  // "logreg", "huber", "softmax", "lmgc"
// For people (ledger entries, reports): "Logistic regression", "Huber SVM",
// "Softmax regression", "LMGC".
std::string modelLongName(ModelKind kind);

// The constants a privacy calibration needs, for rows with ‖x‖ ≤ 1 (docs/algorithms.md §2.1).
struct ModelConstants {
  double gradientBound = 0;  // K: ‖∇_θ ℓ(θ; x, y)‖ ≤ K
  double hessianBound = 0;   // L: largest eigenvalue of ℓ's Hessian in the scores ≤ L
  Index hessianRank = 0;     // r: rank of that Hessian ≤ r
};

class Model {
 public:
  virtual ~Model() = default;

  virtual ModelKind kind() const = 0;
  Index inputDim() const { return inputDim_; }
  Index classes() const { return classes_; }
  virtual Index parameterCount() const = 0;

  // Σ_i ℓ(θ; x_i, y_i) over the rows of X (sum scale). If grad is non-null it is resized to
  // parameterCount() and overwritten with the gradient of that sum.
  virtual double lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                         const Eigen::VectorXi& y, Eigen::VectorXd* grad) const = 0;

  // The same sum on rows that may carry a sparse copy (FeatureMatrix). Models whose
  // products gain from sparse rows (the linear ones) override it; the default uses the
  // dense rows. Objectives call this one.
  virtual double lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& rows,
                               const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
    return lossSum(theta, rows.dense(), y, grad);
  }

  // n × parameterCount(): row i is ∇_θ ℓ(θ; x_i, y_i). For DP-SGD on mini-batches.
  virtual Eigen::MatrixXd perExampleGradients(const Eigen::VectorXd& theta,
                                              const Eigen::MatrixXd& X,
                                              const Eigen::VectorXi& y) const = 0;

  // What DP-SGD needs of the per-example gradients: ‖∇_θ ℓ(θ; x_i, y_i)‖ for each row, and
  // Σ_i a_i ∇_θ ℓ(θ; x_i, y_i) (a_i = min(1, ν/‖∇ℓ_i‖) clips them). The defaults form the
  // n × parameterCount() matrix above; models whose per-example gradients factor compute both
  // without it (linear models: x_i ⊗ r_i, so the norm is ‖x_i‖·‖r_i‖ and the sum one product;
  // LMGC) — on MNIST's softmax a batch's matrix is 16 MB, written and read every step.
  virtual Eigen::VectorXd perExampleGradientNorms(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                  const Eigen::VectorXi& y) const;
  virtual Eigen::VectorXd weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                              const Eigen::VectorXi& y, const Eigen::VectorXd& rowWeights) const;
  // DP-SGD's step: Σ_i min(1, ν/‖∇ℓ_i‖)·∇ℓ_i, each gradient clipped to norm ν = `clip` — the two
  // above with those weights. The linear models and LMGC evaluate the rows once for both (on
  // MNIST's softmax a third of a step's products went to evaluating them twice).
  virtual Eigen::VectorXd clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                             const Eigen::VectorXi& y, double clip) const;
  // The clipping weights min(1, ν/‖g_i‖) of gradients with norms `norms`.
  static Eigen::VectorXd clipWeights(const Eigen::VectorXd& norms, double clip) {
    return (clip / norms.array().max(clip)).matrix();
  }

  // n × C class scores, larger = more likely.
  virtual Eigen::MatrixXd scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const = 0;
  Eigen::VectorXi predict(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const;

  virtual ModelConstants constants() const = 0;

  // The degree of the scores as polynomials in x (1: linear, 2: quadratic), or 0 when
  // they are not polynomials of degree ≤ 2. Lets views restrict a model to a plane exactly.
  virtual int scoreDegree() const { return 0; }

  // The feasible set: everything, unless overridden (LMGC: each Φ_c ⪰ 0). project() maps θ
  // to the nearest feasible point (Euclidean); isConstrained() says whether it ever moves θ.
  virtual bool isConstrained() const { return false; }
  virtual void project(Eigen::VectorXd& /*theta*/) const {}

  // The starting point of an optimization when no warm start is given.
  virtual Eigen::VectorXd initialParameters(const Eigen::MatrixXd& X, const Eigen::VectorXi& y) const;

 protected:
  Model(Index inputDim, Index classes) : inputDim_(inputDim), classes_(classes) {}

 private:
  Index inputDim_;
  Index classes_;
};

// Fraction of rows whose predicted class equals the label.
double accuracy(const Model& model, const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                const Eigen::VectorXi& y);

}  // namespace dpstudio
