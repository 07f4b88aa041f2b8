#pragma once
// Large-margin Gaussian classifier, LMGC (docs/algorithms.md §2.3; paper 000 §3; Sha & Saul 2006).
//
// Rows are augmented as x̃ = [x; 1]/√2 (so ‖x̃‖ ≤ 1 when ‖x‖ ≤ 1; the paper's plain 1 breaks
// that). Each class c has a symmetric Φ_c ∈ R^{(d+1)×(d+1)} constrained to Φ_c ⪰ 0, with
//
//   s_c(x) = x̃ᵀ Φ_c x̃ = ½((x − μ_c)ᵀ Ψ_c (x − μ_c) + θ_c)   when Φ_c = [Ψ_c, −Ψ_c μ_c; ·, μ_cᵀΨ_cμ_c + θ_c]
//
// (a scaled squared Mahalanobis distance to the class centre; see ellipsoid.h), and the
// prediction is argmin_c s_c. scores() returns −s_c so that, as for every Model, the
// prediction is the argmax of scores.
//
// Loss per example: ℓ = Σ_{c≠y} H_h(m_c), margins m_c = s_c − s_y, H_h the Huber hinge
// (huber.h, target margin 1). Gradient: ∂ℓ/∂Φ_c = H'(m_c)·x̃x̃ᵀ (c ≠ y),
// ∂ℓ/∂Φ_y = −Σ_{c≠y} H'(m_c)·x̃x̃ᵀ.
//
// Parameters: θ = [vec(Φ_0); …; vec(Φ_{C−1})], each Φ_c full and column-major, so
// parameterCount() = C(d+1)² and θ viewed as a (d+1) × C(d+1) matrix is [Φ_0 … Φ_{C−1}].
// Both triangles are stored; gradients are symmetric, so symmetric iterates stay symmetric.
//
// Constants for ‖x‖ ≤ 1: K = √(C(C−1)) (stacked Frobenius norm of the per-example
// gradient), L = C/(2h) (largest eigenvalue of ℓ's Hessian in the scores), r = C − 1.
//
// Recommended training objective (docs/algorithms.md §2.3, sum scale):
//   ObjectiveTerms terms;
//   terms.scale = LossScale::Sum;
//   terms.quadratic = 0;
//   terms.linear = model.traceRegularizer(lambda);   // λ Σ_c tr(Ψ_c)
//   Objective J(model, X, y, terms);
// minimized by minimizeLmgcWhitened (lmgc_solver.h: a primal-dual interior-point method
// where its dense system fits, projected gradient to finish; beyond that size projected
// gradient and L-BFGS over low-rank factors, lmgc_factored.h); any
// minimizeProjectedGradient with project = [&](Eigen::VectorXd& t) { model.project(t); }
// reaches the same minimizer, more slowly. On the sum scale ‖∇J‖ grows with n: scale the
// optimizer's absolute tolerance with n (e.g. 1e-6·n).
//
// Caution, found while testing: this objective need not have a minimizer. tr(Ψ_c) does not
// penalize the last row and column of Φ_c (the linear part b_c and the constant β_c), and
// s_c = ½(xᵀΨ_c x + 2b_cᵀx + β_c) can trade a shrinking Ψ_c for a growing b_c, β_c (PSD
// only needs β_c ≥ b_cᵀΨ_c⁺b_c). When the training set is linearly separable (digits is)
// J can be driven towards 0 along a path with ‖θ‖ → ∞, Ψ_c → 0: a linear classifier. The
// solver then never converges and stops at maxIterations; the longer it runs, the more
// "linear" the model becomes (digits, 2/3 for training, λ = 1e-3: held-out accuracy 0.988
// at the warm start, 0.955 after 6000 iterations). A quadratic term q > 0
// (ObjectiveTerms::quadratic) makes J strongly convex with a unique minimizer (same data,
// q = 0.01: converged in ~1000 iterations, tolerance 1e-6·n); the paper's strong-convexity
// claim (its Lemma 2) needs one.
//
// Cost: one loss+gradient evaluation is at most 3·n·C·(d+1)² flops (scores by one matrix
// product, gradients by symmetric rank-k updates over the rows whose Huber derivative is
// non-zero), in row chunks of ≤ 512 rows so the working memory stays a few MB. Row chunks
// (scores), classes (gradients, projection) run on workerThreads() threads
// (core/util/parallel.h); the partition does not depend on the thread count, so results
// are bit-identical with 1 thread or many.
//
// Mixtures (docs/algorithms.md §2.3; Sha & Saul 2006): with M > 1 components per class there
// are C·M blocks Φ_{c,m}, θ = [vec(Φ_{0,0}); …; vec(Φ_{0,M−1}); vec(Φ_{1,0}); …], a class's
// score is the soft minimum of its components' (lmgc_mixture_loss.h), and each training row
// is charged against its own component, the one whose centre is nearest
// (lmgc_components.h). M = 1 is the single-Gaussian model above, bit for bit.
//
// Thread-safety: const members may be called concurrently; the model holds no mutable state.

