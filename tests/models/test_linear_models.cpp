// Logistic regression, Huber SVM, one-vs-rest and softmax: gradients against finite
// differences, per-example gradients against the full one, the privacy constants K and L
// on rows with ‖x‖ ≤ 1, and sums that do not depend on the thread count.

#include <QTest>

#include <memory>

#include "core/learn/learner.h"
#include "core/models/huber.h"
#include "core/models/linear.h"
#include "core/models/objective.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/models/gradient_check.h"

using namespace dpstudio;
using dpstudio::test::gradientError;
using dpstudio::test::randomUnitBallRows;

namespace {

std::shared_ptr<Model> makeLinear(const QString& name, Index d, Index C) {
  const MarginLoss logistic{BinaryLoss::Logistic, 0.5};
  const MarginLoss huber{BinaryLoss::Huber, 0.3};
  if (name == "logistic") return std::make_shared<BinaryLinearModel>(d, logistic);
  if (name == "huber") return std::make_shared<BinaryLinearModel>(d, huber);
  if (name == "ovr-logistic") return std::make_shared<OneVsRestModel>(d, C, logistic);
  if (name == "ovr-huber") return std::make_shared<OneVsRestModel>(d, C, huber);
  return std::make_shared<SoftmaxModel>(d, C);
}

Eigen::VectorXi randomLabels(Index n, Index C, unsigned seed) {
  std::srand(seed);
  Eigen::VectorXi y(n);
  for (Index i = 0; i < n; ++i) y[i] = std::rand() % static_cast<int>(C);
  return y;
}

}  // namespace

class TestLinearModels : public QObject {
  Q_OBJECT

