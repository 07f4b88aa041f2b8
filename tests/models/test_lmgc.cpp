// LMGC, the model's mathematics: scores and the x̃ = [x; 1]/√2 convention, gradients against
// finite differences (loss, objective with the trace term, per-example), the privacy
// constants K and L, blocked and threaded evaluation, the projection and the trace term, and
// safe screening. The solver's methods are in test_lmgc_solver.cpp.

#include <QTest>

#include <cmath>
#include <numbers>


#include "core/linalg/psd.h"
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
    QVERIFY(clip.minCoeff() < 1.0);  // some rows are clipped
    const Eigen::VectorXd clipped = model.clippedGradientSum(theta, X, y, 0.5);  // DP-SGD's step
    QVERIFY((clipped - G.transpose() * clip).norm() <= 1e-13 * (1 + clipped.norm()));
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

    // The reference's scores come from the loss's own evaluation: the same bits as both alone.
    Eigen::MatrixXd scores;
    Eigen::VectorXd withScores, alone;
    QCOMPARE(model.lossSumAndScores(theta, X, y, scores, &withScores), model.lossSum(theta, X, y, &alone));
    QVERIFY(scores == model.scores(theta, X) && withScores == alone);

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
