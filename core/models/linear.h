#pragma once
// Linear models with no separate bias (docs/algorithms.md §2.1: an intercept, when wanted, is an
// appended constant feature). Labels are class indices; binary models map class 1 to
// y = +1 and class 0 to y = −1, one-vs-rest maps "class c" to +1 and the rest to −1.
//
// Parameters: binary θ = w ∈ R^d; one-vs-rest and softmax θ = vec(W), W ∈ R^{d×C}
// column-major (column c scores class c).
//
// Each row's gradient is an outer product, ∇_θ ℓ(θ; x_i, y_i) = vec(x_i r_iᵀ) with r_i the
// row's gradient factors (gradientFactors()): ℓ'(z_i)·y_i for a binary model, one such value
// per class for one-vs-rest, p_i − e_{y_i} for softmax. So DP-SGD's per-example norms are
// ‖x_i‖·‖r_i‖ and its clipped sum is one product Xᵀ diag(a) R.

#include <optional>

#include "core/models/model.h"

namespace dpstudio {

enum class BinaryLoss { Logistic, Huber };

// The per-margin loss ℓ(z), z = y·wᵀx, of a binary linear model.
struct MarginLoss {
  BinaryLoss type = BinaryLoss::Logistic;
  double huber = 0.5;  // h, Huber only

  double value(double z) const;
  double derivative(double z) const;
  double curvatureBound() const;  // c = sup ℓ'': 1/4 (logistic), 1/(2h) (Huber)
  // Σ ℓ(z_i), with ℓ'(z_i) written to `derivatives` (vectorized).
  double evaluate(const Eigen::ArrayXd& z, Eigen::ArrayXd& derivatives) const;
};

// What the linear models share: their per-example gradients from the gradient factors.
class LinearModel : public Model {
 public:
  Eigen::MatrixXd perExampleGradients(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXi& y) const final;
  Eigen::VectorXd perExampleGradientNorms(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                          const Eigen::VectorXi& y) const final;
  Eigen::VectorXd weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXi& y, const Eigen::VectorXd& rowWeights) const final;
  Eigen::VectorXd clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                     double clip) const final;
  // n × k (k = 1 binary, C otherwise): row i holds r_i, with ∇_θ ℓ(θ; x_i, y_i) = vec(x_i r_iᵀ).
  virtual Eigen::MatrixXd gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                          const Eigen::VectorXi& y) const = 0;

 protected:
  using Model::Model;
};

// Binary logistic regression or Huber SVM on two classes.
class BinaryLinearModel : public LinearModel {
 public:
  BinaryLinearModel(Index inputDim, MarginLoss loss);

  ModelKind kind() const override;
  Index parameterCount() const override { return inputDim(); }
  double lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                 Eigen::VectorXd* grad) const override;
  double lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& rows, const Eigen::VectorXi& y,
                       Eigen::VectorXd* grad) const override;
  Eigen::MatrixXd gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                  const Eigen::VectorXi& y) const override;
  // [0, wᵀx]: the logits of the equivalent two-class softmax.
  Eigen::MatrixXd scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const override;
  ModelConstants constants() const override;  // K = 1, L = c, r = 1
  int scoreDegree() const override { return 1; }

  const MarginLoss& marginLoss() const { return loss_; }

 private:
  MarginLoss loss_;
};

// C binary models, class c against the rest, trained as C separate problems.
class OneVsRestModel : public LinearModel {
 public:
  OneVsRestModel(Index inputDim, Index classes, MarginLoss loss);

  ModelKind kind() const override;
  Index parameterCount() const override { return inputDim() * classes(); }
  double lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                 Eigen::VectorXd* grad) const override;
  double lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& rows, const Eigen::VectorXi& y,
                       Eigen::VectorXd* grad) const override;
  Eigen::MatrixXd gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                  const Eigen::VectorXi& y) const override;
  Eigen::MatrixXd scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const override;
  // Of the whole stacked problem: K = √C, L = c, r = C. Private mechanisms instead treat
  // the C sub-problems separately (docs/algorithms.md §2.1, one-vs-rest) with K = 1 each.
  ModelConstants constants() const override;
  int scoreDegree() const override { return 1; }

  const MarginLoss& marginLoss() const { return loss_; }
  BinaryLinearModel binaryModel() const { return BinaryLinearModel(inputDim(), loss_); }
  // Labels of sub-problem c: 1 where y == c, else 0 (class 1 is "+1" for BinaryLinearModel).
  static Eigen::VectorXi binaryLabels(const Eigen::VectorXi& y, int c);

 private:
  MarginLoss loss_;
};

// Multinomial logistic regression (paper 003 App. D): ℓ = −log softmax(Wᵀx)_y.
class SoftmaxModel : public LinearModel {
 public:
  SoftmaxModel(Index inputDim, Index classes);

  ModelKind kind() const override { return ModelKind::Softmax; }
  Index parameterCount() const override { return inputDim() * classes(); }
  double lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                 Eigen::VectorXd* grad) const override;
  double lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& rows, const Eigen::VectorXi& y,
                       Eigen::VectorXd* grad) const override;
  Eigen::MatrixXd gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                  const Eigen::VectorXi& y) const override;
  Eigen::MatrixXd scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const override;
  ModelConstants constants() const override;  // K = √2, L = 1/2, r = C
  int scoreDegree() const override { return 1; }
};

}  // namespace dpstudio
