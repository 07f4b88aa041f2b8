// The mixture's minimizer (core/models/lmgc_mixture_solver.h): its objective over low-rank
// factors is the θ-space objective at x_b = L_bL_bᵀ, value and gradient; its sums do not
// depend on the thread count; and the whole schedule reaches the minimum projected gradient
// alone reaches, with its own stopping measure met.

#include <QTest>

#include <cmath>

#include "core/models/lmgc.h"
#include "core/models/lmgc_components.h"
#include "core/models/lmgc_mixture_solver.h"
#include "core/optim/projected_gradient.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/models/gradient_check.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// A mixture problem on random rows (more rows than one chunk), with a metric P and a linear
// term E that are not the identity and zero, so every term of J is exercised.
struct Problem {
  static constexpr Index kClasses = 3, kComponents = 2, kDim = 3;
  Eigen::MatrixXd X;
  Eigen::VectorXi y, own;
  Eigen::MatrixXd P;
  Eigen::VectorXd E;
  double weight = 0.7, quadratic = 0.05;
  LmgcModel model{kDim, kClasses, 0.5, kComponents};
  LmgcModel owned = model;

  explicit Problem(unsigned seed, Index n = 700) {
    Rng rng(seed);
    X = test::gaussianMatrix(n, kDim, rng);
    y.resize(n);
    for (Index i = 0; i < n; ++i) y[i] = static_cast<int>(i % kClasses);
    for (Index i = 0; i < n; ++i) X(i, 0) += 1.5 * y[i];
    own = ownComponents(X, y, model.componentCentres(), kComponents);
    owned = model.withOwnComponentsOf(X, y);
    const Eigen::MatrixXd g = test::gaussianMatrix(kDim + 1, kDim + 1, rng);
    P = g * g.transpose() / (kDim + 1) + Eigen::MatrixXd::Identity(kDim + 1, kDim + 1);
    E = 0.1 * test::gaussianMatrix(model.parameterCount(), 1, rng);
  }
  LmgcMixtureProblem view() const {
    return {X, y, own, kClasses, kComponents, model.huberWidth(), weight, quadratic, P, E};
  }
  // J over θ, as lmgc_solver.cpp builds it.
  double full(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const {
    const Index D = kDim + 1;
    double value = weight * owned.lossSum(theta, X, y, &grad);
    grad *= weight;
    for (Index b = 0; b < model.blocks(); ++b) {
      const Eigen::Map<const Eigen::MatrixXd> phi(theta.data() + b * D * D, D, D);
      const Eigen::Map<const Eigen::MatrixXd> e(E.data() + b * D * D, D, D);
      const Eigen::MatrixXd pull = quadratic * (P * phi * P);
      value += (0.5 * pull + e).cwiseProduct(phi).sum();
      Eigen::Map<Eigen::MatrixXd>(grad.data() + b * D * D, D, D) += pull + e;
    }
    return value;
  }
};

std::vector<Index> someRanks() { return {1, 2, 3, 4, 2, 1}; }

}  // namespace

class TestLmgcMixtureSolver : public QObject {
  Q_OBJECT

 private slots:
  void factoredValueIsTheFullObjective() {
    const Problem p(7);
    const LmgcMixtureProblem view = p.view();
    const std::vector<Index> ranks = someRanks();
    LmgcMixtureFactoredObjective objective(view, ranks);
    Rng rng(8);
    const Index D = Problem::kDim + 1;
    const Eigen::MatrixXd L = 0.5 * test::gaussianMatrix(D, objective.width(), rng);
    const Eigen::VectorXd factors = Eigen::Map<const Eigen::VectorXd>(L.data(), L.size());
    Eigen::VectorXd grad;
    const double value = objective(factors, grad);
    Eigen::VectorXd theta(p.model.parameterCount()), fullGrad;
    Index column = 0;
    for (Index b = 0; b < p.model.blocks(); ++b) {
      const auto Lb = L.middleCols(column, ranks[static_cast<std::size_t>(b)]);
      Eigen::Map<Eigen::MatrixXd>(theta.data() + b * D * D, D, D) = Lb * Lb.transpose();
      column += ranks[static_cast<std::size_t>(b)];
    }
    const double expected = p.full(theta, fullGrad);
    QVERIFY2(std::abs(value - expected) <= 1e-10 * std::abs(expected), qPrintable(QString("%1 vs %2").arg(value).arg(expected)));
    // ∂J/∂L_b = (G_b + G_bᵀ)L_b with G the θ-space gradient.
    column = 0;
    for (Index b = 0; b < p.model.blocks(); ++b) {
      const Index r = ranks[static_cast<std::size_t>(b)];
      const Eigen::Map<const Eigen::MatrixXd> G(fullGrad.data() + b * D * D, D, D);
      const Eigen::MatrixXd chain = (G + G.transpose()) * L.middleCols(column, r);
      const Eigen::Map<const Eigen::MatrixXd> got(grad.data() + column * D, D, r);
      QVERIFY2((got - chain).norm() <= 1e-9 * (1 + chain.norm()), qPrintable(QString::number((got - chain).norm())));
      column += r;
    }
  }

