// LMGC trained with its own solver: the warm start, accuracy against a linear rule where
// classes differ by covariance, and the class centre read back from a trained model.

#include <QTest>

#include <cmath>
#include <numbers>

#include <Eigen/QR>

#include "core/sources/builtin.h"
#include "core/linalg/psd.h"
#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"
#include "core/random/rng.h"

using namespace dpstudio;
using Index = Eigen::Index;

namespace {

struct Trained {
  Eigen::VectorXd theta;
  OptimizeSummary summary;
};

// The recommended objective of lmgc.h: sum scale, λ·Σ tr(Ψ_c), no quadratic term.
Trained train(const LmgcModel& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
              double lambda, int maxIterations) {
  const Objective objective(model, X, y, {LossScale::Sum, 0.0, model.traceRegularizer(lambda)});
  Trained result{model.initialParameters(X, y), {}};
  ProjectedGradientOptions options;
  options.absoluteTolerance = 1e-6 * static_cast<double>(X.rows());
  options.relativeTolerance = 0;
  options.maxIterations = maxIterations;
  result.summary = minimizeProjectedGradient(
      objective, [&](Eigen::VectorXd& t) { model.project(t); }, result.theta, options);
  return result;
}

// The least-squares linear rule on [x, 1] (one-vs-rest targets ±1): the "linear" baseline.
double linearRuleAccuracy(const Eigen::MatrixXd& X, const Eigen::VectorXi& y, Index C) {
  Eigen::MatrixXd A(X.rows(), X.cols() + 1);
  A << X, Eigen::VectorXd::Ones(X.rows());
  Eigen::MatrixXd targets = -Eigen::MatrixXd::Ones(X.rows(), C);
  for (Index i = 0; i < X.rows(); ++i) targets(i, y[i]) = 1;
  const Eigen::MatrixXd W = A.colPivHouseholderQr().solve(targets);
  const Eigen::MatrixXd s = A * W;
  Index correct = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    Index best = 0;
    s.row(i).maxCoeff(&best);
    correct += best == y[i];
  }
  return static_cast<double>(correct) / static_cast<double>(X.rows());
}

// Two Gaussians with the same mean and crossed covariances diag(σ², 1) and diag(1, σ²):
// the Bayes rule |x₁| < |x₂| is quadratic, and no linear rule does much better than 1/2.
void crossData(int perClass, double sigma, Rng& rng, Eigen::MatrixXd& X, Eigen::VectorXi& y) {
  X.resize(2 * perClass, 2);
  y.resize(2 * perClass);
  for (int i = 0; i < 2 * perClass; ++i) {
    const int c = i < perClass ? 0 : 1;
    const double a = sigma * rng.normal(), b = rng.normal();
    X(i, 0) = c == 0 ? a : b;
    X(i, 1) = c == 0 ? b : a;
    y[i] = c;
  }
  X /= X.rowwise().norm().maxCoeff();
}

}  // namespace

class TestLmgcTraining : public QObject {
  Q_OBJECT

 private slots:
  void initialParametersAreFeasibleAndSensible() {
    BlobsOptions blobs;
    blobs.classes = 4;
    blobs.dim = 3;
    blobs.perClass = 60;
    blobs.separation = 6;
    Dataset data = makeBlobs(blobs);
    data.X /= data.X.rowwise().norm().maxCoeff();
    const LmgcModel model(3, 4);
    const Eigen::VectorXd theta = model.initialParameters(data.X, data.y);
    QCOMPARE(theta.size(), model.parameterCount());
    QVERIFY(theta.allFinite());
    for (Index c = 0; c < 4; ++c) QVERIFY(minSymmetricEigenvalue(model.classMatrix(theta, c)) >= -1e-10);
    QVERIFY(accuracy(model, theta, data.X, data.y) >= 0.95);
    // The warm start's centres are the class means.
    const auto ellipsoids = extractEllipsoids(model, theta);
    for (Index c = 0; c < 4; ++c) {
      Eigen::RowVectorXd mean = Eigen::RowVectorXd::Zero(3);
      for (Index i = 0; i < data.rows(); ++i)
        if (data.y[i] == c) mean += data.X.row(i) / 60.0;
      QVERIFY((ellipsoids[static_cast<std::size_t>(c)].centre - mean.transpose()).norm() < 1e-8);
    }
  }

