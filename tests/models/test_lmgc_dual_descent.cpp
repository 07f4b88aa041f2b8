// LMGC's dual descent (lmgc_dual_descent.h): its two bounds bracket the minimum that the
// interior-point method finds independently, its point is feasible and has the J it reports,
// through an affine change of coordinates; it honours cancel and gives the same bits on any
// thread count; and the whitened solver, which starts with it where the pairs are few
// against the unknowns, stops at the minimum by the whole problem's own stopping measure.

#include <QTest>

#include <cmath>

#include "core/linalg/psd.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_dual_descent.h"
#include "core/models/lmgc_interior.h"
#include "core/models/lmgc_solver.h"
#include "core/models/objective.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// Rows x and their images under T = [A, −Am; 0, 1] (A well conditioned), as the whitened
// solver hands them to its methods: [x_w; 1] = T[x; 1].
struct AffineProblem {
  LmgcModel model;
  Eigen::MatrixXd X, mapped, T;
  Eigen::VectorXi y;
  Eigen::VectorXd linear;
  double lambda;

  AffineProblem(Eigen::Index n, Eigen::Index d, Eigen::Index C, double strength, Rng& rng)
      : model(d, C, 0.5), lambda(strength) {
    test::randomLabelledRows(n, d, C, rng, X, y);
    // Classes told apart by their means, so that the minimizer has margins to keep.
    for (Eigen::Index i = 0; i < n; ++i) X(i, y[i] % d) += 1.0;
    const Eigen::MatrixXd A = Eigen::MatrixXd::Identity(d, d) + 0.2 * test::gaussianMatrix(d, d, rng) / std::sqrt(d);
    const Eigen::VectorXd m = test::gaussianMatrix(d, 1, rng);
    T = Eigen::MatrixXd::Identity(d + 1, d + 1);
    T.topLeftCorner(d, d) = A;
    T.topRightCorner(d, 1) = -A * m;
    mapped = (X.rowwise() - m.transpose()) * A.transpose();
    linear = model.traceRegularizer(lambda);
  }
  LmgcInteriorProblem problem() const { return {model, mapped, y, 1.0, lambda, linear, T}; }
  ObjectiveTerms terms() const { return {LossScale::Sum, lambda, linear}; }
  // Φ_c = Tᵀx_cT: the original coordinates' class matrices.
  Eigen::VectorXd original(const Eigen::VectorXd& x) const {
    const Eigen::Index C = model.classes(), D = model.augmentedDim();
    Eigen::VectorXd theta(x.size());
    for (Eigen::Index c = 0; c < C; ++c)
      Eigen::Map<Eigen::MatrixXd>(theta.data() + c * D * D, D, D) = T.transpose() * model.classMatrix(x, c) * T;
    return theta;
  }
};

double smallestEigenvalueShare(const LmgcModel& model, const Eigen::VectorXd& theta) {
  double worst = HUGE_VAL;
  for (Eigen::Index c = 0; c < model.classes(); ++c) {
    const Eigen::VectorXd values = symmetricEigenvalues(model.classMatrix(theta, c));
    worst = std::min(worst, values.minCoeff() / std::max(values.maxCoeff(), 1e-300));
  }
  return worst;
}

}  // namespace

class TestLmgcDualDescent : public QObject {
  Q_OBJECT

 private slots:
  // D = 13, C = 3: the interior point solves it on its own, independently of the dual.
  void boundsBracketTheInteriorPointsMinimum() {
    Rng rng(3);
    const AffineProblem data(30, 12, 3, 0.05, rng);
    Eigen::VectorXd x;
    LmgcDualDescentOptions options;
    options.relativeGap = 1e-8;
    const LmgcDualDescentResult r = descendLmgcDual(data.problem(), x, options);
    QVERIFY(r.converged);
    QVERIFY2(r.evaluations > 10, qPrintable(QString::number(r.evaluations)));
    QVERIFY(r.primal >= r.dual);
    QVERIFY(r.primal - r.dual <= 1e-8 * std::abs(r.primal));

    // The point is feasible and its J, recomputed in original coordinates, is the one reported.
    const Eigen::VectorXd theta = data.original(x);
    QVERIFY(smallestEigenvalueShare(data.model, theta) >= -1e-12);
    const Objective J(data.model, data.X, data.y, data.terms());
    DPSTUDIO_COMPARE_REL(J.value(theta), r.primal, 1e-10);

    ProjectedGradientOptions tight;
    tight.absoluteTolerance = 1e-10;
    tight.relativeTolerance = 1e-12;
    Eigen::VectorXd solved = data.model.initialParameters(data.X, data.y);
    const OptimizeSummary summary = minimizeLmgcWhitened(data.model, data.X, data.y, data.terms(), solved, tight, {},
                                                         LmgcRun::ExactTraining);
    QCOMPARE(summary.termination, Termination::Converged);
    const double minimum = J.value(solved);
    QVERIFY2(r.dual <= minimum * (1 + 1e-12) && minimum <= r.primal * (1 + 1e-12),
             qPrintable(QStringLiteral("dual %1, minimum %2, primal %3").arg(r.dual, 0, 'g', 15).arg(minimum, 0, 'g', 15).arg(r.primal, 0, 'g', 15)));
  }

