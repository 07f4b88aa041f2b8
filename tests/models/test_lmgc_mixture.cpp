// LMGC with a mixture of M Gaussians per class (docs/algorithms.md §2.3 "Mixtures", §3 D):
// the loss and its gradient, the constants K, L, r the private calibrations use (checked
// numerically, with the single-Gaussian L shown too small for a mixture), the components'
// centres, and a problem one ellipsoid per class cannot fit but two can.

#include <QTest>

#include <algorithm>
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/learn/learner.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_components.h"
#include "core/models/lmgc_mixture_loss.h"
#include "core/random/rng.h"
#include "tests/common/test_support.h"
#include "tests/models/gradient_check.h"
#include "tests/models/lmgc_test_util.h"

using namespace dpstudio;

namespace {

// Random symmetric block matrices for every block of a mixture (randomLmgcTheta covers classes).
Eigen::VectorXd randomBlocks(const LmgcModel& model, Rng& rng, double scale) {
  const Index D = model.augmentedDim();
  std::vector<Eigen::MatrixXd> phis;
  for (Index b = 0; b < model.blocks(); ++b) {
    const Eigen::MatrixXd g = test::gaussianMatrix(D, D, rng);
    phis.push_back(scale * g * g.transpose() / static_cast<double>(D));
  }
  return model.packParameters(phis);
}

// The Hessian of one row's mixture loss in its C·M scores, by central differences of the
// analytic gradient W (continuous, and smooth away from the Huber hinge's two knots).
Eigen::MatrixXd scoreHessian(const Eigen::RowVectorXd& s, int label, int own, Index M, double h) {
  const Index B = s.size();
  const Eigen::VectorXi y = Eigen::VectorXi::Constant(1, label), p = Eigen::VectorXi::Constant(1, own);
  Eigen::MatrixXd H(B, B), Wplus, Wminus;
  const double step = 1e-6;
  for (Index j = 0; j < B; ++j) {
    Eigen::RowVectorXd up = s, down = s;
    up[j] += step;
    down[j] -= step;
    lmgc_detail::mixtureLoss(up, y, p, M, h, &Wplus);
    lmgc_detail::mixtureLoss(down, y, p, M, h, &Wminus);
    H.col(j) = (Wplus - Wminus).transpose() / (2 * step);
  }
  return 0.5 * (H + H.transpose());
}

// Two classes in alternating blobs along the first axis (0, 1, 0, 1 at −0.75, −0.25, 0.25,
// 0.75): a quadratic score difference has at most two roots on that line, so one Gaussian
// per class misclassifies one blob at least; two components per class separate all four.
void alternatingBlobs(int perBlob, Rng& rng, Eigen::MatrixXd& X, Eigen::VectorXi& y) {
  const double centres[] = {-0.75, -0.25, 0.25, 0.75};
  X.resize(4 * perBlob, 2);
  y.resize(4 * perBlob);
  for (int b = 0; b < 4; ++b)
    for (int i = 0; i < perBlob; ++i) {
      const Index row = b * perBlob + i;
      X(row, 0) = centres[b] + 0.04 * rng.normal();
      X(row, 1) = 0.15 * rng.normal();
      y[row] = b % 2;
    }
}

double trainedAccuracy(int components, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                       const Eigen::MatrixXd& Xtest, const Eigen::VectorXi& ytest, Termination* termination) {
  LearnerSpec spec;
  spec.kind = ModelKind::Lmgc;
  spec.lambda = 1e-2;
  spec.components = components;
  const TrainedModel trained = test::orDie(trainModel(spec, X, y, 2));
  *termination = trained.summary.termination;
  return accuracy(*trained.model, trained.theta, Xtest, ytest);
}

}  // namespace

class TestLmgcMixture : public QObject {
  Q_OBJECT

 private slots:
  void validatesComponentsAndCentres() {
    QVERIFY(LmgcModel::create(3, 4, 0.5, 2));  // public centres filled in
    QVERIFY(!LmgcModel::create(3, 4, 0.5, 0));
    QVERIFY(!LmgcModel::create(3, 4, 0.5, 2, Eigen::MatrixXd::Zero(7, 3)));  // C·M = 8 rows needed
    const LmgcModel mixture(3, 4, 0.5, 2);
    QCOMPARE(mixture.blocks(), Index(8));
    QCOMPARE(mixture.parameterCount(), Index(8 * 16));
    LearnerSpec spec;
    spec.components = 2;
    QVERIFY(!spec.validate());  // logistic regression has no components
    spec.kind = ModelKind::Lmgc;
    QVERIFY(spec.validate());
    spec.components = LearnerSpec::kMaxComponents + 1;
    QVERIFY(!spec.validate());
  }

