// LMGC, the model's mathematics: scores and the x̃ = [x; 1]/√2 convention, gradients against
// finite differences (loss, objective with the trace term, per-example), the privacy
// constants K and L, blocked and threaded evaluation, the projection and the trace term, and
// the factored objective of lmgc_factored.h, Newton's method on a face (lmgc_face.h).

#include <QTest>

#include <cmath>
#include <numbers>

#include <Eigen/Eigenvalues>

#include "core/linalg/psd.h"
#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_face.h"
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

  explicit RandomSolverProblem(Rng& rng) {
    test::randomLabelledRows(n, d, C, rng, X, y);
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

class TestLmgc : public QObject {
  Q_OBJECT

 private slots:
  void createValidates_data() {
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("C");
    QTest::addColumn<double>("h");
    QTest::addColumn<QString>("field");
    QTest::newRow("valid") << 3 << 4 << 0.5 << "";
    QTest::newRow("no_features") << 0 << 2 << 0.5 << "inputDim";
    QTest::newRow("one_class") << 2 << 1 << 0.5 << "classes";
    QTest::newRow("h_zero") << 2 << 2 << 0.0 << "huber";
    QTest::newRow("h_negative") << 2 << 2 << -1.0 << "huber";
    QTest::newRow("h_nan") << 2 << 2 << std::nan("") << "huber";
    QTest::newRow("h_infinite") << 2 << 2 << std::numeric_limits<double>::infinity() << "huber";
  }
  void createValidates() {
    QFETCH(int, d);
    QFETCH(int, C);
    QFETCH(double, h);
    QFETCH(QString, field);
    const auto made = LmgcModel::create(d, C, h);
    QCOMPARE(made.ok(), field.isEmpty());
    if (!made.ok()) {
      QCOMPARE(QString::fromStdString(made.error().field), field);
      QCOMPARE(made.error().kind, ErrorKind::InvalidPrivacy);
    } else {
      QCOMPARE(made.value().parameterCount(), Index(C * (d + 1) * (d + 1)));
      QCOMPARE(made.value().kind(), ModelKind::Lmgc);
      QVERIFY(made.value().isConstrained());
    }
  }

  void constants() {
    const ModelConstants k = LmgcModel(4, 5, 0.25).constants();
    DPSTUDIO_COMPARE_REL(k.gradientBound, std::sqrt(20.0), 1e-15);
    DPSTUDIO_COMPARE_REL(k.hessianBound, 10.0, 1e-15);
    QCOMPARE(k.hessianRank, Index(4));
    QCOMPARE(LmgcModel(4, 5).scoreDegree(), 2);
  }

  // ½((x−μ)ᵀΨ(x−μ) + θ) for a Φ built from (Ψ, μ, θ): pins the x̃ = [x; 1]/√2 convention,
  // and scores() = −s.
  void scoresAreHalfMahalanobisPlusOffset() {
    Rng rng(1);
    const Index d = 3;
    const LmgcModel model(d, 2);
    std::vector<Eigen::MatrixXd> phis;
    std::vector<Eigen::MatrixXd> shapes;
    std::vector<Eigen::VectorXd> centres;
    const double offsets[2] = {0.3, 1.7};
    for (int c = 0; c < 2; ++c) {
      const Eigen::MatrixXd g = test::gaussianMatrix(d, d, rng);
      shapes.push_back(g * g.transpose() + Eigen::MatrixXd::Identity(d, d));
      centres.push_back(test::gaussianMatrix(d, 1, rng));
      phis.push_back(phiFromEllipsoid(shapes[c], centres[c], offsets[c]));
    }
    const Eigen::VectorXd theta = model.packParameters(phis);
    const Eigen::MatrixXd X = test::gaussianMatrix(20, d, rng);
    const Eigen::MatrixXd s = model.scores(theta, X);
    for (Index i = 0; i < X.rows(); ++i) {
      for (int c = 0; c < 2; ++c) {
        const Eigen::VectorXd diff = X.row(i).transpose() - centres[c];
        const double expected = 0.5 * (diff.dot(shapes[c] * diff) + offsets[c]);
        DPSTUDIO_COMPARE_REL(-s(i, c), expected, 1e-12);
      }
    }
    const Eigen::VectorXi predicted = model.predict(theta, X);
    for (Index i = 0; i < X.rows(); ++i) QCOMPARE(predicted[i], s(i, 0) >= s(i, 1) ? 0 : 1);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("C");
    QTest::addColumn<double>("h");
    QTest::addColumn<bool>("psd");
    QTest::newRow("d1_C2_psd") << 1 << 2 << 0.5 << true;
    QTest::newRow("d1_C2_indefinite") << 1 << 2 << 0.5 << false;
    QTest::newRow("d3_C5_psd") << 3 << 5 << 0.5 << true;
    QTest::newRow("d3_C5_indefinite") << 3 << 5 << 0.5 << false;
    QTest::newRow("d4_C3_narrow_h") << 4 << 3 << 0.1 << false;
    QTest::newRow("d2_C5_wide_h") << 2 << 5 << 2.0 << true;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(int, d);
    QFETCH(int, C);
    QFETCH(double, h);
    QFETCH(bool, psd);
    Rng rng(static_cast<std::uint64_t>(100 * d + 10 * C + (psd ? 1 : 0)));
    const LmgcModel model(d, C, h);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(40, d, C, rng, X, y);
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 3.0, psd);
    Eigen::VectorXd grad;
    const double value = model.lossSum(theta, X, y, &grad);
    QVERIFY(value > 0);
    QCOMPARE(grad.size(), model.parameterCount());
    const double error = test::gradientError(
        [&](const Eigen::VectorXd& t) { return model.lossSum(t, X, y, nullptr); }, theta, grad);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
    // The gradient of a symmetric parameterization is symmetric in each class block.
    for (Index c = 0; c < C; ++c) {
      const Eigen::Map<const Eigen::MatrixXd> G(grad.data() + c * (d + 1) * (d + 1), d + 1, d + 1);
      QVERIFY((G - G.transpose()).norm() <= 1e-12 * (1 + G.norm()));
    }
  }

  // Several row blocks: the blocked evaluation must equal a one-example-at-a-time sum.
  // With d = 99 and C = 12 a chunk holds min(2^20 / (C(d+1)), 512) = 512 rows, so 2000
  // rows make three full chunks and a short one.
  void blockedEvaluationMatchesPerExample() {
    Rng rng(4);
    const LmgcModel model(99, 12);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(2000, 99, 12, rng, X, y);
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 2.0, false);
    Eigen::VectorXd grad;
    const double value = model.lossSum(theta, X, y, &grad);
    double sum = 0;
    Eigen::VectorXd gradSum = Eigen::VectorXd::Zero(model.parameterCount());
    for (Index i = 0; i < X.rows(); ++i) {
      Eigen::VectorXd gi;
      sum += model.lossSum(theta, X.middleRows(i, 1), y.segment(i, 1), &gi);
      gradSum += gi;
    }
    DPSTUDIO_COMPARE_REL(value, sum, 1e-11);
    QVERIFY((grad - gradSum).norm() <= 1e-11 * gradSum.norm());
  }

  // Rows are cut into chunks that depend on (C, d) only and partial sums are combined in
  // chunk order, so the bits do not depend on the thread count (a sweep replays exactly).
  void sameBitsOnAnyThreadCount() {
    Rng rng(6);
    const LmgcModel model(20, 6);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(3000, 20, 6, rng, X, y);
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 2.0, true);
    Eigen::VectorXd serialGrad, parallelGrad;
    double serial = 0, parallel = 0;
    {
      const ScopedWorkerThreads one(1);
      serial = model.lossSum(theta, X, y, &serialGrad);
    }
    {
      const ScopedWorkerThreads four(4);
      parallel = model.lossSum(theta, X, y, &parallelGrad);
    }
    QCOMPARE(parallel, serial);
    QVERIFY(parallelGrad == serialGrad);
    // The projection too (large enough here to run classes on threads).
    const LmgcModel wide(50, 4);
    Eigen::VectorXd serialTheta = test::randomLmgcTheta(wide, rng, 1.0, false);
    Eigen::VectorXd parallelTheta = serialTheta;
    {
      const ScopedWorkerThreads one(1);
      wide.project(serialTheta);
    }
    {
      const ScopedWorkerThreads four(4);
      wide.project(parallelTheta);
    }
    QVERIFY(parallelTheta == serialTheta);
  }

  void objectiveWithTraceTerm_data() {
    QTest::addColumn<int>("scale");
    QTest::addColumn<double>("quadratic");
    QTest::newRow("sum_trace") << int(LossScale::Sum) << 0.0;
    QTest::newRow("mean_trace_ridge") << int(LossScale::Mean) << 0.3;
  }
  void objectiveWithTraceTerm() {
    QFETCH(int, scale);
    QFETCH(double, quadratic);
    Rng rng(8);
    const LmgcModel model(3, 4);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(30, 3, 4, rng, X, y);
    const double lambda = 0.7;
    const Objective J(model, X, y, {static_cast<LossScale>(scale), quadratic, model.traceRegularizer(lambda)});
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 2.0, true);
    Eigen::VectorXd grad;
    const double value = J(theta, grad);
    double traces = 0;
    for (Index c = 0; c < 4; ++c) traces += model.classMatrix(theta, c).topLeftCorner(3, 3).trace();
    DPSTUDIO_COMPARE_REL(model.traceRegularizer(lambda).dot(theta), lambda * traces, 1e-13);
    DPSTUDIO_COMPARE_REL(value, J.value(theta), 1e-14);
    const double error =
        test::gradientError([&](const Eigen::VectorXd& t) { return J.value(t); }, theta, grad);
    QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
  }

  void perExampleGradientsSumToGradient() {
    Rng rng(12);
    const LmgcModel model(4, 5, 0.3);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(25, 4, 5, rng, X, y);
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 3.0, false);
    Eigen::VectorXd grad;
    model.lossSum(theta, X, y, &grad);
    const Eigen::MatrixXd G = model.perExampleGradients(theta, X, y);
    QCOMPARE(G.rows(), X.rows());
    QCOMPARE(G.cols(), model.parameterCount());
    QVERIFY((G.colwise().sum().transpose() - grad).norm() <= 1e-12 * (1 + grad.norm()));
    Eigen::VectorXd single;
    model.lossSum(theta, X.middleRows(3, 1), y.segment(3, 1), &single);
    QVERIFY((G.row(3).transpose() - single).norm() <= 1e-13 * (1 + single.norm()));
  }

  // The structured forms DP-SGD can use without the n × C(d+1)² matrix.
  void structuredPerExampleGradients() {
    Rng rng(13);
    const LmgcModel model(3, 4, 0.5);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(30, 3, 4, rng, X, y);
    const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 3.0, false);
    const Eigen::MatrixXd G = model.perExampleGradients(theta, X, y);
    const Eigen::VectorXd norms = model.perExampleGradientNorms(theta, X, y);
    QVERIFY((norms - G.rowwise().norm()).norm() <= 1e-13 * (1 + norms.norm()));
    const Eigen::VectorXd clip = (norms.array() > 0.5).select(0.5 / norms.array(), 1.0).matrix();
    const Eigen::VectorXd sum = model.weightedGradientSum(theta, X, y, clip);
    QVERIFY((sum - G.transpose() * clip).norm() <= 1e-13 * (1 + sum.norm()));
  }

  // ‖∇ℓ(θ; x, y)‖ ≤ K = √(C(C−1)) whenever ‖x‖ ≤ 1, attained at θ = 0 by a unit row
  // (every margin 0 < 1 − h, so every H' = −1).
  void gradientBoundK_data() {
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("C");
    QTest::newRow("d1_C2") << 1 << 2;
    QTest::newRow("d5_C5") << 5 << 5;
    QTest::newRow("d3_C10") << 3 << 10;
  }
  void gradientBoundK() {
    QFETCH(int, d);
    QFETCH(int, C);
    Rng rng(static_cast<std::uint64_t>(d * C));
    const LmgcModel model(d, C, 0.5);
    const double K = model.constants().gradientBound;
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(200, d, C, rng, X, y);
    double worst = 0;
    for (const double scale : {0.1, 1.0, 10.0, 1000.0}) {
      for (const bool psd : {true, false}) {
        const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, scale, psd);
        worst = std::max(worst, model.perExampleGradients(theta, X, y).rowwise().norm().maxCoeff());
      }
    }
    QVERIFY2(worst <= K * (1 + 1e-12), qPrintable(QString("%1 > %2").arg(worst).arg(K)));
    Eigen::MatrixXd unit = Eigen::MatrixXd::Zero(1, d);
    unit(0, 0) = 1;
    const Eigen::MatrixXd G =
        model.perExampleGradients(Eigen::VectorXd::Zero(model.parameterCount()), unit, Eigen::VectorXi::Zero(1));
    DPSTUDIO_COMPARE_REL(G.row(0).norm(), K, 1e-12);
  }

  // The Hessian of ℓ in the scores has largest eigenvalue ≤ L = C/(2h). Probe ℓ along
  // score directions v (θ moves by t·v_c·x̃x̃ᵀ/‖x̃‖⁴ in class c, so s_c moves by t·v_c) with
  // second differences; the top eigenvector, centred in the quadratic zone, attains L.
  void hessianBoundL_data() {
    QTest::addColumn<int>("C");
    QTest::addColumn<double>("h");
    QTest::newRow("C2_h0.5") << 2 << 0.5;
    QTest::newRow("C5_h0.5") << 5 << 0.5;
    QTest::newRow("C4_h0.1") << 4 << 0.1;
  }
  void hessianBoundL() {
    QFETCH(int, C);
    QFETCH(double, h);
    const Index d = 3;
    Rng rng(static_cast<std::uint64_t>(C) + 40);
    const LmgcModel model(d, C, h);
    const double L = model.constants().hessianBound;
    const Index D = d + 1;
    const auto secondDifference = [&](const Eigen::VectorXd& theta, const Eigen::MatrixXd& x, int label,
                                      const Eigen::VectorXd& v) {
      Eigen::VectorXd xt(D);
      xt << x.row(0).transpose(), 1.0;
      xt /= std::numbers::sqrt2;
      const Eigen::MatrixXd unitOuter = xt * xt.transpose() / std::pow(xt.squaredNorm(), 2);
      Eigen::VectorXd direction = Eigen::VectorXd::Zero(model.parameterCount());
      for (Index c = 0; c < C; ++c)
        Eigen::Map<Eigen::MatrixXd>(direction.data() + c * D * D, D, D) = v[c] * unitOuter;
      const Eigen::VectorXi yy = Eigen::VectorXi::Constant(1, label);
      const double eps = 1e-4;
      const auto f = [&](double t) { return model.lossSum(theta + t * direction, x, yy, nullptr); };
      return (f(eps) - 2 * f(0) + f(-eps)) / (eps * eps);
    };
    double worst = 0;
    for (int trial = 0; trial < 300; ++trial) {
      Eigen::MatrixXd x;
      Eigen::VectorXi label;
      test::randomLabelledRows(1, d, C, rng, x, label);
      // Scores spread around the quadratic zone: margins of order 1 ± h.
      const Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 2.0 * (1 + h), trial % 2 == 0);
      Eigen::VectorXd v = test::gaussianMatrix(C, 1, rng);
      v.normalize();
      worst = std::max(worst, secondDifference(theta, x, label[0], v));
    }
    QVERIFY2(worst <= L * (1 + 1e-4), qPrintable(QString("%1 > %2").arg(worst).arg(L)));
    // Attainment: θ with every margin exactly 1 (mid quadratic zone), v ∝ (C−1)e_y − Σ e_c.
    Eigen::MatrixXd x = Eigen::MatrixXd::Zero(1, d);
    x(0, 1) = 0.6;
    std::vector<Eigen::MatrixXd> phis(static_cast<std::size_t>(C), Eigen::MatrixXd::Zero(D, D));
    Eigen::VectorXd xt(D);
    xt << x.row(0).transpose(), 1.0;
    xt /= std::numbers::sqrt2;
    for (Index c = 1; c < C; ++c)
      phis[static_cast<std::size_t>(c)] = xt * xt.transpose() / std::pow(xt.squaredNorm(), 2);  // s_c = 1
    Eigen::VectorXd v = -Eigen::VectorXd::Ones(C);
    v[0] = C - 1;
    v.normalize();
    DPSTUDIO_COMPARE_REL(secondDifference(model.packParameters(phis), x, 0, v), L, 1e-5);
  }

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

  // Newton's method on a face (lmgc_face.h): from a point on the face of the cone's minimizer,
  // it reaches that minimizer in a few steps — with a wrong Hessian the line-searched steps
  // would converge linearly and stop at the step limit far from it.
  void faceNewtonReachesTheMinimizerOnItsFace() {
    Rng rng(23);
    const RandomSolverProblem random(rng);
    const LmgcModel& model = random.model;
    constexpr Index C = RandomSolverProblem::C, D = RandomSolverProblem::D;
    const Eigen::VectorXd minimizer = random.minimizer(rng, 1e-11);

    // A start on the minimizer's face: each S_c moved by up to 30 % of its eigenvalues.
    Eigen::VectorXd start = minimizer;
    Index faceDimension = 0;
    for (Index c = 0; c < C; ++c) {
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(model.classMatrix(minimizer, c));
      const Index k = (eig.eigenvalues().array() > 1e-6 * eig.eigenvalues().maxCoeff()).count();
      QVERIFY(k >= 1);
      faceDimension += k * (k + 1) / 2;
      const Eigen::MatrixXd U = eig.eigenvectors().rightCols(k);
      Eigen::MatrixXd S = eig.eigenvalues().tail(k).asDiagonal();
      const Eigen::MatrixXd G = test::gaussianMatrix(k, k, rng);
      S += 0.3 * eig.eigenvalues().tail(k).minCoeff() * (G + G.transpose()) / (2.0 * G.norm());
      Eigen::Map<Eigen::MatrixXd>(start.data() + c * D * D, D, D) = U * S * U.transpose();
    }
    const double atStart = random.J(start), atMinimizer = random.J(minimizer);
    QVERIFY(atStart > atMinimizer + 1e-6);
    Eigen::VectorXd x = start;
    const LmgcFaceResult result = minimizeLmgcOnFace(random.problem, x, 1e-6, 1e-9, 10);
    qInfo("face of %lld unknowns: %d Newton steps, J %.12g -> %.12g (minimizer %.12g)",
          static_cast<long long>(faceDimension), result.steps, atStart, result.objective, atMinimizer);
    QVERIFY2(result.steps <= 6, qPrintable(QString::number(result.steps)));
    DPSTUDIO_COMPARE_REL(result.objective, random.J(x), 1e-12);  // the face's J is J
    DPSTUDIO_COMPARE_REL(result.objective, atMinimizer, 1e-10);
    QVERIFY2((x - minimizer).norm() <= 1e-5 * minimizer.norm(), qPrintable(QString::number((x - minimizer).norm())));
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
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(model.classMatrix(minimizer, c));
      rankDeficient += eig.eigenvalues()[0] < 1e-8 * eig.eigenvalues().maxCoeff() ? 1 : 0;
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

  // Safe screening (lmgc_screening.h) skips rows, never terms: after small and large moves
  // from the reference, the screened loss and gradient equal the full ones — for the full
  // parameterization and for the factored objective — and small moves do skip rows.
  void screeningSkipsOnlyZeroTerms() {
    Rng rng(33);
    const Index d = 3, C = 3, D = d + 1, n = 600;
    Eigen::MatrixXd X(n, d);
    Eigen::VectorXi y(n);
    for (Index i = 0; i < n; ++i) {  // three blobs, far apart for their spread
      y[i] = static_cast<int>(i % C);
      for (Index j = 0; j < d; ++j) X(i, j) = (j == y[i] ? 4.0 : 0.0) + 0.5 * rng.normal();
    }
    const LmgcModel model(d, C, 0.5);
    const Eigen::VectorXd theta = 20.0 * model.initialParameters(X, y);  // most rows far beyond the margins
    Eigen::VectorXd direction = test::randomLmgcTheta(model, rng, 1.0, false);
    direction /= direction.norm();

    ScreenedLmgcLoss screened(model, X, y);
    Index fewest = n;
    for (const double step : {0.0, 1e-6, 1e-3, 1e-2, 10.0, 1e-4}) {
      const Eigen::VectorXd t = theta + step * theta.norm() * direction;
      Eigen::VectorXd full, partial;
      const double expected = model.lossSum(t, X, y, &full);
      const double value = screened(t, partial);
      DPSTUDIO_COMPARE_REL(value, expected, 1e-12);
      QVERIFY((partial - full).norm() <= 1e-12 * (1.0 + full.norm()));
      fewest = std::min(fewest, screened.computedRows());
    }
    QVERIFY2(fewest < n / 2, qPrintable(QString::number(fewest)));

    const std::vector<Index> ranks{D, 2, 3};
    const Eigen::VectorXd linear = model.traceRegularizer(0.1);
    const LmgcInteriorProblem problem{model, X, y, 1.0, 0.01, linear, Eigen::MatrixXd::Identity(D, D)};
    LmgcFactoredObjective factored(problem, ranks);
    const Eigen::VectorXd start = test::gaussianMatrix(D * factored.width(), 1, rng) * 3.0;
    const Eigen::VectorXd move = test::gaussianMatrix(start.size(), 1, rng).normalized();
    fewest = n;
    for (const double step : {0.0, 1e-6, 1e-3, 1e-1, 10.0, 1e-5}) {
      const Eigen::VectorXd f = start + step * start.norm() * move;
      Eigen::VectorXd full, partial;
      const double expected = LmgcFactoredObjective(problem, ranks)(f, full);
      const double value = factored(f, partial);
      DPSTUDIO_COMPARE_REL(value, expected, 1e-12);
      QVERIFY((partial - full).norm() <= 1e-12 * (1.0 + full.norm()));
      if (step > 0) fewest = std::min(fewest, factored.computedRows());
    }
    qInfo("factored objective: %lld of %lld rows computed at the fewest", static_cast<long long>(fewest), static_cast<long long>(n));
    QVERIFY2(fewest < 85 * n / 100, qPrintable(QString::number(fewest)));
  }

  void projectionAndTraceRegularizer() {
    Rng rng(21);
    const LmgcModel model(3, 3);
    Eigen::VectorXd theta = test::randomLmgcTheta(model, rng, 1.0, false);
    model.project(theta);
    for (Index c = 0; c < 3; ++c) QVERIFY(minSymmetricEigenvalue(model.classMatrix(theta, c)) >= -1e-12);
    const Eigen::VectorXd once = theta;
    model.project(theta);
    QVERIFY((theta - once).norm() <= 1e-13 * once.norm());  // idempotent
    const Eigen::VectorXd c = model.traceRegularizer(2.0);
    QCOMPARE(c.sum(), 2.0 * 3 * 3);  // λ on the d diagonal entries of each Ψ_c, nothing else
    QCOMPARE(c[3 * 4 + 3], 0.0);     // Φ_0[d, d] is not part of tr(Ψ_0)
  }
};

QTEST_APPLESS_MAIN(TestLmgc)
#include "test_lmgc.moc"