#include <memory>
#include <vector>

#include "core/models/model.h"

namespace dpstudio {

// K, L, r of LMGC with `components` Gaussians per class (docs/algorithms.md §3 D): for one,
// √(C(C−1)), C/(2h), C − 1; a mixture adds ½ to L and M − 1 directions per competing class
// to r. One place for the model and for the calibrations that need them before a model exists.
ModelConstants lmgcConstants(Index classes, double huberWidth, Index components);

class LmgcModel : public Model {
 public:
  static constexpr double kDefaultHuberWidth = 0.5;

  // Checks inputDim ≥ 1, classes ≥ 2, huberWidth finite and > 0, components ≥ 1 and the
  // centres' shape; the error names the field.
  static Result<LmgcModel> create(Index inputDim, Index classes, double huberWidth = kDefaultHuberWidth,
                                  Index components = 1, Eigen::MatrixXd componentCentres = {});

  // Unchecked: call validate() (or use create()) before relying on the model. With M > 1
  // and no centres, the data-independent ones (publicComponentCentres): what a private
  // mechanism must use.
  LmgcModel(Index inputDim, Index classes, double huberWidth = kDefaultHuberWidth, Index components = 1,
            Eigen::MatrixXd componentCentres = {});
  Status validate() const;

  Index components() const { return components_; }                  // M
  Index blocks() const { return classes() * components_; }          // C·M matrices Φ_{c,m}
  const Eigen::MatrixXd& componentCentres() const { return centres_; }  // (C·M) × d; empty for M = 1
  // For solvers that evaluate the loss on a transformed copy of X's rows, in X's order (the
  // whitened coordinates of lmgc_solver.h): a copy whose rows' own components are those of
  // (X, y) — nearest centre in X's coordinates — instead of being recomputed from the rows it
  // is given. Labelled evaluations must then pass exactly X.rows() rows. M = 1: a plain copy.
  LmgcModel withOwnComponentsOf(const Eigen::MatrixXd& X, const Eigen::VectorXi& y) const;
  // Those fixed own components, one a row; empty when they are not fixed (M = 1, or a model
  // not made by withOwnComponentsOf).
  Eigen::VectorXi ownComponentsOfRows() const { return owners_ ? *owners_ : Eigen::VectorXi(); }

  ModelKind kind() const override { return ModelKind::Lmgc; }
  Index parameterCount() const override;
  double huberWidth() const { return huberWidth_; }
  Index augmentedDim() const { return inputDim() + 1; }
  // The augmented rows x̃ᵀ = [xᵀ, 1]/√2 of X, n × (d + 1): the one place the convention is built.
  static Eigen::MatrixXd augmentedRows(const Eigen::MatrixXd& X);