 private:
  void addModelRows() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("C");
    QTest::newRow("logistic d=1") << "logistic" << 1 << 2;
    QTest::newRow("logistic d=7") << "logistic" << 7 << 2;
    QTest::newRow("huber d=5") << "huber" << 5 << 2;
    QTest::newRow("ovr-logistic C=4") << "ovr-logistic" << 6 << 4;
    QTest::newRow("ovr-huber C=3") << "ovr-huber" << 4 << 3;
    QTest::newRow("softmax C=2") << "softmax" << 3 << 2;
    QTest::newRow("softmax C=10") << "softmax" << 8 << 10;
  }

 private slots:
  void gradientMatchesFiniteDifferences_data() { addModelRows(); }
  void gradientMatchesFiniteDifferences() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    const Eigen::MatrixXd X = randomUnitBallRows(5000, d, 3);  // > one row chunk
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 4);
    const Objective objective(*m, X, y, {LossScale::Mean, 0.01, Eigen::VectorXd::Random(m->parameterCount())});
    for (unsigned trial = 0; trial < 3; ++trial) {
      std::srand(10 + trial);
      const Eigen::VectorXd theta = 3.0 * Eigen::VectorXd::Random(m->parameterCount());
      Eigen::VectorXd grad;
      objective(theta, grad);
      const double error = gradientError([&](const Eigen::VectorXd& t) { return objective.value(t); }, theta, grad);
      QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
    }
  }

  void perExampleGradientsSumToTheGradient_data() { addModelRows(); }
  void perExampleGradientsSumToTheGradient() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    const Eigen::MatrixXd X = randomUnitBallRows(300, d, 5);
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 6);
    const Eigen::VectorXd theta = 2.0 * Eigen::VectorXd::Random(m->parameterCount());
    Eigen::VectorXd grad;
    const double loss = m->lossSum(theta, X, y, &grad);
    QCOMPARE(m->lossSum(theta, X, y, nullptr), loss);
    const Eigen::MatrixXd rows = m->perExampleGradients(theta, X, y);
    QCOMPARE(rows.rows(), X.rows());
    QVERIFY((rows.colwise().sum().transpose() - grad).norm() < 1e-10 * (1 + grad.norm()));
  }

  // Row i is the gradient of row i's loss alone (lossSum on that row), and DP-SGD's structured
  // forms (model.h: norms ‖x_i‖·‖r_i‖, clipped sum Xᵀ diag(a) R) equal what the rows give.
  void perExampleGradientsRowByRow_data() { addModelRows(); }
  void perExampleGradientsRowByRow() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    const Eigen::MatrixXd X = randomUnitBallRows(200, d, 9);
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 10);
    const Eigen::VectorXd theta = 2.0 * Eigen::VectorXd::Random(m->parameterCount());
    const Eigen::MatrixXd G = m->perExampleGradients(theta, X, y);
    for (Index i : {Index{0}, Index{57}, Index{199}}) {
      Eigen::VectorXd alone;
      m->lossSum(theta, X.row(i), y.segment(i, 1), &alone);
      QVERIFY((G.row(i).transpose() - alone).norm() <= 1e-12 * (1 + alone.norm()));
    }
    const Eigen::VectorXd norms = m->perExampleGradientNorms(theta, X, y);
    QVERIFY((norms - G.rowwise().norm()).norm() <= 1e-12 * (1 + norms.norm()));
    const double clip = 0.5 * norms.maxCoeff();
    const Eigen::VectorXd a = (norms.array() > clip).select(clip / norms.array(), 1.0).matrix();
    QVERIFY(a.minCoeff() < 1.0);  // some rows are clipped
    const Eigen::VectorXd sum = m->weightedGradientSum(theta, X, y, a);
    QVERIFY((sum - G.transpose() * a).norm() <= 1e-12 * (1 + sum.norm()));
    // DP-SGD's step, the rows evaluated once: the clipped sum of the per-example gradients.
    const Eigen::VectorXd clipped = m->clippedGradientSum(theta, X, y, clip);
    QVERIFY((clipped - G.transpose() * a).norm() <= 1e-12 * (1 + clipped.norm()));
  }

  // K: ‖∇ℓ‖ ≤ K for every example with ‖x‖ ≤ 1, at any θ (large θ saturates the loss).
  void gradientBoundHolds_data() { addModelRows(); }
  void gradientBoundHolds() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    Eigen::MatrixXd X = randomUnitBallRows(2000, d, 7);
    X.topRows(100).rowwise().normalize();  // some rows exactly on the sphere
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 8);
    const double K = m->constants().gradientBound;
    for (double scale : {0.0, 1.0, 30.0}) {
      const Eigen::VectorXd theta = scale * Eigen::VectorXd::Random(m->parameterCount());
      const double largest = m->perExampleGradients(theta, X, y).rowwise().norm().maxCoeff();
      QVERIFY2(largest <= K * (1 + 1e-12), qPrintable(QString("%1 > K = %2").arg(largest).arg(K)));
    }
  }

  // L: the loss's second derivative along any direction of the scores is ≤ L.
  void hessianBoundHolds_data() { addModelRows(); }
  void hessianBoundHolds() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    const double L = m->constants().hessianBound;
    const Eigen::MatrixXd X = randomUnitBallRows(50, d, 9);
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 10);
    double worst = 0;
    for (int trial = 0; trial < 200; ++trial) {
      std::srand(100 + trial);
      const Index i = trial % X.rows();
      const Eigen::VectorXd theta = 0.5 * Eigen::VectorXd::Random(m->parameterCount());
      Eigen::VectorXd dir = Eigen::VectorXd::Random(m->parameterCount());
      // Curvature along dir, per unit of the scores' movement: f''(t)/‖Δscores‖².
      const Eigen::MatrixXd xi = X.row(i);
      const Eigen::VectorXi yi = y.segment(i, 1);
      const double h = 1e-3;
      auto f = [&](double t) { return m->lossSum(theta + t * dir, xi, yi, nullptr); };
      const double second = (f(h) - 2 * f(0) + f(-h)) / (h * h);
      const double moved = (m->scores(dir, xi)).squaredNorm();
      if (moved > 1e-3) worst = std::max(worst, second / moved);
    }
    QVERIFY2(worst <= L * (1 + 1e-2), qPrintable(QString("%1 > L = %2").arg(worst).arg(L)));
  }

  void sumsDoNotDependOnThreadCount() {
    const auto m = makeLinear("softmax", 20, 5);
    const Eigen::MatrixXd X = randomUnitBallRows(9000, 20, 11);
    const Eigen::VectorXi y = randomLabels(X.rows(), 5, 12);
    const Eigen::VectorXd theta = Eigen::VectorXd::Random(m->parameterCount());
    Eigen::VectorXd g1, g2;
    double l1, l2;
    {
      ScopedWorkerThreads one(1);
      l1 = m->lossSum(theta, X, y, &g1);
    }
    {
      ScopedWorkerThreads two(2);
      l2 = m->lossSum(theta, X, y, &g2);
    }
    QCOMPARE(l1, l2);  // bit for bit
    QVERIFY(g1 == g2);
  }

  // A sparse copy of the rows (LIBSVM-like data) changes the speed, not the numbers.
  void sparseRowsGiveTheSameLoss_data() { addModelRows(); }
  void sparseRowsGiveTheSameLoss() {
    QFETCH(QString, model);
    QFETCH(int, d);
    QFETCH(int, C);
    const auto m = makeLinear(model, d, C);
    Eigen::MatrixXd X = randomUnitBallRows(5000, d, 21);
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < X.cols(); ++j)
        if ((i * 7 + j * 3) % 10 != 0) X(i, j) = 0.0;  // 90% zeros
    const Eigen::VectorXi y = randomLabels(X.rows(), C, 22);
    const FeatureMatrix sparse = FeatureMatrix::withSparseIfWorthIt(X);
    QVERIFY(sparse.hasSparse());
    const Eigen::VectorXd theta = Eigen::VectorXd::Random(m->parameterCount());
    Eigen::VectorXd gDense, gSparse;
    const double lDense = m->lossSum(theta, X, y, &gDense);
    const double lSparse = m->lossSumOnRows(theta, sparse, y, &gSparse);
    QVERIFY(std::abs(lDense - lSparse) <= 1e-12 * std::abs(lDense));
    QVERIFY((gDense - gSparse).norm() <= 1e-12 * (1 + gDense.norm()));
  }

  // Rows prepared once (a sweep's) are used by fits on that very matrix and no other: a copy
  // with the same values gets its own, and the fit's result is the same either way.
  void preparedRowsServeOnlyTheirMatrix() {
    Eigen::MatrixXd X = randomUnitBallRows(2000, 12, 23);
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < X.cols(); ++j)
        if ((i + j) % 5 != 0) X(i, j) = 0.0;
    const Eigen::VectorXi y = randomLabels(X.rows(), 3, 24);
    TrainControl control;
    control.rows = std::make_shared<const FeatureMatrix>(FeatureMatrix::withSparseIfWorthIt(X));
    QVERIFY(control.rows->hasSparse());
    QCOMPARE(&rowsForFit(control, X).sparse(), &control.rows->sparse());
    const Eigen::MatrixXd copy = X;
    const FeatureMatrix own = rowsForFit(control, copy);
    QVERIFY(own.wraps(copy));
    QVERIFY(&own.sparse() != &control.rows->sparse());
    QCOMPARE(&sharingRows(control, X).rows->sparse(), &control.rows->sparse());
    QVERIFY(sharingRows(control, copy).rows->wraps(copy));

    const LearnerSpec spec{ModelKind::Softmax, 1e-3, 0.5};
    auto shared = trainModel(spec, X, y, 3, control);
    auto fresh = trainModel(spec, X, y, 3, TrainControl{});
    QVERIFY(shared && fresh);
    QVERIFY(shared.value().theta == fresh.value().theta);
  }

  void huberPiecesJoinSmoothly() {
    for (double h : {0.1, 0.5, 2.0}) {
      for (double knot : {1 - h, 1 + h}) {
        const double e = 1e-9;
        QVERIFY(std::abs(huber::loss(knot - e, h) - huber::loss(knot + e, h)) < 1e-8);
        QVERIFY(std::abs(huber::derivative(knot - e, h) - huber::derivative(knot + e, h)) < 1e-8);
      }
    }
  }

  // Logits far apart (raw 0–255 pixels give thousands at the first line-search trial): the
  // loss is the gap, finite, not log of an underflowed probability; and softmax trains on
  // unscaled rows.
  void softmaxLossIsFiniteForFarApartLogits() {
    SoftmaxModel model(1, 3);
    Eigen::VectorXd theta(3);
    theta << 0.0, 2000.0, 1000.0;  // logits 0, 2000, 1000 at x = 1
    const Eigen::MatrixXd X = Eigen::MatrixXd::Ones(1, 1);
    Eigen::VectorXd grad(3);
    const double loss = model.lossSum(theta, X, Eigen::VectorXi::Constant(1, 0), &grad);
    QCOMPARE(loss, 2000.0);
    QVERIFY(grad.allFinite());
    QCOMPARE(grad[0], -1.0);  // p − e_y with p = e₁

    Eigen::MatrixXd raw = randomUnitBallRows(300, 4, 5).cwiseAbs() * 255.0;
    Eigen::VectorXi y(300);
    for (Index i = 0; i < 300; ++i) y[i] = raw(i, 0) > raw(i, 1) ? 1 : 0;
    auto trained = trainModel({ModelKind::Softmax, 1e-5, 0.5}, raw, y, 2);
    QVERIFY(trained);
    QVERIFY2(trained.value().summary.termination == Termination::Converged, trained.value().summary.message.c_str());
    QVERIFY(accuracy(*trained.value().model, trained.value().theta, raw, y) > 0.95);
  }

  void trainedLogisticSeparatesSeparableData() {
    // Two blobs with a clear gap: logistic regression must classify them all.
    Eigen::MatrixXd X = randomUnitBallRows(400, 2, 13) * 0.3;
    Eigen::VectorXi y(400);
    for (Index i = 0; i < 400; ++i) {
      y[i] = i % 2;
      X(i, 0) += y[i] ? 0.6 : -0.6;
    }
    for (ModelKind kind : {ModelKind::LogisticRegression, ModelKind::HuberSvm, ModelKind::Softmax}) {
      auto trained = trainModel({kind, 1e-4, 0.5}, X, y, 2).value();
      QVERIFY(trained.summary.termination == Termination::Converged);
      QCOMPARE(accuracy(*trained.model, trained.theta, X, y), 1.0);
    }
  }

  void invalidSpecsAreRejectedBeforeWork_data() {
    QTest::addColumn<double>("lambda");
    QTest::addColumn<double>("huber");
    QTest::addColumn<QString>("field");
    QTest::newRow("lambda zero") << 0.0 << 0.5 << "lambda";
    QTest::newRow("lambda nan") << std::nan("") << 0.5 << "lambda";
    QTest::newRow("huber negative") << 1e-3 << -1.0 << "huber";
  }
  void invalidSpecsAreRejectedBeforeWork() {
    QFETCH(double, lambda);
    QFETCH(double, huber);
    QFETCH(QString, field);
    auto trained = trainModel({ModelKind::HuberSvm, lambda, huber}, Eigen::MatrixXd::Zero(4, 2),
                              Eigen::VectorXi::Zero(4), 2);
    QVERIFY(!trained.ok());
    QCOMPARE(QString::fromStdString(trained.error().field), field);
  }
};

QTEST_GUILESS_MAIN(TestLinearModels)
#include "test_linear_models.moc"
