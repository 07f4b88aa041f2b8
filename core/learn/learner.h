#pragma once
// Non-private training of the four baselines: pick a model, build its regularized
// objective, run the right optimizer, and return the parameters with the optimizer's
// summary. Private mechanisms reuse makeModel() and the same optimizers on perturbed
// objectives.
//
// Regularization, per model (docs/algorithms.md §2, §3):
//   logreg, huber, softmax  J(θ) = (1/n)Σℓ_i + (λ/2)‖θ‖²          (mean scale)
//   lmgc                    J(Φ) = Σℓ_i + λ·(Σ_c tr(Ψ_c) + ½‖Φ‖²_F), Φ_c ⪰ 0   (sum scale)

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/models/model.h"
#include "core/models/objective.h"
#include "core/optim/lbfgs.h"
#include "core/util/progress.h"

namespace dpstudio {

struct LearnerSpec {
  ModelKind kind = ModelKind::LogisticRegression;
  double lambda = 1e-4;  // regularization strength, > 0 (meaning per model: see above)
  double huber = 0.5;    // h of the Huber hinge (Huber SVM, LMGC), > 0
  // LMGC's Gaussians per class, M ≥ 1 (mixtures, docs/algorithms.md §2.3). A non-private
  // model takes its components' centres from k-means on each class; makeModel() gives the
  // data-independent ones every private mechanism uses (lmgc_components.h).
  int components = 1;
  static constexpr int kMaxComponents = 16;

  // Names the offending parameter: "lambda must be finite and > 0".
  Status validate() const;
  bool operator==(const LearnerSpec&) const = default;
};

std::optional<ModelKind> parseModelKind(const std::string& name);  // logreg|huber|softmax|lmgc

// The λ a model starts with in the GUI and the CLI: 1e-4 for the mean-scale linear models,
// 1e-2 for LMGC (sum scale). At LMGC's former 1e-4 the regularizer's curvature is ~1e-6 of
// the loss's on the built-in datasets, and iris, blobs and moons did not converge within
// 3000 iterations; at 1e-2 they converge in under 700 at the same test accuracy (±1 point)
// (issue 9 item 4).
double defaultLambda(ModelKind kind);
// The λ a model starts with when it is trained privately (GUI): 1e-2 for every model. The
// mechanisms' noise scales with 1/(nλ) (output perturbation's Δ = 2/(nλ)): at 1e-4 a
// dataset of a few hundred rows gets noise hundreds of times larger than any model λ
// allows (iris: E‖b‖ ≈ 900 against ‖θ*‖ ≤ 118), a random model; at 1e-2 the picture is
// the one the papers draw. Data-independent, like defaultLambda().
double defaultPrivateLambda(ModelKind kind);

// logreg/huber with C = 2 are one binary model; with C > 2, one-vs-rest.
Result<std::shared_ptr<const Model>> makeModel(const LearnerSpec& spec, Index inputDim, Index classes);

struct TrainedModel {
  std::shared_ptr<const Model> model;
  Eigen::VectorXd theta;
  OptimizeSummary summary;  // one-vs-rest: iterations and evaluations summed, the worst
                            // termination and the largest gradient norm of the C problems
  // One-vs-rest: the summary of each class's binary problem, in class order (empty for
  // other models), so that a report can say "at most N iterations per class".
  std::vector<OptimizeSummary> classSummaries = {};
};

struct TrainControl {
  std::optional<Eigen::VectorXd> warmStart;  // a starting θ (e.g. the non-private solution)
  double tolerance = 1e-8;                   // relative gradient tolerance
  // When set, the optimizer stops only at ‖∇J‖ ≤ this absolute, data-independent value (for
  // constrained models: the projected-gradient step); the relative tolerance is off. Output
  // perturbation uses it so the distance to the exact minimizer is bounded a priori.
  std::optional<double> exactGradientNorm;
  int maxIterations = 3000;
  Progress progress;                          // reports convergence; cancellation → Cancelled
  // X's rows in the learners' layout, built once by a caller that fits many times on the same
  // rows (a sweep's trials: the sparse copy of MNIST takes longer than a perturbed fit's
  // evaluations). Used only by fits on that very matrix (FeatureMatrix::wraps); others build
  // their own.
  std::shared_ptr<const FeatureMatrix> rows;
};

// The rows a fit on X evaluates: control.rows when they wrap X, else built now.
FeatureMatrix rowsForFit(const TrainControl& control, const Eigen::MatrixXd& X);
// control with rows of X that its fits share (one-vs-rest's C binary problems).
TrainControl sharingRows(TrainControl control, const Eigen::MatrixXd& X);

// Minimizes J(θ) = w·Σℓ + (q/2)‖θ‖² + cᵀθ over the model's feasible set (L-BFGS when it is
// unconstrained, accelerated projected gradient otherwise; LMGC by lmgc_solver.h's
// interior-point method, stopping on the original coordinates' measure, from the start as
// given), from control.warmStart or the model's initial parameters. The building block of
// the private mechanisms, which perturb `terms`.
Result<TrainedModel> minimizeObjective(std::shared_ptr<const Model> model, const Eigen::MatrixXd& X,
                                       const Eigen::VectorXi& y, const ObjectiveTerms& terms,
                                       const TrainControl& control = {});

// Trains on the rows of X with labels in [0, classes). Fails only on invalid options or
// when cancelled (ErrorKind::Cancelled); a non-converged run returns with its summary.
Result<TrainedModel> trainModel(const LearnerSpec& spec, const Eigen::MatrixXd& X,
                                const Eigen::VectorXi& y, Index classes,
                                const TrainControl& control = {});

}  // namespace dpstudio
