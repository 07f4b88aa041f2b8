#include "core/models/lmgc_solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <functional>

#include "core/linalg/psd.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_congruence.h"
#include "core/models/lmgc_dual_descent.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_interior.h"
#include "core/models/lmgc_merged_rows.h"
#include "core/models/lmgc_mixture_loss.h"
#include "core/models/lmgc_mixture_solver.h"
#include "core/models/lmgc_pairs.h"
#include "core/models/lmgc_screening.h"
#include "core/models/lmgc_semismooth.h"
#include "core/models/lmgc_sparse_rows.h"

namespace dpstudio {
namespace {

using lmgc_detail::congruence;

// Without a quadratic term, covariance eigenvalues below this share of the mean eigenvalue
// are raised to it before inverting (a constant feature, e.g. digits' blank border pixels,
// has variance 0).
constexpr double kVarianceFloor = 1e-2;

// Steps of the interior-point method before projected gradient takes over.
constexpr int kInteriorSteps = 200;

// Beyond the interior-point method's size (measured with bench_lmgc digits, whose minimizer's
// ranks are 8–17 of 65, and with `train` on digits at λ = 10⁻⁴…10⁻¹ and DP-LMGC): projected-
// gradient steps before the ranks are first read off (10: within a few of the minimizer's);
// the share of the largest eigenvalue that counts towards a rank (10⁻⁴ and above cut ranks the
// minimizer needs, and the factored descent then stalls short of it); the first round: 75
// L-BFGS iterations over factors of the ranks read off the projected-gradient iterate plus a
// spare column (J to within ~10⁻⁴ of its minimum on digits), then the semismooth Newton method
// (lmgc_semismooth.h) from there, with α = 4 × projected gradient's step (1–8 × within ±5 %),
// until the solver's own measure is met (digits: 4 steps, 126 conjugate-gradient iterations).
// 100 L-BFGS iterations cost 0.05 s more on digits (4 steps, 163 iterations), 150 0.1 s; 50
// and 25 leave the Newton method more to do (25: 0.87 s, and 2.3 s at λ = 10⁻³); 5
// projected-gradient steps instead of 10 before them, within ±10 %. It replaced Newton on the
// face, 400 more L-BFGS iterations and ~35 polishing steps (digits 1.1–1.3 s → 0.45–0.48 s,
// λ = 10⁻³ 1.9–2.1 → 1.45 s, 3·10⁻² 1.0 → 0.43 s, 10⁻¹ 0.94 → 0.39 s); where it takes no step
// the polish follows (newtonEndGame). Later rounds are L-BFGS alone. Both first-order
// methods' tails are linear (the problem is ill-conditioned: directions only the small
// quadratic term sees, and the turning of the x_c's ranges). At λ = 10⁻³ the Newton method's
// conjugate gradients reach their limit (the diagonal preconditioner does not see the small
// regularizer's directions) and it stalls; projected gradient and later rounds finish.
// Projected gradient polishes for at most kPolishSteps steps a round: when it has not
// converged by then it is in its slow regime (digits at λ = 10⁻³: 1 513 steps, 8.4 s, in one
// run), and a new factored descent from its point is cheaper (2.0 s). The last round polishes
// to the end.
constexpr int kRankFindingSteps = 10;
constexpr double kRankThreshold = 1e-6;
constexpr int kFirstRoundIterations = 75;
constexpr int kLaterRoundIterations = 500;
constexpr Index kSpareColumns = 1;
constexpr double kNewtonStepPerGradientStep = 4;
constexpr int kFactoredMemory = 20;  // L-BFGS pairs: 8–15 within ±5 % (before the Newton method: 10 stalled the polish)
constexpr int kPolishSteps = 50;
// After the first round's end game the ranks are close to the minimizer's, and a short polish
// hands over to the next round sooner (DNA 13.9–14.4 → 12.6–13.0 s, digits raw 1.3 → 1.2 s,
// a9a within the noise, the same minima; 25 steps: DNA 13.3 s). As the mixture solver's.
constexpr int kFirstPolishSteps = 10;
constexpr int kMaxRounds = 20;
// The dual first (lmgc_dual_descent.h) when the pairs n(C − 1) are at most this share of the
// unknowns C·D(D + 1)/2. There the loss's Hessian has rank at most (C − 1)·n, and the primal
// is mostly directions only the small quadratic term sees, which the dual does not have. DNA
// (0.07): a gap of 10⁻⁷ in ~180 evaluations, and the whole fit in 4.4–5.1 s against 8.7–10.2
// s. Digits raw (0.57) had a gap of 7·10⁻⁵ after 1 000 evaluations, and a9a (2.1) 4.5·10⁻²
// after 1 000 (69 s): their duals are ill-conditioned, their rows correlated.
constexpr double kDualPairShare = 0.25;
// Relative: J(Φ(α)) − g(α) ≤ 10⁻⁷·|J|. At 10⁻⁶ the Newton end game that follows did not
// always converge, and a second round cost DNA ~1.8 s more.
constexpr double kDualGap = 1e-7;
constexpr int kDualEvaluations = 600;   // where it has not converged, the primal goes on from its best

bool pairsAreFew(const LmgcInteriorProblem& problem) {
  const Index C = problem.model.classes(), D = problem.model.augmentedDim();
  const double pairs = static_cast<double>(problem.rows.rows()) * static_cast<double>(C - 1);
  return pairs <= kDualPairShare * static_cast<double>(lmgcInteriorDimension(C, D));
}

// T = [A, −Am; 0, 1] and its inverse [A⁻¹, m; 0, 1], with A = Σ_floored^{-1/2} symmetric.
struct Whitening {
  Eigen::MatrixXd T, Tinv;
  Eigen::MatrixXd mapped;  // the rows (x − m)A
};

// A = (Σ + τI)^{-1/2}: whitening shrunk by τ. See minimizeLmgcWhitened for the choice of τ.
Whitening fitWhitening(const Eigen::MatrixXd& X, double shrinkage) {
  const Index n = X.rows(), d = X.cols();
  const Eigen::RowVectorXd mean = n > 0 ? Eigen::RowVectorXd(X.colwise().mean()) : Eigen::RowVectorXd::Zero(d);
  const Eigen::MatrixXd centred = X.rowwise() - mean;
  const Eigen::MatrixXd cov = centred.transpose() * centred / static_cast<double>(std::max<Index>(n, 1));
  const SymmetricEigen eig = symmetricEigen(cov);
  const double average = std::max(eig.values.sum() / static_cast<double>(d), 0.0);
  // All-constant rows and no quadratic term: nothing to whiten, only centre (scale 1).
  const double floor = shrinkage > 0 ? 0.0 : average > 0 ? kVarianceFloor * average : 1.0;
  const double tau = std::max(shrinkage, 0.0);
  const Eigen::VectorXd scale =
      (eig.values.cwiseMax(0.0).array() + tau).cwiseMax(floor).sqrt().inverse().matrix();
  const Eigen::MatrixXd& V = eig.vectors;
  const Eigen::MatrixXd A = V * scale.asDiagonal() * V.transpose();
  const Eigen::MatrixXd Ainv = V * scale.cwiseInverse().asDiagonal() * V.transpose();

  Whitening w;
  w.T = Eigen::MatrixXd::Identity(d + 1, d + 1);
  w.T.topLeftCorner(d, d) = A;
  w.T.topRightCorner(d, 1) = -A * mean.transpose();
  w.Tinv = Eigen::MatrixXd::Identity(d + 1, d + 1);
  w.Tinv.topLeftCorner(d, d) = Ainv;
  w.Tinv.topRightCorner(d, 1) = mean.transpose();
  w.mapped = centred * A;
  return w;
}

// What one phase of the solver (dual, factored descent, Newton end game) reports.
struct Phase {
  int evaluations = 0;
  bool cancelled = false;
  bool converged = false;  // the dual's gap reached kDualGap (dualFirst only)
};

// L-BFGS over low-rank factors of x (lmgc_factored.h) of the ranks read off x; x becomes the
// result if it lowers J (whose value at x is `atX`).
Phase factoredDescent(const LmgcInteriorProblem& problem, const SmoothFunction& objective, double atX,
                      double tolerance, int iterations, Eigen::VectorXd& x, const IterationCallback& callback) {
  Phase descent;
  Eigen::VectorXd factored = x;
  LbfgsOptions lbfgs;
  lbfgs.maxIterations = iterations;
  lbfgs.memory = kFactoredMemory;
  // Far below what projected gradient will ask: in practice the budget decides.
  lbfgs.absoluteTolerance = std::max(1e-3 * tolerance, std::numeric_limits<double>::min());
  lbfgs.relativeTolerance = 0;
  const OptimizeSummary f = minimizeLmgcFactored(
      problem, factored, lmgcFactorRanks(problem.model, factored, kRankThreshold, kSpareColumns), lbfgs, callback);
  descent.evaluations += f.evaluations;
  if (f.termination == Termination::Cancelled) {
    descent.cancelled = true;
    return descent;
  }
  Eigen::VectorXd unused;
  ++descent.evaluations;
  if (objective(factored, unused) < atX) x = factored;
  return descent;
}

using StationarityMeasure = std::function<double(const Eigen::VectorXd&, const Eigen::VectorXd&, double&)>;

// The first round's end game from the factored descent's x: the semismooth Newton method
// (lmgc_semismooth.h), whose x is kept if it lowers the stopping measure. Where it takes no
// step (the active rows are too many for it, or its first system stalls) x is left as it is
// and the polish goes on from there. (Newton on the face and 400 more L-BFGS iterations
// there, the former fallback, cost MNIST-50 ~16 s and digits at λ = 10⁻³…3·10⁻⁴ 0.1–0.6 s
// more: over the first round's ranks, which the polish then cuts — MNIST 45 → 35 a class.)
Phase newtonEndGame(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                    const StationarityMeasure& measure, double gradientStep, Eigen::VectorXd& x,
                    const IterationCallback& callback) {
  Phase result;
  Eigen::VectorXd grad;
  double tolerance = 0;
  ++result.evaluations;
  objective(x, grad);
  const double before = measure(x, grad, tolerance);
  LmgcSemismoothOptions newton;
  newton.step = kNewtonStepPerGradientStep * gradientStep;
  newton.converged = [&](const Eigen::VectorXd& at, const Eigen::VectorXd& gradient) {
    double atTolerance = 0;
    return measure(at, gradient, atTolerance) <= atTolerance;
  };
  newton.callback = callback;
  Eigen::VectorXd solved = x;
  const LmgcSemismoothResult r = minimizeLmgcSemismooth(problem, objective, solved, newton);
  result.evaluations += r.evaluations;
  result.cancelled = r.cancelled;
  if (r.cancelled || r.steps == 0) return result;
  ++result.evaluations;
  objective(solved, grad);
  if (measure(solved, grad, tolerance) < before) x = solved;
  return result;
}

// The dual descent (lmgc_dual_descent.h) from nothing to kDualGap; x becomes its point if that
// lowers J. The callback sees iteration `used` throughout, with a measure estimated from the gap.
Phase dualFirst(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                const StationarityMeasure& measure, Eigen::VectorXd& x, const IterationCallback& callback, int used) {
  Phase result;
  Eigen::VectorXd grad;
  double tolerance = 0;
  ++result.evaluations;
  const double atStart = objective(x, grad);
  const double before = measure(x, grad, tolerance);
  LmgcDualDescentOptions dual;
  dual.relativeGap = kDualGap;
  dual.maxEvaluations = kDualEvaluations;
  // Progress: the gap's fall on a log scale, from its first value to kDualGap, shown as the
  // measure's from `before` to ten times its tolerance (what the end game usually has left).
  // Both gap bounds only improve, so the estimate never goes back.
  double firstGap = 0;
  if (callback)
    dual.callback = [&](const IterationInfo& info) {
      if (firstGap == 0) firstGap = info.gradientNorm;
      const double target = kDualGap * std::abs(info.objective);
      double done = 0;
      if (firstGap > target && info.gradientNorm > 0)
        done = std::clamp(std::log(firstGap / info.gradientNorm) / std::log(firstGap / target), 0.0, 1.0);
      const double estimate = before > 10 * tolerance ? before * std::pow(10 * tolerance / before, done) : before;
      return callback({used, info.objective, estimate});
    };
  Eigen::VectorXd fromDual = x;
  const LmgcDualDescentResult r = descendLmgcDual(problem, fromDual, dual);
  result.evaluations += r.evaluations;
  result.cancelled = r.cancelled;
  result.converged = r.converged;
  if (r.cancelled) return result;
  ++result.evaluations;
  if (objective(fromDual, grad) < atStart) x = fromDual;
  return result;
}

// The interior-point method (lmgc_interior.h) while its dense system fits, then projected
// gradient from its last point for the iterations left; both stop on options' measure and
// tolerance, and share options.maxIterations.
OptimizeSummary interiorThenProjectedGradient(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                                              const ProjectionFunction& project, Eigen::VectorXd& x,
                                              const ProjectedGradientOptions& options,
                                              const IterationCallback& callback) {
  const auto start = std::chrono::steady_clock::now();
  LmgcInteriorOptions interior;
  // It converges in tens of steps or not at all (then projected gradient takes over).
  interior.maxIterations = std::min(options.maxIterations, kInteriorSteps);
  interior.callback = callback;
  const auto measureAt = [&](const Eigen::VectorXd& at, const Eigen::VectorXd& grad, double& tolerance) {
    // As projected_gradient.cpp measures it.
    if (options.stationarity) {
      const ProjectedGradientOptions::Stationarity s = options.stationarity(at, grad);
      tolerance = std::max(options.absoluteTolerance, options.relativeTolerance * s.parameterNorm);
      return s.measure;
    }
    Eigen::VectorXd stepped = at - grad;
    project(stepped);
    tolerance = std::max(options.absoluteTolerance, options.relativeTolerance * at.norm());
    return (stepped - at).norm();
  };
  interior.measure = measureAt;
  Eigen::VectorXd inside = x;
  const LmgcInteriorResult ipm = minimizeLmgcInterior(problem, objective, inside, interior);
  OptimizeSummary summary;
  summary.iterations = ipm.iterations;
  summary.evaluations = ipm.evaluations;
  summary.objective = ipm.objective;
  summary.gradientNorm = ipm.measure;
  summary.termination = Termination::MaxIterations;
  if (ipm.outcome != LmgcInteriorResult::Outcome::TooLarge) x = inside;  // feasible in every case
  if (ipm.outcome == LmgcInteriorResult::Outcome::Converged) summary.termination = Termination::Converged;
  if (ipm.outcome == LmgcInteriorResult::Outcome::Cancelled) summary.termination = Termination::Cancelled;
  int used = ipm.iterations;
  int evaluations = ipm.evaluations;
  IterationCallback shifted;
  if (callback)
    shifted = [&](const IterationInfo& info) { return callback({info.iteration + used, info.objective, info.gradientNorm}); };
  const auto iterationsLeft = [&] {
    return summary.termination == Termination::MaxIterations && used < options.maxIterations;
  };
  if (iterationsLeft() && ipm.outcome == LmgcInteriorResult::Outcome::TooLarge) {
    // Where the pairs are few against the unknowns, the dual first (lmgc_dual_descent.h).
    // Projected gradient finds the minimizer's ranks, L-BFGS over factors of those ranks
    // (lmgc_factored.h) does most of the descent; projected gradient below has the last word.
    bool dualConverged = false;
    if (problem.quadratic > 0 && pairsAreFew(problem)) {
      const Phase dual = dualFirst(problem, objective, measureAt, x, callback, used);
      evaluations += dual.evaluations;
      if (dual.cancelled) {
        summary.termination = Termination::Cancelled;
        summary.evaluations = evaluations;
        return summary;
      }
      dualConverged = dual.converged;
    }
    ProjectedGradientOptions first = options;
    first.maxIterations = std::min(kRankFindingSteps, options.maxIterations - used);
    summary = minimizeProjectedGradient(objective, project, x, first, shifted);
    used += summary.iterations;
    evaluations += summary.evaluations;
    summary.iterations = used;
    const double gradientStep = summary.step;
    // Rounds: L-BFGS over factors, then projected gradient for at most kPolishSteps; while
    // the polish stops short of the tolerance, another factored descent from where it is.
    for (int round = 0; iterationsLeft(); ++round) {
      // L-BFGS's iterations are not projected-gradient steps: the caller sees the last
      // measure falling as a round usually takes it (lmgc_factored.h), and may cancel.
      const double measure = summary.gradientNorm;
      const int budget = round == 0 ? kFirstRoundIterations : kLaterRoundIterations;
      const double fall = round == 0 ? kLmgcFirstRoundFall : kLmgcRoundFall;
      int reports = 0;
      const IterationCallback factoredCallback = [&](const IterationInfo& info) {
        return !callback ||
               callback({used, info.objective, lmgcMeasureDuringRound(measure, ++reports, budget, fall)});
      };
      // After a converged dual the first round's L-BFGS has nothing left to do (DNA: 1.1 s
      // for the same minimum); its Newton end game and polish go on from the dual's point.
      const Phase descent =
          round == 0 && dualConverged
              ? Phase{}
              : factoredDescent(problem, objective, summary.objective, options.absoluteTolerance, budget, x,
                                factoredCallback);
      evaluations += descent.evaluations;
      if (descent.cancelled) {
        summary.termination = Termination::Cancelled;
        break;
      }
      if (round == 0) {
        const Phase endGame = newtonEndGame(problem, objective, measureAt, gradientStep, x, factoredCallback);
        evaluations += endGame.evaluations;
        if (endGame.cancelled) {
          summary.termination = Termination::Cancelled;
          break;
        }
      }
      ProjectedGradientOptions polish = options;
      // From the last step found: from options.initialStep (1) every polish spent ~15
      // backtracking trials (a projection and an evaluation each) in its first step finding
      // it again (DNA's polishes 35 → 20, 120 → 104 and 82 → 50 evaluations).
      polish.initialStep = summary.step > 0 ? summary.step : options.initialStep;
      const int polishSteps = round == 0 ? kFirstPolishSteps : kPolishSteps;
      polish.maxIterations = round + 1 < kMaxRounds ? std::min(polishSteps, options.maxIterations - used)
                                                    : options.maxIterations - used;
      summary = minimizeProjectedGradient(objective, project, x, polish, shifted);
      used += summary.iterations;
      evaluations += summary.evaluations;
      summary.iterations = used;
    }
  } else if (iterationsLeft()) {
    ProjectedGradientOptions rest = options;
    rest.maxIterations = options.maxIterations - used;
    summary = minimizeProjectedGradient(objective, project, x, rest, shifted);
    summary.iterations += used;
    evaluations += summary.evaluations;
  }
  summary.evaluations = evaluations;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace

OptimizeSummary minimizeLmgcWhitened(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                     const ObjectiveTerms& terms, Eigen::VectorXd& theta,
                                     ProjectedGradientOptions options, const IterationCallback& callback,
                                     LmgcRun run) {
  // A mixture (lmgc.h, "Mixtures") is whitened like one Gaussian per class, its rows' own
  // components fixed from the original rows first (whitening moves rows, not centres); the
  // interior-point start and the safe screening know one matrix a class, so L-BFGS over
  // low-rank factors and projected gradient solve it (below). C counts matrices: classes ×
  // components.
  const bool mixture = model.components() > 1;
  options.measureEvery = kLmgcMeasureEvery;  // lmgc_interior.h
  const LmgcModel owned = model.withOwnComponentsOf(X, y);
  const Index C = model.blocks(), D = model.augmentedDim();
  const double n = static_cast<double>(std::max<Index>(X.rows(), 1));
  const double weight = terms.scale == LossScale::Sum ? 1.0 : 1.0 / n;
  // The loss's curvature is about α·(M ⊗ M) (M the rows' second moment, α = w·n/(2h) when
  // every margin is in the Huber's quadratic part), the regularizer's q·(I ⊗ I). Scaling
  // direction k of the rows by t_k with t_k² = 1/(σ_k² + τ), τ = √(q/α), balances the two:
  // pairs of directions the data spread along get the loss's curvature near 1·α, and
  // directions the data do not see (σ_k → 0) get the regularizer's q·t⁴ = α as well.
  // Plain whitening (τ = 0) would make the regularizer the stiffest part instead.
  const double alpha = weight * n / (2 * model.huberWidth());
  const Whitening w = fitWhitening(X, terms.quadratic > 0 ? std::sqrt(terms.quadratic / alpha) : 0.0);
  const bool hasLinear = terms.linear.size() == model.parameterCount();
  const Eigen::MatrixXd Tt = w.T.transpose(), TinvT = w.Tinv.transpose();

  // Identical rows merged, each with its count (lmgc_merged_rows.h: the same objective over
  // fewer rows), for one Gaussian a class. The whitening above saw every row.
  const Index d = X.cols();
  const std::optional<LmgcMergedRows> merged = mixture ? std::nullopt : LmgcMergedRows::ifWorthwhile(X, y);
  const Eigen::MatrixXd mergedMapped =
      merged ? Eigen::MatrixXd((merged->rows * w.T.topLeftCorner(d, d).transpose()).rowwise() +
                               Eigen::RowVectorXd(w.T.topRightCorner(d, 1).transpose()))
             : Eigen::MatrixXd();
  const Eigen::MatrixXd& rows = merged ? mergedMapped : w.mapped;  // what the loss sees, whitened
  const Eigen::VectorXi& labels = merged ? merged->y : y;
  const Eigen::VectorXd* counts = merged ? &merged->counts : nullptr;

  // J in Φ' = T⁻ᵀΦT⁻¹: the loss of the mapped rows, and the regularizer of Φ = TᵀΦ'T, whose
  // gradient T(qΦ + c)Tᵀ is the original one pulled back. With P = TTᵀ and E = T c Tᵀ that
  // is qPΦ'P + E, and (q/2)‖Φ‖² + ⟨c, Φ⟩ = ⟨(q/2)PΦ'P + E, Φ'⟩: two products a class, not four.
  std::optional<ScreenedLmgcLoss> screened;
  // Rows sparse before whitening are evaluated through T (lmgc_sparse_rows.h).
  const std::optional<LmgcSparseRows> sparse = LmgcSparseRows::ifSparse(merged ? merged->rows : X, w.T);
  const Eigen::VectorXi own = owned.ownComponentsOfRows();  // computed once, by withOwnComponentsOf
  if (!mixture) screened.emplace(model, rows, labels, sparse ? &*sparse : nullptr, counts);
  const auto loss = [&](const Eigen::VectorXd& mapped, Eigen::VectorXd& grad) {
    if (!mixture) return (*screened)(mapped, grad);
    if (!sparse) return owned.lossSum(mapped, w.mapped, y, &grad);
    Eigen::MatrixXd W;
    const double value = lmgc_detail::mixtureLoss(sparse->scores(mapped, C), y, own, model.components(),
                                                  model.huberWidth(), &W);
    grad = sparse->weightedGram(W);
    return value;
  };
  const Eigen::MatrixXd P = w.T * Tt;
  const Eigen::VectorXd E = hasLinear ? congruence(terms.linear, Tt, C) : Eigen::VectorXd::Zero(model.parameterCount());
  const SmoothFunction objective = [&](const Eigen::VectorXd& mapped, Eigen::VectorXd& grad) {
    double value = weight * loss(mapped, grad);
    grad *= weight;
    for (Index c = 0; c < C; ++c) {
      const Eigen::Map<const Eigen::MatrixXd> phi(mapped.data() + c * D * D, D, D);
      const Eigen::Map<const Eigen::MatrixXd> e(E.data() + c * D * D, D, D);
      const Eigen::MatrixXd pull = terms.quadratic * (P * phi * P);
      value += (0.5 * pull + e).cwiseProduct(phi).sum();
      Eigen::Map<Eigen::MatrixXd>(grad.data() + c * D * D, D, D) += pull + e;
    }
    return value;
  };
  if (run != LmgcRun::Training) {
    // The original problem's stopping measure: Φ = TᵀΦ'T, ∇_Φ J = T⁻¹ ∇_Φ' J T⁻ᵀ.
    options.stationarity = [&](const Eigen::VectorXd& mapped, const Eigen::VectorXd& grad) {
      const Eigen::VectorXd phi = congruence(mapped, w.T, C);
      const Eigen::VectorXd g = congruence(grad, TinvT, C);
      double squared = 0;
      for (Index c = 0; c < C; ++c) {
        const Eigen::Map<const Eigen::MatrixXd> p(phi.data() + c * D * D, D, D);
        const Eigen::Map<const Eigen::MatrixXd> gc(g.data() + c * D * D, D, D);
        squared += (projectPsd(p - gc) - p).squaredNorm();
      }
      return ProjectedGradientOptions::Stationarity{std::sqrt(squared), phi.norm()};
    };
  }

  Eigen::VectorXd mapped = congruence(theta, w.Tinv, C);
  // The warm start's scale was fitted to the loss alone (LmgcModel::initialParameters); with
  // the regularizer its best scale can be far smaller (iris: 1/600, digits: 1/400), and
  // projected gradient then spends most of its iterations shrinking it. J(κθ) is convex in
  // κ ≥ 0 (the ray stays in the cone), so bisect its slope ⟨∇J(κθ), θ⟩ for the sign change.
  // Along the ray the margins are κ times those at κ = 1 and the regularizer is a quadratic
  // in κ, so one evaluation of the scores gives every slope in O(nC).
  // A mixture's soft minimum is not linear along the ray: its slope costs one gradient.
  if (run != LmgcRun::Private && mapped.squaredNorm() > 0) {
    const Eigen::MatrixXd scores = mixture ? Eigen::MatrixXd() : Eigen::MatrixXd(-model.scores(mapped, rows));
    const Eigen::VectorXd phi = congruence(mapped, w.T, C);
    const double curvature = terms.quadratic * phi.squaredNorm(), linear = hasLinear ? terms.linear.dot(phi) : 0.0;
    const auto lossSlope = [&](double kappa) {
      if (!mixture)
        return lmgc_detail::pairLossSlopeAlongRay(scores, labels, model.huberWidth(), kappa,
                                                  counts ? counts->data() : nullptr);
      Eigen::VectorXd grad;
      loss(kappa * mapped, grad);
      return grad.dot(mapped);
    };
    const auto slope = [&](double kappa) { return weight * lossSlope(kappa) + kappa * curvature + linear; };
    if (slope(0) < 0) {
      double lo = 0, hi = 1;
      for (int k = 0; k < 60 && slope(hi) < 0; ++k) {
        lo = hi;
        hi *= 2;
      }
      for (int k = 0; k < (mixture ? 12 : 30); ++k) {  // a mixture's slopes cost a gradient each
        const double mid = 0.5 * (lo + hi);
        (slope(mid) < 0 ? lo : hi) = mid;
      }
      mapped *= 0.5 * (lo + hi);
    } else {
      mapped.setZero();  // J grows along the whole ray: its best point is the origin
    }
  }
  const ProjectionFunction project = [&model](Eigen::VectorXd& t) { model.project(t); };
  OptimizeSummary summary;
  if (options.validate() && !mixture) {
    summary = interiorThenProjectedGradient(
        {model, rows, labels, weight, terms.quadratic, terms.linear, w.T, sparse ? &*sparse : nullptr, counts}, objective,
        project, mapped, options, callback);
  } else if (options.validate() && mixture) {
    // L-BFGS over low-rank factors does the descent (lmgc_mixture_solver.h), projected
    // gradient decides; both share options.maxIterations.
    const LmgcMixtureProblem problem{w.mapped, y, own, model.classes(), model.components(), model.huberWidth(),
                                     weight, terms.quadratic, P, E, sparse ? &*sparse : nullptr};
    summary = minimizeLmgcMixture(problem, objective, project, mapped, options, callback);
  } else {
    summary = minimizeProjectedGradient(objective, project, mapped, options, callback);
  }
  theta = congruence(mapped, w.T, C);
  model.project(theta);  // rounding of the congruence may leave the cone by a hair
  return summary;
}

}  // namespace dpstudio
