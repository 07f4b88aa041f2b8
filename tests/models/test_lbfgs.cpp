// The L-BFGS boundary: known minimizers, cancellation as a termination, warm starts,
// option validation, and a non-finite objective reported rather than thrown.

#include <QTest>

#include <Eigen/Cholesky>

#include "core/optim/lbfgs.h"

using namespace dpstudio;

class TestLbfgs : public QObject {
  Q_OBJECT

 private slots:
  void quadraticReachesItsMinimizer() {
    // J(x) = ½ xᵀAx − bᵀx with A SPD: minimizer A⁻¹b.
    Eigen::MatrixXd M = Eigen::MatrixXd::Random(30, 30);
    const Eigen::MatrixXd A = M * M.transpose() + 0.5 * Eigen::MatrixXd::Identity(30, 30);
    const Eigen::VectorXd b = Eigen::VectorXd::Random(30);
    const Eigen::VectorXd expected = A.ldlt().solve(b);
    auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = A * x - b;
      return 0.5 * x.dot(A * x) - b.dot(x);
    };
    Eigen::VectorXd x = Eigen::VectorXd::Zero(30);
    LbfgsOptions options;
    options.absoluteTolerance = options.relativeTolerance = 1e-10;
    const auto summary = minimizeLbfgs(f, x, options);
    QVERIFY2(summary.termination == Termination::Converged,
             qPrintable(QString::fromStdString(terminationName(summary.termination) + " " + summary.message +
                                               " |g| = " + std::to_string(summary.gradientNorm))));
    QVERIFY((x - expected).norm() < 1e-7 * expected.norm());
    QVERIFY(summary.gradientNorm <= 1e-10 * std::max(1.0, x.norm()) * 1.0001);
  }

  // The limit bounds L-BFGS and the gradient polish after it together: --max-iterations 1
  // on MNIST once ran 164 iterations of polish.
  void iterationLimitHoldsForThePolishToo() {
    Eigen::VectorXd scales = Eigen::VectorXd::LinSpaced(200, 1.0, 1e4);  // κ = 1e4: many iterations
    auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = scales.cwiseProduct(x) - Eigen::VectorXd::Ones(200);
      return 0.5 * x.dot(scales.cwiseProduct(x)) - x.sum();
    };
    for (int limit : {1, 3, 10}) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(200);
      LbfgsOptions options;
      options.absoluteTolerance = options.relativeTolerance = 1e-12;
      options.maxIterations = limit;
      const auto summary = minimizeLbfgs(f, x, options);
      QVERIFY2(summary.iterations <= limit, qPrintable(QString("%1 iterations").arg(summary.iterations)));
      QCOMPARE(int(summary.termination), int(Termination::MaxIterations));
    }
  }

  void rosenbrock() {
    auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      const double a = 1 - x[0], b = x[1] - x[0] * x[0];
      g.resize(2);
      g[0] = -2 * a - 400 * x[0] * b;
      g[1] = 200 * b;
      return a * a + 100 * b * b;
    };
    Eigen::VectorXd x(2);
    x << -1.2, 1.0;
    const auto summary = minimizeLbfgs(f, x, {});
    QVERIFY(summary.usable());
    QVERIFY((x - Eigen::Vector2d(1, 1)).norm() < 1e-6);
  }

  void cancellationIsATermination() {
    auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = 2 * (x.array() - 3).matrix();
      return (x.array() - 3).square().sum() + 0.1 * x.array().pow(4).sum();
    };
    Eigen::VectorXd x = Eigen::VectorXd::Zero(5);
    int calls = 0;
    const auto summary = minimizeLbfgs(f, x, {}, [&](const IterationInfo&) { return ++calls < 2; });
    QCOMPARE(summary.termination, Termination::Cancelled);
    QVERIFY(x.allFinite());
  }

  void warmStartAtTheOptimumStopsAtOnce() {
    auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = 2 * (x.array() - 1).matrix();
      return (x.array() - 1).square().sum();
    };
    Eigen::VectorXd x = Eigen::VectorXd::Ones(4);
    const auto summary = minimizeLbfgs(f, x, {});
    QCOMPARE(summary.termination, Termination::Converged);
    QVERIFY(summary.iterations <= 1);  // LBFGSpp counts the initial check as one
  }

  // Loss perturbation on MNIST at ε = 0.1 has J ≈ −6e8: near the optimum the values differ
  // below their last digit, the line search shrinks its step until θ + αd == θ and asks for
  // the same point again and again (14 times in a row here without the hand-over). The second
  // repeat hands over to the gradient polish, which reaches the tolerance the values cannot.
  void lineSearchAtRoundOffHandsOverToThePolish() {
    const Eigen::VectorXd scales = Eigen::VectorXd::LinSpaced(50, 1.0, 100.0);
    auto quadratic = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = scales.cwiseProduct(x) - Eigen::VectorXd::Ones(50);
      return -6e8 + 0.5 * x.dot(scales.cwiseProduct(x)) - x.sum();
    };
    Eigen::VectorXd previous;
    int run = 0, longestRun = 0;
    auto f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      run = (previous.size() == x.size() && x == previous) ? run + 1 : 1;
      longestRun = std::max(longestRun, run);
      previous = x;
      return quadratic(x, g);
    };
    Eigen::VectorXd x = Eigen::VectorXd::Zero(50);
    LbfgsOptions options;
    options.absoluteTolerance = options.relativeTolerance = 1e-12;
    const auto summary = minimizeLbfgs(f, x, options);
    QVERIFY2(summary.termination == Termination::Converged,
             qPrintable(QString::fromStdString(terminationName(summary.termination) + " " + summary.message)));
    QVERIFY(summary.gradientNorm <= 1e-12 * std::max(1.0, x.norm()) * 1.0001);
    QVERIFY((x - scales.cwiseInverse()).norm() < 1e-10);
    // The scenario happened (a point was asked for twice in a row) and was cut short there:
    // the line search's two evaluations, then at most the polish's first, at the same point.
    QVERIFY2(longestRun >= 2 && longestRun <= 3, qPrintable(QString("%1 in a row").arg(longestRun)));
  }

  void nonFiniteObjectiveIsReported() {
    auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = Eigen::VectorXd::Constant(x.size(), std::nan(""));
      return std::nan("");
    };
    Eigen::VectorXd x = Eigen::VectorXd::Zero(3);
    const auto summary = minimizeLbfgs(f, x, {});
    QCOMPARE(summary.termination, Termination::NumericalError);
    QVERIFY(!summary.usable());
  }

  void invalidOptionsNameTheField() {
    LbfgsOptions options;
    options.memory = 0;
    QCOMPARE(QString::fromStdString(options.validate().error().field), QString("memory"));
    options = {};
    options.maxIterations = 0;
    QCOMPARE(QString::fromStdString(options.validate().error().field), QString("maxIterations"));
  }
};

QTEST_GUILESS_MAIN(TestLbfgs)
#include "test_lbfgs.moc"