  // σ = −log Σ exp(−s) lies in [min − log M, min]; one component is the score itself.
  void softMinimumBounds() {
    Rng rng(7);
    const Index M = 4;
    const Eigen::MatrixXd S = 5 * test::gaussianMatrix(50, 3 * M, rng);
    const Eigen::MatrixXd sigma = lmgc_detail::classSoftMinimum(S, M);
    for (Index i = 0; i < S.rows(); ++i)
      for (Index c = 0; c < 3; ++c) {
        const double low = S.row(i).segment(c * M, M).minCoeff();
        QVERIFY(sigma(i, c) <= low + 1e-12);
        QVERIFY(sigma(i, c) >= low - std::log(double(M)) - 1e-12);
      }
    QVERIFY((lmgc_detail::classSoftMinimum(S, 1) - S).norm() == 0);
  }

  void gradientMatchesFiniteDifferences_data() {
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("M");
    QTest::addColumn<double>("h");
    QTest::newRow("d2_C2_M2") << 2 << 2 << 2 << 0.5;
    QTest::newRow("d3_C4_M3") << 3 << 4 << 3 << 0.5;
    QTest::newRow("d1_C3_M2_narrow_h") << 1 << 3 << 2 << 0.1;
    QTest::newRow("d4_C2_M5_wide_h") << 4 << 2 << 5 << 2.0;
  }
  void gradientMatchesFiniteDifferences() {
    QFETCH(int, d);
    QFETCH(int, C);
    QFETCH(int, M);
    QFETCH(double, h);
    Rng rng(static_cast<std::uint64_t>(1000 * d + 100 * C + M));
    Eigen::MatrixXd X;
    Eigen::VectorXi y;
    test::randomLabelledRows(60, d, C, rng, X, y);
    // Both kinds of centres: the data-independent ones and k-means'.
    for (const LmgcModel& model :
         {LmgcModel(d, C, h, M), LmgcModel(d, C, h, M, kMeansComponentCentres(X, y, C, M))}) {
      const Eigen::VectorXd theta = randomBlocks(model, rng, 2.0 * (1 + h));
      Eigen::VectorXd grad;
      const double value = model.lossSum(theta, X, y, &grad);
      QVERIFY(value > 0);
      const double error = test::gradientError(
          [&](const Eigen::VectorXd& t) { return model.lossSum(t, X, y, nullptr); }, theta, grad);
      QVERIFY2(error < 1e-6, qPrintable(QString::number(error)));
      // Per-example gradients sum to the gradient (DP-SGD clips them one by one).
      const Eigen::MatrixXd G = model.perExampleGradients(theta, X, y);
      QVERIFY((G.colwise().sum().transpose() - grad).norm() <= 1e-10 * (1 + grad.norm()));
    }
  }

  // K = √(C(C−1)) bounds every example's gradient for ‖x‖ ≤ 1, whatever θ.
  void gradientBoundK() {
    const Index d = 3, C = 4, M = 3;
    Rng rng(11);
    const LmgcModel model(d, C, 0.5, M);
    const double K = model.constants().gradientBound;
    double worst = 0;
    for (int trial = 0; trial < 50; ++trial) {
      Eigen::MatrixXd X;
      Eigen::VectorXi y;
      test::randomLabelledRows(40, d, C, rng, X, y);
      const Eigen::VectorXd theta = randomBlocks(model, rng, trial % 2 == 0 ? 0.1 : 20.0);
      worst = std::max(worst, model.perExampleGradientNorms(theta, X, y).maxCoeff());
    }
    QVERIFY2(worst <= K * (1 + 1e-12), qPrintable(QString("%1 > %2").arg(worst).arg(K)));
    QVERIFY(worst > 0.5 * K);  // not vacuous
  }

