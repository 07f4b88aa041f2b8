// The accelerated projected-gradient solver and the PSD-cone helpers it is used with:
// known minimizers (unconstrained and over the PSD cone), feasibility of every iterate,
// cancellation, warm starts, option validation.

#include <QTest>

#include <cmath>
#include <utility>
#include <vector>

#include <Eigen/QR>

#include "core/linalg/psd.h"
#include "core/optim/projected_gradient.h"
#include "core/random/rng.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using Index = Eigen::Index;

namespace {

Eigen::MatrixXd gaussianMatrix(Index rows, Index cols, Rng& rng) {
  Eigen::MatrixXd m(rows, cols);
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) m(i, j) = rng.normal();
  return m;
}

Eigen::MatrixXd randomSymmetric(Index k, Rng& rng) {
  const Eigen::MatrixXd g = gaussianMatrix(k, k, rng);
  return 0.5 * (g + g.transpose());
}

// An SPD matrix with eigenvalues spread log-uniformly over [1, condition].
Eigen::MatrixXd spdWithCondition(Index k, double condition, Rng& rng) {
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussianMatrix(k, k, rng));
  const Eigen::MatrixXd Q = qr.householderQ();
  Eigen::VectorXd lambda(k);
  for (Index i = 0; i < k; ++i)
    lambda[i] = k == 1 ? 1.0 : std::pow(condition, static_cast<double>(i) / static_cast<double>(k - 1));
  return Q * lambda.asDiagonal() * Q.transpose();
}

// θ = vec(Φ) of a k×k matrix, projected onto the PSD cone.
ProjectionFunction psdProjection(Index k) {
  return [k](Eigen::VectorXd& theta) {
    Eigen::Map<Eigen::MatrixXd> phi(theta.data(), k, k);
    projectPsdInPlace(phi);
  };
}

// J(Φ) = (a/2)‖Φ − M‖²_F: its minimizer over the PSD cone is the projection of sym(M).
SmoothFunction distanceTo(const Eigen::MatrixXd& M, double a) {
  const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(M.data(), M.size());
  return [target, a](const Eigen::VectorXd& theta, Eigen::VectorXd& grad) {
    grad = a * (theta - target);
    return 0.5 * a * (theta - target).squaredNorm();
  };
}

double minEigenvalueOf(const Eigen::VectorXd& theta, Index k) {
  return minSymmetricEigenvalue(Eigen::Map<const Eigen::MatrixXd>(theta.data(), k, k));
}

}  // namespace

class TestProjectedGradient : public QObject {
  Q_OBJECT

 private slots:
  void projectPsdKnownAnswer() {
    // diag(2, −1) rotated by 45°: the projection keeps the eigenvalue 2 only.
    const double s = std::sqrt(0.5);
    Eigen::Matrix2d R;
    R << s, -s, s, s;
    const Eigen::Matrix2d A = R * Eigen::Vector2d(2, -1).asDiagonal() * R.transpose();
    const Eigen::Matrix2d expected = R * Eigen::Vector2d(2, 0).asDiagonal() * R.transpose();
    QVERIFY((projectPsd(A) - expected).norm() < 1e-14);
    // An asymmetric input is symmetrized first; a PSD input comes back unchanged.
    Eigen::Matrix2d B;
    B << 2, 1, 0, 2;  // symmetric part [[2, .5], [.5, 2]] is PD
    Eigen::Matrix2d Bsym;
    Bsym << 2, 0.5, 0.5, 2;
    QCOMPARE(projectPsd(B), Eigen::MatrixXd(Bsym));
    QVERIFY(projectPsd(-Eigen::MatrixXd::Identity(3, 3)).isZero(0));
  }

  void projectPsdIsNearestPoint() {
    // Optimality of a Euclidean projection onto a convex cone: ⟨A − P, P⟩ = 0 and A − P ⪯ 0.
    Rng rng(11);
    for (int trial = 0; trial < 20; ++trial) {
      const Eigen::MatrixXd A = randomSymmetric(6, rng);
      const Eigen::MatrixXd P = projectPsd(A);
      QVERIFY(minSymmetricEigenvalue(P) >= -1e-12);
      QVERIFY(std::abs((A - P).cwiseProduct(P).sum()) < 1e-10);
      QVERIFY(minSymmetricEigenvalue(P - A) >= -1e-12);
    }
  }