  void factoredGradientMatchesFiniteDifferences() {
    const Problem p(11, 300);
    const LmgcMixtureProblem view = p.view();
    LmgcMixtureFactoredObjective objective(view, someRanks());
    Rng rng(12);
    const Eigen::VectorXd factors = 0.5 * test::gaussianMatrix(4 * objective.width(), 1, rng);
    Eigen::VectorXd grad;
    objective(factors, grad);
    const double error = test::gradientError(
        [&](const Eigen::VectorXd& f) {
          Eigen::VectorXd unused;
          return objective(f, unused);
        },
        factors, grad);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
  }

  void sameBitsOnAnyThreadCount() {
    const Problem p(13, 1500);
    const LmgcMixtureProblem view = p.view();
    LmgcMixtureFactoredObjective objective(view, someRanks());
    Rng rng(14);
    const Eigen::VectorXd factors = 0.5 * test::gaussianMatrix(4 * objective.width(), 1, rng);
    Eigen::VectorXd one, two;
    setWorkerThreads(1);
    const double a = objective(factors, one);
    setWorkerThreads(2);
    const double b = objective(factors, two);
    setWorkerThreads(0);
    QCOMPARE(a, b);
    QVERIFY(one == two);
  }

  void ranksReadOffTheBlocks() {
    const Index D = 4;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(2 * D * D);
    Eigen::Map<Eigen::MatrixXd>(x.data(), D, D).diagonal() << 10, 1, 1e-8, 0;
    Eigen::Map<Eigen::MatrixXd>(x.data() + D * D, D, D).diagonal() << 0, 0, 0, 0;
    const std::vector<Index> ranks = lmgcMixtureRanks(x, 2, D, 1e-6, 1);
    QCOMPARE(ranks[0], Index(3));  // two above 10⁻⁵, one spare
    QCOMPARE(ranks[1], Index(1));  // nothing above: the spare alone
  }

  // The schedule's minimum is projected gradient's after many more iterations, and its stopping
  // measure holds there.
  void reachesTheMinimum() {
    const Problem p(17, 600);
    const LmgcMixtureProblem view = p.view();
    const SmoothFunction objective = [&](const Eigen::VectorXd& t, Eigen::VectorXd& g) { return p.full(t, g); };
    const ProjectionFunction project = [&](Eigen::VectorXd& t) { p.model.project(t); };
    ProjectedGradientOptions options;
    options.absoluteTolerance = 1e-9;
    options.relativeTolerance = 1e-9;
    options.maxIterations = 3000;
    Eigen::VectorXd scheduled = Eigen::VectorXd::Zero(p.model.parameterCount());
    for (Index b = 0; b < p.model.blocks(); ++b)
      for (Index k = 0; k < 4; ++k) scheduled[b * 16 + k * 4 + k] = 0.1;
    Eigen::VectorXd alone = scheduled;
    const OptimizeSummary s = minimizeLmgcMixture(view, objective, project, scheduled, options, {});
    QCOMPARE(s.termination, Termination::Converged);
    options.maxIterations = 50000;
    options.absoluteTolerance = options.relativeTolerance = 1e-11;
    const OptimizeSummary r = minimizeProjectedGradient(objective, project, alone, options);
    Eigen::VectorXd unused;
    const double a = objective(scheduled, unused), b = objective(alone, unused);
    qInfo("schedule J %.12g in %d iterations; projected gradient alone %.12g in %d", a, s.iterations, b, r.iterations);
    QVERIFY2(a <= b + 1e-7 * std::abs(b), qPrintable(QString("%1 vs %2").arg(a, 0, 'g', 14).arg(b, 0, 'g', 14)));
    Eigen::VectorXd probe = scheduled;
    p.model.project(probe);
    QVERIFY((probe - scheduled).norm() <= 1e-12 * (1 + scheduled.norm()));  // feasible
  }
};

QTEST_APPLESS_MAIN(TestLmgcMixtureSolver)
#include "test_lmgc_mixture_solver.moc"