  // The loss's Hessian in the scores (θ → scores has norm ≤ ‖x̃‖² ≤ 1): largest eigenvalue
  // ≤ L = C/(2h) + ½ and rank ≤ r = (C − 1)·M, both attained; the single-Gaussian
  // L = C/(2h) is exceeded, so a mixture calibrated with it would be under-noised.
  void scoreHessianWithinConstants_data() {
    QTest::addColumn<int>("C");
    QTest::addColumn<int>("M");
    QTest::addColumn<double>("h");
    QTest::newRow("C2_M2_h0.5") << 2 << 2 << 0.5;
    QTest::newRow("C4_M3_h0.5") << 4 << 3 << 0.5;
    QTest::newRow("C3_M2_h4") << 3 << 2 << 4.0;
  }
  void scoreHessianWithinConstants() {
    QFETCH(int, C);
    QFETCH(int, M);
    QFETCH(double, h);
    const ModelConstants k = lmgcConstants(C, h, M);
    QCOMPARE(k.hessianRank, Index((C - 1) * M));
    DPSTUDIO_COMPARE_REL(k.hessianBound, C / (2 * h) + 0.5, 1e-15);
    Rng rng(static_cast<std::uint64_t>(10 * C + M));
    double largest = 0;
    Index largestRank = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const int label = static_cast<int>(rng.uniformIndex(static_cast<std::uint64_t>(C)));
      const int own = static_cast<int>(rng.uniformIndex(static_cast<std::uint64_t>(M)));
      // Scores whose margins fall on both sides of the hinge's quadratic zone and in it.
      Eigen::RowVectorXd s = (1 + h) * test::gaussianMatrix(1, C * M, rng);
      s[label * M + own] = 0;
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(scoreHessian(s, label, own, M, h));
      const Eigen::VectorXd values = eig.eigenvalues();
      QVERIFY2(values.minCoeff() >= -1e-5, "the loss is convex in the scores");
      largest = std::max(largest, values.maxCoeff());
      const Index rank = (values.array() > 1e-5).count();
      QVERIFY2(rank <= k.hessianRank, qPrintable(QString("rank %1 > %2").arg(rank).arg(k.hessianRank)));
      largestRank = std::max(largestRank, rank);
    }
    qInfo("C = %d, M = %d, h = %g: largest eigenvalue %.4f, L = %.4f, C/(2h) = %.4f", C, M, h, largest,
          k.hessianBound, C / (2 * h));
    QVERIFY2(largest <= k.hessianBound * (1 + 1e-5), qPrintable(QString("%1 > %2").arg(largest).arg(k.hessianBound)));
    QVERIFY(largestRank >= 1);
    // Attainment of r: every competing class in the hinge's quadratic zone (margins near 1)
    // with its components' weights spread, s_{c,m} = 1 + log M + small.
    Eigen::RowVectorXd s(C * M);
    for (Index b = 0; b < C * M; ++b) s[b] = 1 + std::log(double(M)) + 0.05 * rng.normal();
    s[0] = 0;  // the row is class 0's, component 0
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(scoreHessian(s, 0, 0, M, h));
    QCOMPARE(Index((full.eigenvalues().array() > 1e-5).count()), k.hessianRank);
    if (h > 1) QVERIFY2(largest > C / (2 * h), qPrintable(QString::number(largest)));
  }

  void centres() {
    const Eigen::MatrixXd a = publicComponentCentres(5, 3, 4), b = publicComponentCentres(5, 3, 4);
    QCOMPARE(a.rows(), Index(12));
    QVERIFY((a - b).norm() == 0);  // a function of (d, C, M) alone
    for (Index r = 0; r < a.rows(); ++r) DPSTUDIO_COMPARE_REL(a.row(r).norm(), 0.5, 1e-12);
    QVERIFY((LmgcModel(5, 3, 0.5, 4).componentCentres() - a).norm() == 0);
    Eigen::RowVectorXd x = a.row(2 * 4 + 1) * 0.9;  // class 2's component 1, nearly
    QCOMPARE(nearestComponent(x, a, 2, 4), Index(1));
  }

  // The problem above: M = 1 cannot fit it, M = 2 does (k-means finds the blobs).
  void mixtureFitsWhatOneGaussianCannot() {
    Rng rng(2026);
    Eigen::MatrixXd X, Xtest;
    Eigen::VectorXi y, ytest;
    alternatingBlobs(60, rng, X, y);
    alternatingBlobs(60, rng, Xtest, ytest);
    Termination one = Termination::Converged, two = Termination::Converged;
    const double single = trainedAccuracy(1, X, y, Xtest, ytest, &one);
    const double mixture = trainedAccuracy(2, X, y, Xtest, ytest, &two);
    qInfo("alternating blobs: M = 1 %.3f, M = 2 %.3f", single, mixture);
    QVERIFY2(single <= 0.8, qPrintable(QString::number(single)));
    QVERIFY2(mixture >= 0.97, qPrintable(QString::number(mixture)));
    QCOMPARE(two, Termination::Converged);
  }
};

QTEST_APPLESS_MAIN(TestLmgcMixture)
#include "test_lmgc_mixture.moc"