  void symmetricBasis_data() {
    QTest::addColumn<int>("k");
    QTest::newRow("k1") << 1;
    QTest::newRow("k2") << 2;
    QTest::newRow("k5") << 5;
  }
  void symmetricBasis() {
    QFETCH(int, k);
    QCOMPARE(symmetricBasisDimension(k), Index(k * (k + 1) / 2));
    Rng rng(static_cast<std::uint64_t>(k));
    const Index m = symmetricBasisDimension(k);
    Eigen::VectorXd a(m), b(m);
    for (Index i = 0; i < m; ++i) {
      a[i] = rng.normal();
      b[i] = rng.normal();
    }
    const Eigen::MatrixXd A = symmetricFromCoefficients(a, k);
    const Eigen::MatrixXd B = symmetricFromCoefficients(b, k);
    QVERIFY(A.isApprox(A.transpose(), 0));
    QVERIFY(std::abs(A.cwiseProduct(B).sum() - a.dot(b)) < 1e-12);   // ⟨A, B⟩_F = aᵀb
    QVERIFY((coefficientsFromSymmetric(A) - a).norm() < 1e-13);       // round trip
    // Orthonormality: the basis matrices themselves.
    for (Index i = 0; i < m; ++i) {
      const Eigen::MatrixXd Bi = symmetricFromCoefficients(Eigen::VectorXd::Unit(m, i), k);
      QVERIFY(std::abs(Bi.squaredNorm() - 1) < 1e-14);
    }
    // For an asymmetric matrix the coefficients are those of its symmetric part.
    const Eigen::MatrixXd G = gaussianMatrix(k, k, rng);
    QVERIFY((symmetricFromCoefficients(coefficientsFromSymmetric(G), k) - 0.5 * (G + G.transpose()))
                .norm() < 1e-13);
  }