  // LMGC with its own solver beats a linear rule where the classes differ by covariance.
  // Crossed covariances with a common mean defeat every linear rule; makeBlobs' two
  // anisotropic classes are nearly linearly separable, so there the gain is small but real.
  void trainingBeatsLinearRule_data() {
    QTest::addColumn<QString>("problem");
    QTest::addColumn<double>("minimumGain");
    QTest::newRow("crossed_covariances") << "cross" << 0.3;
    QTest::newRow("blobs_anisotropy4") << "blobs" << 0.02;
  }
  void trainingBeatsLinearRule() {
    QFETCH(QString, problem);
    QFETCH(double, minimumGain);
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    Rng rng(2024);
    if (problem == "cross") {
      crossData(200, 0.03, rng, X, y);  // Bayes accuracy 1 − (2/π)·atan(0.03) ≈ 0.98
    } else {
      BlobsOptions blobs;
      blobs.classes = 2;
      blobs.perClass = 200;
      blobs.separation = 3;
      blobs.anisotropy = 4;
      blobs.seed = 1;
      Dataset data = makeBlobs(blobs);
      X = data.X / data.X.rowwise().norm().maxCoeff();
      y = data.y;
    }
    const LmgcModel model(2, 2);
    const Trained trained = train(model, X, y, 1e-3, 3000);
    QVERIFY(trained.summary.usable());
    for (Index c = 0; c < 2; ++c) QVERIFY(minSymmetricEigenvalue(model.classMatrix(trained.theta, c)) >= -1e-10);
    const double lmgc = accuracy(model, trained.theta, X, y);
    const double linear = linearRuleAccuracy(X, y, 2);
    QVERIFY2(lmgc >= 0.95 && lmgc >= linear + minimumGain,
             qPrintable(QString("lmgc %1, linear %2").arg(lmgc).arg(linear)));
  }

  // Centres from a trained model. LMGC's trace regularizer drives Ψ towards low rank, so a
  // class's ellipsoid stays bounded only where the geometry demands it (a class between
  // well-separated neighbours typically opens into a cylinder, bounded = false). A Gaussian
  // class enclosed by a ring-shaped class must be cut out by a bounded ellipse of its own:
  // its centre is recovered.
  void trainedCentreOfEnclosedClass() {
    Rng rng(99);
    const Eigen::Vector2d truth(0.15, -0.1);
    const int perClass = 200;
    Eigen::MatrixXd X(2 * perClass, 2);
    Eigen::VectorXi y(2 * perClass);
    for (int k = 0; k < perClass; ++k) {
      X.row(k) = (truth + 0.08 * Eigen::Vector2d(rng.normal(), rng.normal())).transpose();
      y[k] = 0;
      const double angle = 2 * std::numbers::pi * rng.uniform01();
      const double radius = 0.6 + 0.03 * rng.normal();
      X.row(perClass + k) = (truth + radius * Eigen::Vector2d(std::cos(angle), std::sin(angle))).transpose();
      y[perClass + k] = 1;
    }
    const LmgcModel model(2, 2);
    const Trained trained = train(model, X, y, 1e-2, 3000);
    QVERIFY(trained.summary.usable());
    QCOMPARE(accuracy(model, trained.theta, X, y), 1.0);
    const auto ellipsoids = extractEllipsoids(model, trained.theta);
    const ClassEllipsoid& inner = ellipsoids[0];
    // The default display level t = 2 (one margin unit of score) holds the class's own
    // points here; the ring starts well outside it.
    QVERIFY(inner.levels(X.topRows(perClass)).maxCoeff() <= kDefaultEllipseLevel);
    QVERIFY(inner.levels(X.bottomRows(perClass)).minCoeff() >= 2 * kDefaultEllipseLevel);
    QVERIFY(inner.bounded);
    QVERIFY2((inner.centre - truth).norm() < 0.03, qPrintable(QString::number((inner.centre - truth).norm())));
  }
};

QTEST_APPLESS_MAIN(TestLmgcTraining)
#include "test_lmgc_training.moc"
