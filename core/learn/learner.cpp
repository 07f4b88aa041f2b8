#include "core/learn/learner.h"

#include <algorithm>
#include <cmath>

#include "core/models/linear.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_components.h"
#include "core/models/lmgc_solver.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"

namespace dpstudio {
namespace {

Error invalidParameter(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

// Progress as the fraction of the way, on a log scale, from the first gradient norm to the
// tolerance: optimizers do not know their iteration count in advance. The furthest point
// reached so far: a measure that rises again (projected gradient's is not monotone) holds
// the bar instead of moving it back.
IterationCallback convergenceCallback(const Progress& progress, double tolerance, double offset,
                                      double share) {
  struct Seen {
    double first = 0;
    double done = 0;
  };
  auto seen = std::make_shared<Seen>();
  return [=](const IterationInfo& info) {
    if (progress.cancelled()) return false;
    if (seen->first == 0.0) seen->first = std::max(info.gradientNorm, 1e-300);
    const double target = std::log(seen->first / std::max(tolerance, 1e-300));
    const double done = target > 0 ? std::log(seen->first / std::max(info.gradientNorm, 1e-300)) / target : 1.0;
    seen->done = std::max(seen->done, std::clamp(done, 0.0, 1.0));
    progress.report(offset + share * seen->done);
    return true;
  };
}

void mergeSummary(OptimizeSummary& total, const OptimizeSummary& part) {
  total.iterations += part.iterations;
  total.evaluations += part.evaluations;
  total.objective += part.objective;
  total.gradientNorm = std::max(total.gradientNorm, part.gradientNorm);
  total.seconds += part.seconds;
  if (static_cast<int>(part.termination) > static_cast<int>(total.termination)) {
    total.termination = part.termination;
    total.message = part.message;
  }
}

Result<TrainedModel> finish(TrainedModel trained) {
  if (trained.summary.termination == Termination::Cancelled) return Error::cancelled();
  return trained;
}

// The stopping rule a control asks for on an objective of `rows` rows: with
// exactGradientNorm, ‖∇J‖ ≤ that absolute, data-independent value only (the relative
// tolerance off: exact_minimizer.h fixes it in advance); otherwise the relative tolerance,
// and an absolute one that grows with n on the sum scale.
struct StoppingRule {
  double absolute = 0;
  double relative = 0;
};

StoppingRule stoppingRule(const TrainControl& control, LossScale scale, Index rows) {
  if (control.exactGradientNorm) return {*control.exactGradientNorm, 0.0};
  return {control.tolerance * (scale == LossScale::Sum ? static_cast<double>(rows) : 1.0), control.tolerance};
}

OptimizeSummary minimizeSmooth(const Objective& objective, Eigen::VectorXd& theta,
                               const TrainControl& control, double offset, double share,
                               double absoluteTolerance = -1) {
  LbfgsOptions options;
  options.relativeTolerance = control.tolerance;
  options.absoluteTolerance = absoluteTolerance > 0 ? absoluteTolerance : control.tolerance;
  options.maxIterations = control.maxIterations;
  return minimizeLbfgs(objective, theta, options,
                       convergenceCallback(control.progress, std::max(control.tolerance, options.absoluteTolerance), offset, share));
}

}  // namespace

FeatureMatrix rowsForFit(const TrainControl& control, const Eigen::MatrixXd& X) {
  if (control.rows && control.rows->wraps(X)) return *control.rows;
  return FeatureMatrix::withSparseIfWorthIt(X);
}

TrainControl sharingRows(TrainControl control, const Eigen::MatrixXd& X) {
  if (!control.rows || !control.rows->wraps(X))
    control.rows = std::make_shared<const FeatureMatrix>(FeatureMatrix::withSparseIfWorthIt(X));
  return control;
}

Status LearnerSpec::validate() const {
  if (!std::isfinite(lambda) || !(lambda > 0))
    return invalidParameter("lambda must be finite and > 0", "lambda");
  if (!std::isfinite(huber) || !(huber > 0))
    return invalidParameter("huber must be finite and > 0", "huber");
  if (components < 1 || components > kMaxComponents)
    return invalidParameter("components must be between 1 and " + std::to_string(kMaxComponents), "components");
  if (components > 1 && kind != ModelKind::Lmgc)
    return invalidParameter("components (a mixture per class) apply to LMGC only", "components");
  return Ok{};
}

double defaultLambda(ModelKind kind) { return kind == ModelKind::Lmgc ? 1e-2 : LearnerSpec{}.lambda; }

double defaultPrivateLambda(ModelKind) { return 1e-2; }

std::optional<ModelKind> parseModelKind(const std::string& name) {
  for (ModelKind kind : {ModelKind::LogisticRegression, ModelKind::HuberSvm, ModelKind::Softmax,
                         ModelKind::Lmgc})
    if (modelKindName(kind) == name) return kind;
  if (name == "logistic") return ModelKind::LogisticRegression;
  if (name == "huber-svm" || name == "svm") return ModelKind::HuberSvm;
  return std::nullopt;
}

Result<std::shared_ptr<const Model>> makeModel(const LearnerSpec& spec, Index inputDim, Index classes) {
  if (auto status = spec.validate(); !status) return status.error();
  if (inputDim < 1) return invalidParameter("the model needs at least one feature", "features");
  if (classes < 2) return invalidParameter("the model needs at least two classes", "classes");
  const MarginLoss loss{spec.kind == ModelKind::HuberSvm ? BinaryLoss::Huber : BinaryLoss::Logistic,
                        spec.huber};
  switch (spec.kind) {
    case ModelKind::LogisticRegression:
    case ModelKind::HuberSvm:
      if (classes == 2) return std::shared_ptr<const Model>(std::make_shared<BinaryLinearModel>(inputDim, loss));
      return std::shared_ptr<const Model>(std::make_shared<OneVsRestModel>(inputDim, classes, loss));
    case ModelKind::Softmax:
      return std::shared_ptr<const Model>(std::make_shared<SoftmaxModel>(inputDim, classes));
    case ModelKind::Lmgc:
      return std::shared_ptr<const Model>(std::make_shared<LmgcModel>(inputDim, classes, spec.huber, spec.components));
  }
  return invalidParameter("unknown model", "model");
}

namespace {

// minimizeObjective; LMGC is solved by lmgc_solver.h (whitened coordinates, interior point
// then projected gradient) with `privateRun` choosing its stopping measure and start.
Result<TrainedModel> minimizeObjectiveImpl(std::shared_ptr<const Model> model, const Eigen::MatrixXd& X,
                                           const Eigen::VectorXi& y, const ObjectiveTerms& terms,
                                           const TrainControl& control, bool privateRun) {
  if (control.progress.cancelled()) return Error::cancelled();
  if (control.warmStart && control.warmStart->size() != model->parameterCount())
    return invalidParameter("the warm start has the wrong number of parameters", "warm-start");
  TrainedModel trained;
  trained.model = std::move(model);
  const Model& m = *trained.model;
  trained.theta = control.warmStart ? *control.warmStart : m.initialParameters(X, y);
  const Objective objective(m, rowsForFit(control, X), y, terms);
  const auto [absolute, relative] = stoppingRule(control, terms.scale, X.rows());
  if (m.isConstrained()) {
    ProjectedGradientOptions options;
    options.relativeTolerance = relative;
    options.absoluteTolerance = absolute;
    options.maxIterations = control.maxIterations;
    const IterationCallback callback = convergenceCallback(control.progress, std::max(relative, absolute), 0.0, 1.0);
    const auto* lmgc = dynamic_cast<const LmgcModel*>(&m);
    if (lmgc)
      // The stopping measure is the whitened problem's (invariant to the features' units),
      // except when an exact-minimizer bound needs the original one (exact_minimizer.h) and
      // for private mechanisms, which also keep their data-independent start.
      trained.summary = minimizeLmgcWhitened(*lmgc, X, y, terms, trained.theta, options, callback,
                                             privateRun                           ? LmgcRun::Private
                                             : control.exactGradientNorm.has_value() ? LmgcRun::ExactTraining
                                                                                     : LmgcRun::Training);
    else
      trained.summary = minimizeProjectedGradient(
          objective, [&m](Eigen::VectorXd& theta) { m.project(theta); }, trained.theta, options, callback);
  } else {
    TrainControl smooth = control;
    smooth.tolerance = relative;
    trained.summary = minimizeSmooth(objective, trained.theta, smooth, 0.0, 1.0, absolute);
  }
  return finish(std::move(trained));
}

}  // namespace

Result<TrainedModel> minimizeObjective(std::shared_ptr<const Model> model, const Eigen::MatrixXd& X,
                                       const Eigen::VectorXi& y, const ObjectiveTerms& terms,
                                       const TrainControl& control) {
  return minimizeObjectiveImpl(std::move(model), X, y, terms, control, true);
}

Result<TrainedModel> trainModel(const LearnerSpec& spec, const Eigen::MatrixXd& X,
                                const Eigen::VectorXi& y, Index classes,
                                const TrainControl& control) {
  auto made = makeModel(spec, X.cols(), classes);
  if (!made) return made.error();
  if (control.progress.cancelled()) return Error::cancelled();
  const std::shared_ptr<const Model> model = made.value();

  if (const auto* ovr = dynamic_cast<const OneVsRestModel*>(model.get())) {
    // C independent binary problems; each is its own objective (and, for private
    // mechanisms, its own release).
    const auto binary = std::make_shared<const BinaryLinearModel>(ovr->binaryModel());
    const Index d = model->inputDim();
    TrainedModel trained;
    trained.model = model;
    trained.theta = control.warmStart ? *control.warmStart : model->initialParameters(X, y);
    if (trained.theta.size() != model->parameterCount())
      return invalidParameter("the warm start has the wrong number of parameters", "warm-start");
    // Every class honours the control's stopping rule, the exact gradient norm included
    // (prediction sensitivity fixes τ per class in advance; issue 13 bug 2).
    const auto [absolute, relative] = stoppingRule(control, LossScale::Mean, X.rows());
    TrainControl each = control;
    each.tolerance = relative;
    const FeatureMatrix rows = rowsForFit(control, X);  // once for the C problems
    for (Index c = 0; c < classes; ++c) {
      const Eigen::VectorXi yc = OneVsRestModel::binaryLabels(y, static_cast<int>(c));
      const Objective objective(*binary, rows, yc, {LossScale::Mean, spec.lambda, {}});
      Eigen::VectorXd w = trained.theta.segment(c * d, d);
      const double share = 1.0 / static_cast<double>(classes);
      trained.classSummaries.push_back(
          minimizeSmooth(objective, w, each, share * static_cast<double>(c), share, absolute));
      mergeSummary(trained.summary, trained.classSummaries.back());
      trained.theta.segment(c * d, d) = w;
      if (trained.summary.termination == Termination::Cancelled) break;
    }
    return finish(std::move(trained));
  }

  if (const auto* lmgc = dynamic_cast<const LmgcModel*>(model.get())) {
    // λ(Σ tr Ψ_c + ½‖Φ‖²_F): the trace term alone leaves the linear part of Φ_c unpenalized,
    // and on separable data the objective then has no minimizer (see lmgc.h).
    // Non-private: solved in whitened coordinates (lmgc_solver.h), the same minimizer
    // reached in far fewer iterations; the stopping rule is the original problem's. A
    // mixture's centres come from k-means on each class (lmgc_components.h).
    const std::shared_ptr<const Model> fitted =
        spec.components > 1 ? std::make_shared<const LmgcModel>(X.cols(), classes, spec.huber, spec.components,
                                                                kMeansComponentCentres(X, y, classes, spec.components))
                            : model;
    return minimizeObjectiveImpl(fitted, X, y, {LossScale::Sum, spec.lambda, lmgc->traceRegularizer(spec.lambda)},
                                 control, false);
  }
  return minimizeObjective(model, X, y, {LossScale::Mean, spec.lambda, {}}, control);
}

}  // namespace dpstudio
