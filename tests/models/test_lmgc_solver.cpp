// LMGC's solver methods on one random instance of its problem (lmgc_interior.h's form): the
// factored objective, Newton's method on a face and the semismooth Newton method reach the
// cone's minimizer. Split from test_lmgc.cpp (the model's own tests).

#include <QTest>

#include <cmath>
#include <numbers>


#include "core/linalg/psd.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_screening.h"
#include "core/models/lmgc_semismooth.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/models/gradient_check.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// A random instance of the solver's problem (lmgc_interior.h's form): 600 rows in d = 3 (three
// row chunks of the factored objective, the last one short), C = 4 classes, a map T near the
// identity, the trace term plus noise as the linear term; J and ∇J from the model's own loss.
struct RandomSolverProblem {
  static constexpr Index d = 3, C = 4, D = d + 1, n = 600;
  LmgcModel model{d, C, 0.5};
  Eigen::MatrixXd X, T;
  Eigen::VectorXi y;
  Eigen::VectorXd linear;
  LmgcInteriorProblem problem{model, X, y, 0.5, 0.3, linear, {}};  // refers to the members above; T set below

  explicit RandomSolverProblem(Rng& rng, Index rows = n) {
    test::randomLabelledRows(rows, d, C, rng, X, y);
    T = Eigen::MatrixXd::Identity(D, D) + 0.3 * test::gaussianMatrix(D, D, rng);
    linear = model.traceRegularizer(0.7) + 0.1 * test::gaussianMatrix(model.parameterCount(), 1, rng);
    problem.T = T;  // held by value
  }
  RandomSolverProblem(const RandomSolverProblem&) = delete;
  RandomSolverProblem& operator=(const RandomSolverProblem&) = delete;

  // J(x) = w·loss + Σ_c (q/2)‖Tᵀx_cT‖² + ⟨c_c, Tᵀx_cT⟩, and ∇J = w·∇loss + T(qTᵀx_cT + c_c)Tᵀ.
  double J(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const {
    double value = problem.weight * model.lossSum(x, X, y, &grad);
    grad *= problem.weight;
    for (Index c = 0; c < C; ++c) {
      const Eigen::MatrixXd phi = T.transpose() * model.classMatrix(x, c) * T;
      const Eigen::Map<const Eigen::MatrixXd> lin(linear.data() + c * D * D, D, D);
      value += 0.5 * problem.quadratic * phi.squaredNorm() + lin.cwiseProduct(phi).sum();
      Eigen::Map<Eigen::MatrixXd>(grad.data() + c * D * D, D, D) += T * (problem.quadratic * phi + lin) * T.transpose();
    }
    return value;
  }
  double J(const Eigen::VectorXd& x) const {
    Eigen::VectorXd unused;
    return J(x, unused);
  }
  // The minimizer over the cone by projected gradient, from a random PSD start.
  Eigen::VectorXd minimizer(Rng& rng, double tolerance) const {
    ProjectedGradientOptions cone;
    cone.absoluteTolerance = tolerance;
    cone.relativeTolerance = 0;
    cone.maxIterations = 50000;
    Eigen::VectorXd x = test::randomLmgcTheta(model, rng, 1.0, true);
    const OptimizeSummary summary = minimizeProjectedGradient(
        [this](const Eigen::VectorXd& t, Eigen::VectorXd& g) { return J(t, g); },
        [this](Eigen::VectorXd& t) { model.project(t); }, x, cone);
    if (summary.termination != Termination::Converged) qWarning("the reference minimizer did not converge");
    return x;
  }
};

}  // namespace

class TestLmgcSolver : public QObject {
  Q_OBJECT