  void unconstrainedQuadratic_data() {
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("condition");
    QTest::newRow("dim1") << 1 << 1.0;
    QTest::newRow("dim5_cond10") << 5 << 10.0;
    QTest::newRow("dim50_cond1000") << 50 << 1000.0;
  }
  void unconstrainedQuadratic() {
    QFETCH(int, dim);
    QFETCH(double, condition);
    Rng rng(3);
    const Eigen::MatrixXd A = spdWithCondition(dim, condition, rng);
    const Eigen::VectorXd b = gaussianMatrix(dim, 1, rng);
    const Eigen::VectorXd solution = A.llt().solve(b);
    const SmoothFunction f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = A * x - b;
      return 0.5 * x.dot(A * x) - b.dot(x);
    };
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(dim);
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-10;
    options.relativeTolerance = 0;
    const OptimizeSummary summary = minimizeProjectedGradient(f, {}, theta, options);
    QCOMPARE(summary.termination, Termination::Converged);
    QVERIFY(summary.gradientNorm <= 1e-10);
    QVERIFY((theta - solution).norm() <= 1e-10 * condition * (1 + solution.norm()));
    QVERIFY(summary.evaluations >= summary.iterations);
    QVERIFY(summary.seconds >= 0);
  }

  // Over the PSD cone, J(Φ) = (a/2)‖Φ − M‖² is minimized by the projection of M.
  void quadraticOverPsdCone_data() {
    QTest::addColumn<int>("k");
    QTest::addColumn<double>("curvature");
    QTest::newRow("k2") << 2 << 1.0;
    QTest::newRow("k5_steep") << 5 << 40.0;
    QTest::newRow("k12_flat") << 12 << 0.05;
  }
  void quadraticOverPsdCone() {
    QFETCH(int, k);
    QFETCH(double, curvature);
    Rng rng(static_cast<std::uint64_t>(k) + 100);
    const Eigen::MatrixXd M = gaussianMatrix(k, k, rng);  // asymmetric on purpose
    const Eigen::MatrixXd expected = projectPsd(M);
    Eigen::VectorXd theta = gaussianMatrix(k * k, 1, rng);  // infeasible start
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-11;
    options.relativeTolerance = 0;
    const OptimizeSummary summary =
        minimizeProjectedGradient(distanceTo(M, curvature), psdProjection(k), theta, options);
    QCOMPARE(summary.termination, Termination::Converged);
    const Eigen::MatrixXd result = Eigen::Map<const Eigen::MatrixXd>(theta.data(), k, k);
    QVERIFY2((result - expected).norm() <= 1e-9 * (1 + expected.norm()),
             qPrintable(QString::number((result - expected).norm())));
    QVERIFY(minEigenvalueOf(theta, k) >= -1e-12);
    DPSTUDIO_COMPARE_REL(summary.objective, 0.5 * curvature * (result - M).squaredNorm(), 1e-12);
  }

  // Every accepted iterate is feasible. The callback receives values only, so the objective
  // records every point it is evaluated at, and the callback finds the iterate among them
  // by its objective value (the iterate was evaluated; extrapolated points may be infeasible
  // and are not iterates).
  void iteratesStayPsd() {
    const Index k = 6;
    Rng rng(77);
    const Eigen::MatrixXd M = randomSymmetric(k, rng) - 0.5 * Eigen::MatrixXd::Identity(k, k);
    const SmoothFunction base = distanceTo(M, 3.0);
    std::vector<std::pair<double, Eigen::VectorXd>> evaluated;
    const SmoothFunction f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      const double value = base(x, g);
      evaluated.emplace_back(value, x);
      return value;
    };
    int checked = 0;
    double worst = 0;
    const IterationCallback callback = [&](const IterationInfo& info) {
      for (auto it = evaluated.rbegin(); it != evaluated.rend(); ++it) {
        if (it->first != info.objective) continue;
        worst = std::min(worst, minEigenvalueOf(it->second, k));
        ++checked;
        break;
      }
      return true;
    };
    Eigen::VectorXd theta = gaussianMatrix(k * k, 1, rng) * 5;
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-12;
    options.relativeTolerance = 0;
    const OptimizeSummary summary = minimizeProjectedGradient(f, psdProjection(k), theta, options, callback);
    QCOMPARE(summary.termination, Termination::Converged);
    QVERIFY(summary.iterations > 3);
    QCOMPARE(checked, summary.iterations);
    QVERIFY(worst >= -1e-12);
    QVERIFY(minEigenvalueOf(theta, k) >= -1e-12);
  }

  void cancellationLeavesFeasiblePoint() {
    const Index k = 8;
    Rng rng(5);
    const Eigen::MatrixXd M = randomSymmetric(k, rng);
    Eigen::VectorXd theta = gaussianMatrix(k * k, 1, rng) * 10;
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-14;
    options.relativeTolerance = 0;
    options.initialStep = 1e-3;  // slow on purpose, so it cannot converge in 3 iterations
    options.stepGrowth = 1;
    const IterationCallback stopAtThree = [](const IterationInfo& info) { return info.iteration < 3; };
    const OptimizeSummary summary =
        minimizeProjectedGradient(distanceTo(M, 1.0), psdProjection(k), theta, options, stopAtThree);
    QCOMPARE(summary.termination, Termination::Cancelled);
    QCOMPARE(summary.iterations, 3);
    QVERIFY(!summary.usable());
    QVERIFY(minEigenvalueOf(theta, k) >= -1e-12);
    QVERIFY(Eigen::Map<const Eigen::MatrixXd>(theta.data(), k, k).isApprox(
        Eigen::Map<const Eigen::MatrixXd>(theta.data(), k, k).transpose(), 1e-15));
  }

  // The stopping measure taken every 4th iteration: the same iterates (the steps never read
  // it), a stop at most 3 iterations after the every-iteration run's and never before it, the
  // stopping measure counted only where it was taken, and the returned measure the final θ's.
  void measureEveryFourthStepTakesTheSameSteps() {
    const Index k = 9;
    Rng rng(41);
    const Eigen::MatrixXd S = spdWithCondition(k * k, 1e3, rng);
    const Eigen::MatrixXd M = randomSymmetric(k, rng);
    const Eigen::VectorXd target = Eigen::Map<const Eigen::VectorXd>(M.data(), k * k);
    int measures = 0;
    const SmoothFunction f = [&](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = S * (x - target);
      return 0.5 * (x - target).dot(g);
    };
    const Eigen::VectorXd start = gaussianMatrix(k * k, 1, rng);
    const auto run = [&](int every, Eigen::VectorXd& theta, std::vector<double>& reported) {
      ProjectedGradientOptions options;
      options.absoluteTolerance = 1e-9;
      options.relativeTolerance = 0;
      options.measureEvery = every;
      options.stationarity = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& g) {
        ++measures;
        Eigen::VectorXd stepped = x - g;
        psdProjection(k)(stepped);
        return ProjectedGradientOptions::Stationarity{(stepped - x).norm(), x.norm()};
      };
      measures = 0;
      theta = start;
      reported.clear();
      const IterationCallback record = [&](const IterationInfo& info) {
        reported.push_back(info.gradientNorm);
        return true;
      };
      return minimizeProjectedGradient(f, psdProjection(k), theta, options, record);
    };
    Eigen::VectorXd everyStep, everyFourth;
    std::vector<double> reportedEvery, reportedFourth;
    const OptimizeSummary a = run(1, everyStep, reportedEvery);
    const int measuresEvery = measures;
    const OptimizeSummary b = run(4, everyFourth, reportedFourth);
    QCOMPARE(a.termination, Termination::Converged);
    QCOMPARE(b.termination, Termination::Converged);
    QVERIFY2(a.iterations > 20, qPrintable(QString::number(a.iterations)));
    QVERIFY(b.iterations >= a.iterations && b.iterations <= a.iterations + 3);
    QCOMPARE(b.iterations % 4, 0);
    QVERIFY(measures < measuresEvery / 2);
    // The same steps: every 4th iteration's measure is the every-step run's, bit for bit.
    for (int i = 3; i < a.iterations; i += 4) QCOMPARE(reportedFourth[std::size_t(i)], reportedEvery[std::size_t(i)]);
    QVERIFY(b.gradientNorm <= 1e-9);
    Eigen::VectorXd stepped = everyFourth - S * (everyFourth - target);
    psdProjection(k)(stepped);
    DPSTUDIO_COMPARE_REL(b.gradientNorm, (stepped - everyFourth).norm(), 1e-12);
  }

  void warmStartAtOptimum() {
    const Index k = 7;
    Rng rng(9);
    const Eigen::MatrixXd M = randomSymmetric(k, rng);
    const Eigen::MatrixXd optimum = projectPsd(M);
    Eigen::VectorXd theta = Eigen::Map<const Eigen::VectorXd>(optimum.data(), k * k);
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-10;
    options.relativeTolerance = 0;
    const OptimizeSummary summary =
        minimizeProjectedGradient(distanceTo(M, 2.0), psdProjection(k), theta, options);
    QCOMPARE(summary.termination, Termination::Converged);
    QVERIFY(summary.iterations <= 2);
    QVERIFY((theta - Eigen::Map<const Eigen::VectorXd>(optimum.data(), k * k)).norm() < 1e-10);
  }

  void invalidOptionsNameTheField_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("which");
    QTest::newRow("tolerances_zero") << "tolerance" << 0;
    QTest::newRow("tolerance_negative") << "tolerance" << 1;
    QTest::newRow("max_iterations") << "maxIterations" << 2;
    QTest::newRow("initial_step_zero") << "initialStep" << 3;
    QTest::newRow("initial_step_nan") << "initialStep" << 4;
    QTest::newRow("backtracking_one") << "backtrackingFactor" << 5;
    QTest::newRow("step_growth_small") << "stepGrowth" << 6;
    QTest::newRow("max_backtracks") << "maxBacktracks" << 7;
    QTest::newRow("measure_every") << "measureEvery" << 8;
  }
  void invalidOptionsNameTheField() {
    QFETCH(QString, field);
    QFETCH(int, which);
    ProjectedGradientOptions o;
    QVERIFY(o.validate().ok());
    switch (which) {
      case 0: o.absoluteTolerance = o.relativeTolerance = 0; break;
      case 1: o.relativeTolerance = -1; break;
      case 2: o.maxIterations = 0; break;
      case 3: o.initialStep = 0; break;
      case 4: o.initialStep = std::nan(""); break;
      case 5: o.backtrackingFactor = 1; break;
      case 6: o.stepGrowth = 0.9; break;
      case 7: o.maxBacktracks = 0; break;
      case 8: o.measureEvery = 0; break;
    }
    const Status status = o.validate();
    QVERIFY(!status.ok());
    QCOMPARE(QString::fromStdString(status.error().field), field);
    Eigen::VectorXd theta = Eigen::VectorXd::Constant(4, 3.0);
    const OptimizeSummary summary =
        minimizeProjectedGradient(distanceTo(Eigen::MatrixXd::Zero(2, 2), 1), {}, theta, o);
    QCOMPARE(summary.termination, Termination::NumericalError);
    QVERIFY(QString::fromStdString(summary.message).contains(field));
    QCOMPARE(theta, Eigen::VectorXd::Constant(4, 3.0).eval());
  }

  void nonFiniteStartIsReported() {
    const SmoothFunction f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
      g = x;
      return std::log(-1.0);
    };
    Eigen::VectorXd theta = Eigen::VectorXd::Ones(3);
    const OptimizeSummary summary = minimizeProjectedGradient(f, {}, theta, {});
    QCOMPARE(summary.termination, Termination::NumericalError);
  }
};

QTEST_APPLESS_MAIN(TestProjectedGradient)
#include "test_projected_gradient.moc"