  void cancelsAndGivesTheSameBitsOnAnyThreadCount() {
    Rng rng(5);
    const AffineProblem data(60, 20, 4, 0.02, rng);
    int seen = 0;
    bool inOrder = true;
    LmgcDualDescentOptions stop;
    stop.callback = [&](const IterationInfo& info) {
      inOrder = inOrder && info.iteration == seen + 1 && info.gradientNorm >= 0;  // the gap
      return ++seen < 5;
    };
    Eigen::VectorXd x;
    const LmgcDualDescentResult cancelled = descendLmgcDual(data.problem(), x, stop);
    QVERIFY(cancelled.cancelled);
    QVERIFY(inOrder);
    QCOMPARE(cancelled.evaluations, 5);
    QCOMPARE(x.size(), data.model.parameterCount());

    LmgcDualDescentOptions options;
    options.relativeGap = 1e-7;
    Eigen::VectorXd one, two;
    LmgcDualDescentResult a, b;
    {
      const ScopedWorkerThreads threads(1);
      a = descendLmgcDual(data.problem(), one, options);
    }
    {
      const ScopedWorkerThreads threads(2);
      b = descendLmgcDual(data.problem(), two, options);
    }
    QVERIFY(a.converged);
    QCOMPARE(b.evaluations, a.evaluations);
    QCOMPARE(b.primal, a.primal);
    QVERIFY(one == two);
  }

  // D = 41, C = 3: beyond the interior point (2 583 unknowns), and 200 rows make 400 pairs,
  // few enough for the solver to start with the dual.
  void solverThroughTheDualStopsAtTheMinimum() {
    Rng rng(9);
    const AffineProblem data(200, 40, 3, 0.02, rng);
    QVERIFY(lmgcInteriorDimension(3, 41) > LmgcInteriorOptions{}.maxDimension);
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-8;
    options.relativeTolerance = 1e-9;
    options.maxIterations = 3000;
    Eigen::VectorXd theta = data.model.initialParameters(data.X, data.y);
    const OptimizeSummary summary =
        minimizeLmgcWhitened(data.model, data.X, data.y, data.terms(), theta, options, {}, LmgcRun::ExactTraining);
    QCOMPARE(summary.termination, Termination::Converged);

    // The whole problem's stopping measure at the answer.
    const Objective J(data.model, data.X, data.y, data.terms());
    Eigen::VectorXd grad;
    const double value = J(theta, grad);
    double squared = 0;
    for (Eigen::Index c = 0; c < 3; ++c) {
      const Eigen::MatrixXd phi = data.model.classMatrix(theta, c);
      squared += (projectPsd(phi - data.model.classMatrix(grad, c)) - phi).squaredNorm();
    }
    const double tolerance = std::max(options.absoluteTolerance, options.relativeTolerance * theta.norm());
    QVERIFY2(std::sqrt(squared) <= 1.01 * tolerance,
             qPrintable(QStringLiteral("measure %1, tolerance %2").arg(std::sqrt(squared)).arg(tolerance)));

    // And the dual's lower bound on the same problem (identity coordinates) is below it.
    const LmgcInteriorProblem plain{data.model, data.X, data.y, 1.0, data.lambda, data.linear,
                                    Eigen::MatrixXd::Identity(41, 41)};
    Eigen::VectorXd x;
    LmgcDualDescentOptions dual;
    dual.relativeGap = 1e-9;
    dual.maxEvaluations = 3000;
    const LmgcDualDescentResult r = descendLmgcDual(plain, x, dual);
    QVERIFY2(r.dual <= value * (1 + 1e-12) && value - r.dual <= 1e-7 * std::abs(value),
             qPrintable(QStringLiteral("dual %1, J %2").arg(r.dual, 0, 'g', 15).arg(value, 0, 'g', 15)));
  }
};

QTEST_GUILESS_MAIN(TestLmgcDualDescent)
#include "test_lmgc_dual_descent.moc"