 private slots:
  // The factored objective (lmgc_factored.h) is J at x_c = L_cL_cᵀ — loss on the given rows,
  // regularizer through the map T — and its gradient matches finite differences; 600 rows
  // make three row chunks, the last one short. Its minimization lowers J and stays in the cone.
  void factoredObjectiveIsJOfTheProduct() {
    Rng rng(21);
    const RandomSolverProblem random(rng);
    const LmgcModel& model = random.model;
    const LmgcInteriorProblem& problem = random.problem;
    constexpr Index C = RandomSolverProblem::C, D = RandomSolverProblem::D;
    const std::vector<Index> ranks{1, 2, D, 3};
    const Index width = 1 + 2 + D + 3;
    const Eigen::VectorXd factors = test::gaussianMatrix(D * width, 1, rng);

    const auto product = [&](const Eigen::VectorXd& f) {
      std::vector<Eigen::MatrixXd> phis;
      for (Index c = 0, offset = 0; c < C; offset += ranks[static_cast<std::size_t>(c)], ++c) {
        const Eigen::Map<const Eigen::MatrixXd> L(f.data() + offset * D, D, ranks[static_cast<std::size_t>(c)]);
        phis.push_back(L * L.transpose());
      }
      return model.packParameters(phis);
    };
    Eigen::VectorXd grad;
    const double value = LmgcFactoredObjective(problem, ranks)(factors, grad);
    DPSTUDIO_COMPARE_REL(value, random.J(product(factors)), 1e-12);
    const double error = test::gradientError(
        [&](const Eigen::VectorXd& f) {
          Eigen::VectorXd unused;
          return LmgcFactoredObjective(problem, ranks)(f, unused);
        },
        factors, grad);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));

    // With every rank full, the factored minimum is the convex problem's (Burer & Monteiro):
    // compare with projected gradient over the cone.
    Eigen::VectorXd x = product(factors);
    LbfgsOptions options;
    options.maxIterations = 5000;
    options.absoluteTolerance = 1e-10;
    const std::vector<Index> full = lmgcFactorRanks(model, x, 0.0, D);
    QCOMPARE(full, std::vector<Index>(static_cast<std::size_t>(C), D));
    const OptimizeSummary summary = minimizeLmgcFactored(problem, x, full, options);
    QCOMPARE(summary.termination, Termination::Converged);
    const Eigen::VectorXd reference = random.minimizer(rng, 1e-10);
    DPSTUDIO_COMPARE_REL(random.J(x), random.J(reference), 1e-7);
    for (Index c = 0; c < C; ++c) {
      const Eigen::MatrixXd phi = model.classMatrix(x, c);
      QVERIFY((projectPsd(phi) - phi).norm() <= 1e-12 * (1 + phi.norm()));
    }
  }

  // The semismooth Newton method (lmgc_semismooth.h): from a point near the cone's minimizer
  // but off its face (every x_c moved in a random symmetric direction, then projected: ranks
  // and ranges both wrong), exact Newton steps (conjugate gradients to 10⁻¹⁰) reach the
  // fixed point, ‖F‖/α ≤ 10⁻⁹, in a few steps and land on the minimizer. A wrong generalized
  // Jacobian (the loss's or the regularizer's Hessian halved, or the cone's curvature
  // |λ_null|/λ_range dropped) converges linearly and stops at the step limit short of it.
  void semismoothNewtonReachesTheMinimizer() {
    Rng rng(25);
    const RandomSolverProblem random(rng);
    const LmgcModel& model = random.model;
    constexpr Index C = RandomSolverProblem::C;
    const Eigen::VectorXd minimizer = random.minimizer(rng, 1e-11);
    Index rankDeficient = 0;
    for (Index c = 0; c < C; ++c) {
      const Eigen::VectorXd eig = symmetricEigenvalues(model.classMatrix(minimizer, c));
      rankDeficient += eig[0] < 1e-8 * eig.maxCoeff() ? 1 : 0;
    }
    QVERIFY2(rankDeficient >= 2, "the instance should exercise the range-null blocks");

    Eigen::VectorXd x = minimizer + 0.02 * minimizer.norm() * test::randomLmgcTheta(model, rng, 1.0, false).normalized();
    model.project(x);
    const SmoothFunction J = [&](const Eigen::VectorXd& t, Eigen::VectorXd& g) { return random.J(t, g); };
    LmgcSemismoothOptions options;
    options.step = 0.1;
    options.tolerance = 1e-9;
    options.forcing = 1e-10;
    options.maxSteps = 6;
    const LmgcSemismoothResult result = minimizeLmgcSemismooth(random.problem, J, x, options);
    qInfo("semismooth Newton: %d steps, %d conjugate-gradient iterations, residual %.3g, J %.12g (minimizer %.12g)",
          result.steps, result.innerIterations, result.residual, random.J(x), random.J(minimizer));
    QVERIFY(result.built);
    QVERIFY2(result.steps <= 5, qPrintable(QString::number(result.steps)));
    QVERIFY2(result.residual <= 1e-9, qPrintable(QString::number(result.residual)));
    DPSTUDIO_COMPARE_REL(random.J(x), random.J(minimizer), 1e-10);
    QVERIFY2((x - minimizer).norm() <= 1e-5 * minimizer.norm(), qPrintable(QString::number((x - minimizer).norm())));
    for (Index c = 0; c < C; ++c) {
      const Eigen::MatrixXd phi = model.classMatrix(x, c);
      QVERIFY((projectPsd(phi) - phi).norm() <= 1e-12 * (1 + phi.norm()));
    }
  }

  // The interior point alone reaches the cone's minimizer to its measure's tolerance, in
  // tens of steps (19), over several row chunks (3 000 rows: two). Its pairs' margins follow
  // the steps (t·Δm, not a new evaluation of the scores): without that update, or with half of
  // it, it ends its 80 steps at J 4 530 against the minimum's 4 366.52 (projected gradient's,
  // to 10⁻¹⁰, agrees with the interior point's to 10⁻¹⁵ relative). The linear term is the
  // trace term alone: with this instance's noise added the interior point stalls 0.02 above
  // the minimum (before the margins followed the steps too), where the solver's projected
  // gradient finishes.
  void interiorPointAloneReachesTheMinimizer() {
    Rng rng(43);
    RandomSolverProblem random(rng, 3000);
    random.linear = random.model.traceRegularizer(0.7);
    const SmoothFunction J = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) { return random.J(x, g); };
    const auto step = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& grad) {
      Eigen::VectorXd stepped = x - grad;
      random.model.project(stepped);
      return (stepped - x).norm();
    };
    LmgcInteriorOptions options;
    options.maxIterations = 80;
    options.measure = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& grad, double& tolerance) {
      tolerance = 1e-7 * x.norm();
      return step(x, grad);
    };
    Eigen::VectorXd x = test::randomLmgcTheta(random.model, rng, 1.0, true);
    const LmgcInteriorResult result = minimizeLmgcInterior(random.problem, J, x, options);
    QCOMPARE(result.outcome, LmgcInteriorResult::Outcome::Converged);
    QVERIFY2(result.iterations <= 40, qPrintable(QString::number(result.iterations)));
    Eigen::VectorXd grad;
    QCOMPARE(J(x, grad), result.objective);
    // J is convex: the projected-gradient step's vanishing at a feasible x certifies its minimum.
    QVERIFY(step(x, grad) <= 1e-7 * x.norm());
    for (Index c = 0; c < RandomSolverProblem::C; ++c) {
      const Eigen::MatrixXd phi = random.model.classMatrix(x, c);
      QVERIFY((projectPsd(phi) - phi).norm() <= 1e-12 * (1 + phi.norm()));
    }
  }

  // The interior point's per-row work runs in row chunks and per class on the worker threads
  // (5 000 rows: three chunks): the same steps and bits on any thread count.
  void interiorPointSameBitsOnAnyThreadCount() {
    Rng rng(41);
    const RandomSolverProblem random(rng, 5000);
    LmgcInteriorOptions options;
    options.maxIterations = 8;
    options.measure = [](const Eigen::VectorXd&, const Eigen::VectorXd&, double& tolerance) {
      tolerance = 0;
      return 1.0;  // never met: every step is taken
    };
    const SmoothFunction J = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) { return random.J(x, g); };
    Eigen::VectorXd one = test::randomLmgcTheta(random.model, rng, 1.0, true), two = one;
    LmgcInteriorResult a, b;
    {
      const ScopedWorkerThreads threads(1);
      a = minimizeLmgcInterior(random.problem, J, one, options);
    }
    {
      const ScopedWorkerThreads threads(2);
      b = minimizeLmgcInterior(random.problem, J, two, options);
    }
    QVERIFY2(a.iterations >= 3, qPrintable(QString::number(a.iterations)));
    QCOMPARE(b.iterations, a.iterations);
    QVERIFY(one == two);
  }
};

QTEST_APPLESS_MAIN(TestLmgcSolver)
#include "test_lmgc_solver.moc"