  double lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                 Eigen::VectorXd* grad) const override;
  // lossSum, with scores(theta, X) into `scores` from the same evaluation (a caller that needs
  // both, as lmgc_screening.h's reference, computes the rows' scores once instead of twice).
  // With counts (one Gaussian a class; lmgc_merged_rows.h) row i stands for counts[i] identical rows.
  double lossSumAndScores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                          Eigen::MatrixXd& scores, Eigen::VectorXd* grad, const Eigen::VectorXd* counts = nullptr) const;
  // lossSum with counts as lossSumAndScores's (the same argument order).
  double countedLossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                        Eigen::VectorXd* grad, const Eigen::VectorXd* counts) const;
  Eigen::MatrixXd perExampleGradients(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXi& y) const override;
  // n × C, entry (i, c) = −s_c(x_i).
  Eigen::MatrixXd scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const override;
  ModelConstants constants() const override;
  int scoreDegree() const override { return 2; }  // −x̃ᵀΦ_c x̃: quadratic in x

  // Feasible set: every Φ_c ⪰ 0. project() symmetrizes each Φ_c and clamps its negative
  // eigenvalues (the Frobenius-nearest feasible point).
  bool isConstrained() const override { return true; }
  void project(Eigen::VectorXd& theta) const override;

  // Warm start: a regularized quadratic discriminant. For each class, μ_c = the class mean,
  // Ψ_c = the inverse of its covariance shrunk towards the pooled scale
  // ((1−α)Σ_c + α·τI, α = 0.1, τ = tr(Σ_pooled)/d), θ_c = log det Σ̂_c − 2 log π_c shifted
  // so that min_c θ_c = 0 (θ_c ≥ 0 keeps Φ_c ⪰ 0). All Φ_c are then scaled by one common
  // factor κ ≥ 0, the smallest minimizer of the training Huber loss along that ray (margins
  // are linear in κ, so each trial costs O(nC); κ = 0, i.e. θ = 0, only if the ray never
  // lowers the loss). Empty classes take the overall mean and the pooled covariance. The
  // result is feasible (PSD). It is fitted on the training data, so private mechanisms,
  // whose output is only an approximate minimizer, start elsewhere (data-independently).
  Eigen::VectorXd initialParameters(const Eigen::MatrixXd& X, const Eigen::VectorXi& y) const override;

  // Structured per-example gradients, for DP-SGD on inputs where the n × C(d+1)² matrix of
  // perExampleGradients() is too large (MNIST: 6·10⁶ columns). Class block c of example i's
  // gradient is W_ic·x̃_i x̃_iᵀ, so its norm is ‖W_i‖₂·‖x̃_i‖², and any weighted sum of the
  // gradients is one weighted Gram matrix per class — the cost of one lossSum gradient.
  // ‖∇_θ ℓ(θ; x_i, y_i)‖ for each row:
  Eigen::VectorXd perExampleGradientNorms(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                          const Eigen::VectorXi& y) const override;
  // Σ_i a_i ∇_θ ℓ(θ; x_i, y_i), e.g. a_i = min(1, clip/‖∇ℓ_i‖) for clipped DP-SGD:
  Eigen::VectorXd clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                     double clip) const override;
  Eigen::VectorXd weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXi& y, const Eigen::VectorXd& rowWeights) const override;

  // The linear term c with cᵀθ = λ Σ_c tr(Ψ_c) (Ψ_c = the upper-left d×d block of Φ_c),
  // for ObjectiveTerms::linear.
  Eigen::VectorXd traceRegularizer(double lambda) const;

  // Φ_c as a (d+1)×(d+1) view into theta (M = 1 only: a mixture's class has M matrices).
  Eigen::Map<const Eigen::MatrixXd> classMatrix(const Eigen::VectorXd& theta, Index c) const;
  // Block b = c·M + m, Φ_{c,m}, as a (d+1)×(d+1) view into theta.
  Eigen::Map<const Eigen::MatrixXd> blockMatrix(const Eigen::VectorXd& theta, Index b) const;

  // Assembles θ from blocks() matrices of size (d+1)×(d+1) (used by tests and by the ellipsoid
  // round trip).
  Eigen::VectorXd packParameters(const std::vector<Eigen::MatrixXd>& phis) const;

 private:
  // grad = Σ_i Σ_c W(i, c)·(class-c block x̃_i x̃_iᵀ), W = ∂ℓ_i/∂s_c (n × C).
  void gradientFromWeights(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W, Eigen::VectorXd& grad) const;

  // S (n × blocks) and, with labels, the loss and (if W) ∂ℓ_i/∂S; counts as lossSumAndScores's.
  double evaluate(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi* y,
                  Eigen::MatrixXd& S, Eigen::MatrixXd* W, const Eigen::VectorXd* counts = nullptr) const;

  double huberWidth_;
  Index components_;
  Eigen::MatrixXd centres_;
  std::shared_ptr<const Eigen::VectorXi> owners_;  // withOwnComponentsOf: each row's own component
};

}  // namespace dpstudio
