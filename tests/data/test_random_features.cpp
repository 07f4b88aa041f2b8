// Random Fourier features (random_features.h) and their place in the preprocessing: the
// kernel they approximate (at the right scale), ‖φ(x)‖ ≤ 1, pinned and thread-independent
// draws, validation, and the pipeline applying the same map to training and test rows.

#include <QTest>

#include <cmath>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/data/preprocess.h"
#include "core/data/random_features.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

RandomFourierFeatures draw(Index d, Index D, double gamma, std::uint64_t seed) {
  auto map = makeRandomFourierFeatures({D, gamma, seed}, d);
  if (!map) qFatal("%s", map.error().toString().c_str());
  return std::move(map).value();
}

// 2·φ(x)ᵀφ(x') for the two rows of P (random_features.h: the map's estimate of k(x, x')).
double kernelEstimate(const RandomFourierFeatures& map, const Eigen::MatrixXd& P) {
  const Eigen::MatrixXd phi = map.apply(P);
  return 2.0 * phi.row(0).dot(phi.row(1));
}

}  // namespace

class TestRandomFeatures : public QObject {
  Q_OBJECT

 private slots:
  // γ‖x − x'‖² from near to far. With D = 20000 one estimate has standard deviation at most
  // 1/√D ≈ 0.007 (each term cos(ωᵀ(x−x')) + cos(ωᵀ(x+x') + 2b) has variance ≤ 1); the
  // tolerance 0.035 is 5σ. Both classic scale slips are far outside it: ω ~ N(0, γI) gives
  // exp(−γr²/2), ω ~ N(0, 4γI) gives exp(−2γr²) — the second half checks that this test
  // would see them.
  void approximatesTheRbfKernel_data() {
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("gamma");
    QTest::addColumn<double>("scaledDistance");  // γ‖x − x'‖²
    QTest::newRow("2-D, near") << 2 << 1.0 << 0.5;
    QTest::newRow("2-D, one length") << 2 << 3.0 << 1.0;
    QTest::newRow("5-D, far") << 5 << 0.5 << 2.0;
    QTest::newRow("10-D, one length") << 10 << 10.0 << 1.0;
  }

  void approximatesTheRbfKernel() {
    QFETCH(int, dim);
    QFETCH(double, gamma);
    QFETCH(double, scaledDistance);
    Rng rng(11);
    Eigen::MatrixXd P(2, dim);
    for (Index j = 0; j < dim; ++j) P(0, j) = rng.normal();
    Eigen::VectorXd direction(dim);
    for (Index j = 0; j < dim; ++j) direction[j] = rng.normal();
    P.row(1) = P.row(0) + std::sqrt(scaledDistance / gamma) * direction.normalized().transpose();
    const double kernel = std::exp(-gamma * (P.row(0) - P.row(1)).squaredNorm());
    DPSTUDIO_COMPARE_REL(kernel, std::exp(-scaledDistance), 1e-12);

    constexpr Index D = 20000;
    constexpr double tolerance = 0.035;
    const double estimate = kernelEstimate(draw(dim, D, gamma, 5), P);
    QVERIFY2(std::abs(estimate - kernel) < tolerance,
             qPrintable(QString("2 phi'phi = %1, kernel %2").arg(estimate).arg(kernel)));
    // ω ~ N(0, 2γ'I) with γ' = γ/2 is the N(0, γI) slip; γ' = 2γ the N(0, 4γI) one.
    for (const double wrongGamma : {gamma / 2, 2 * gamma}) {
      const double wrong = kernelEstimate(draw(dim, D, wrongGamma, 5), P);
      QVERIFY2(std::abs(wrong - kernel) > 3 * tolerance,
               qPrintable(QString("a wrongly scaled map gives %1, kernel %2").arg(wrong).arg(kernel)));
    }
  }

  // ‖φ(x)‖² = Σcos²/D ≤ 1 whatever x is — no norm bound needed — and about 1/2 on average.
  void featureNormIsAtMostOne() {
    const auto map = draw(4, 300, 2.0, 3);
    Rng rng(2);
    Eigen::MatrixXd X(500, 4);
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < 4; ++j) X(i, j) = 100.0 * rng.normal() * (i % 7);
    const Eigen::MatrixXd phi = map.apply(X);
    QCOMPARE(phi.cols(), Index(300));
    const Eigen::VectorXd norms = phi.rowwise().norm();
    QVERIFY(norms.maxCoeff() <= 1.0 + 1e-12);
    QVERIFY(std::abs(norms.array().square().mean() - 0.5) < 0.05);
    // With the intercept appended (docs/algorithms.md §2.1) the row still has norm ≤ 1.
    QVERIFY(appendIntercept(phi).rowwise().norm().maxCoeff() <= 1.0 + 1e-12);
  }

  // ω's entries are N(0, 2γ) and b's are uniform on [0, 2π): moments of 50 000 draws.
  void drawsHaveTheirDistributions() {
    const double gamma = 3.0;
    const auto map = draw(10, 5000, gamma, 8);
    const double mean = map.omega.mean();
    const double variance = (map.omega.array() - mean).square().mean();
    QVERIFY2(std::abs(mean) < 0.05, qPrintable(QString::number(mean)));
    DPSTUDIO_COMPARE_REL(variance, 2 * gamma, 0.03);
    QVERIFY(map.offsets.minCoeff() >= 0.0 && map.offsets.maxCoeff() < 2 * std::numbers::pi);
    DPSTUDIO_COMPARE_REL(map.offsets.mean(), std::numbers::pi, 0.03);
  }

  // The draws are part of the model: the same seed gives the same bits (pinned here, so a
  // change of engine, distribution or draw order shows), another seed other draws, and the
  // first k features do not depend on D.
  void drawsArePinnedBySeed() {
    const auto map = draw(3, 4, 0.5, 7);
    const auto again = draw(3, 4, 0.5, 7);
    QVERIFY((map.omega.array() == again.omega.array()).all());
    QVERIFY((map.offsets.array() == again.offsets.array()).all());
    const auto other = draw(3, 4, 0.5, 8);
    QVERIFY((map.omega.array() != other.omega.array()).all());
    const auto wider = draw(3, 10, 0.5, 7);
    QVERIFY((wider.omega.leftCols(4).array() == map.omega.array()).all());
    QVERIFY((wider.offsets.head(4).array() == map.offsets.array()).all());
    // Rng(7): ω_1's three normals (× √(2γ) = 1), then b_1 = 2π·u.
    DPSTUDIO_COMPARE_REL(map.omega(0, 0), kPinnedOmega00, 1e-15);
    DPSTUDIO_COMPARE_REL(map.omega(2, 0), kPinnedOmega20, 1e-15);
    DPSTUDIO_COMPARE_REL(map.offsets[0], kPinnedOffset0, 1e-15);
    DPSTUDIO_COMPARE_REL(map.omega(1, 3), kPinnedOmega13, 1e-15);
  }

  // apply() cuts rows into fixed chunks computed in parallel: 5000 rows are three chunks.
  void applyGivesTheSameBitsOnAnyThreadCount() {
    const auto map = draw(6, 64, 1.5, 4);
    Rng rng(9);
    Eigen::MatrixXd X(5000, 6);
    for (Index i = 0; i < X.rows(); ++i)
      for (Index j = 0; j < X.cols(); ++j) X(i, j) = rng.normal();
    Eigen::MatrixXd one, two;
    {
      ScopedWorkerThreads threads(1);
      one = map.apply(X);
    }
    {
      ScopedWorkerThreads threads(2);
      two = map.apply(X);
    }
    QVERIFY((one.array() == two.array()).all());
    // And each row is φ of that row alone, computed without the others.
    const Eigen::MatrixXd row = map.apply(X.row(4321));
    QVERIFY(((row - one.row(4321)).array().abs() <= 1e-15).all());
    const double expected =
        std::cos(X.row(4321).dot(map.omega.col(17)) + map.offsets[17]) / std::sqrt(64.0);
    DPSTUDIO_COMPARE_REL(one(4321, 17), expected, 1e-12);
  }

  void invalidSpecsNameTheirOption_data() {
    QTest::addColumn<int>("dim");
    QTest::addColumn<double>("gamma");
    QTest::addColumn<QString>("field");
    QTest::newRow("zero gamma") << 10 << 0.0 << "rff-gamma";
    QTest::newRow("negative gamma") << 10 << -1.0 << "rff-gamma";
    QTest::newRow("nan gamma") << 10 << std::nan("") << "rff-gamma";
    QTest::newRow("infinite gamma") << 10 << HUGE_VAL << "rff-gamma";
    QTest::newRow("zero dimension") << 0 << 1.0 << "rff-dim";
  }

  void invalidSpecsNameTheirOption() {
    QFETCH(int, dim);
    QFETCH(double, gamma);
    QFETCH(QString, field);
    PreprocessSpec spec;
    spec.randomFeatures = RandomFeaturesSpec{dim, gamma, 1};
    const auto status = spec.validate();
    QVERIFY(!status.ok());
    QCOMPARE(QString::fromStdString(status.error().field), field);
    QVERIFY(QString::fromStdString(status.error().message).startsWith(field + " must"));
    QCOMPARE(status.error().kind, ErrorKind::Usage);
    QVERIFY(!makeRandomFourierFeatures({dim, gamma, 1}, 3).ok());
  }

  // The map is the last feature step: after the norm bound, before the intercept; it is
  // drawn once when the pipeline is fitted and applied unchanged to every other part.
  void pipelineAppliesTheMapAfterTheBoundAndBeforeTheIntercept() {
    const Dataset data = makeXor({});
    PreprocessSpec spec;
    spec.normBound = 2.0;
    spec.intercept = true;
    spec.randomFeatures = RandomFeaturesSpec{50, 4.0, 3};
    const Preprocessor pre = fitPreprocessor(spec, data).value();
    QVERIFY(pre.hasFeatureMap());
    QCOMPARE(pre.outputDim, Index(51));
    QCOMPARE(pre.dimBeforeFeatureMap(), Index(2));
    QCOMPARE(pre.randomFeatures->inputDim(), Index(2));

    Eigen::MatrixXd bounded = data.X;
    applyNormBound(bounded, 2.0);
    const Eigen::MatrixXd expected = appendIntercept(draw(2, 50, 4.0, 3).apply(bounded));
    const Dataset out = pre.apply(data).value();
    QVERIFY((out.X.array() == expected.array()).all());
    QVERIFY(out.maxRowNorm() <= 1.0 + 1e-12);
    QCOMPARE(out.featureNames.front(), std::string("rff1"));
    QCOMPARE(out.featureNames.back(), std::string("(intercept)"));
    QCOMPARE(out.provenance.steps.size(), std::size_t(3));  // bound, map, intercept — in that order
    QVERIFY(QString::fromStdString(out.provenance.steps[1]).contains("random Fourier features"));
    QVERIFY(QString::fromStdString(out.provenance.steps[1]).contains("D = 50, gamma = 4, seed 3"));
    QVERIFY(out.provenance.notPrivate.empty());  // data-independent: private for free
  }

  // "Applies identically": a row of the test part gets the features it would get as a row
  // of the training part, from the map drawn on the training part.
  void trainAndTestRowsGetTheSameMap() {
    Dataset data = makeMoons({});
    SplitAndPreprocess settings;
    settings.testFraction = 0.3;
    settings.preprocess.normBound = 2.5;
    settings.preprocess.randomFeatures = RandomFeaturesSpec{40, 2.0, 9};
    const PreparedData prepared = prepareLoaded(data, std::nullopt, settings).value();
    QCOMPARE(prepared.train.features(), Index(40));
    QCOMPARE(prepared.test.features(), Index(40));
    // The rows before the map are kept for the decision view, and the map of them is the data.
    QCOMPARE(prepared.trainBeforeMap.rows(), prepared.train.rows());
    QCOMPARE(prepared.testBeforeMap.rows(), prepared.test.rows());
    QCOMPARE(prepared.trainBeforeMap.features(), Index(2));
    const Preprocessor& pre = prepared.preprocessor;
    QVERIFY((pre.applyFeatureMap(prepared.testBeforeMap.X).array() == prepared.test.X.array()).all());
    // Every test row, mapped on its own, equals its row in the test part.
    for (Index i = 0; i < prepared.test.rows(); ++i) {
      const Eigen::MatrixXd alone = pre.applyFeatureMap(prepared.testBeforeMap.X.row(i));
      QVERIFY(((alone - prepared.test.X.row(i)).array().abs() <= 1e-15).all());
    }
    // Re-fitting on the same training part draws the same map (it depends on the seed only).
    const auto refit = fitPreprocessor(settings.preprocess, data.subset({0, 1, 2}));
    QVERIFY(refit.ok() && refit.value().randomFeatures.has_value());
    const Eigen::MatrixXd& refitOmega = refit.value().randomFeatures.value().omega;
    QVERIFY((refitOmega.array() == pre.randomFeatures.value().omega.array()).all());

    settings.keepRowsBeforeMap = false;
    const PreparedData lean = prepareLoaded(data, std::nullopt, settings).value();
    QCOMPARE(lean.trainBeforeMap.rows(), Index(0));
    QVERIFY((lean.train.X.array() == prepared.train.X.array()).all());
  }

  // Regression: PCA was fitted on rows that already carried the intercept column, giving a
  // basis with one row too many for the rows it is applied to.
  void pcaIsFittedWithoutTheInterceptColumn() {
    const Dataset iris = loadBuiltin("iris").value();
    PreprocessSpec spec;
    spec.pcaDim = 2;
    spec.normBound = 10.0;
    spec.intercept = true;
    const Preprocessor pre = fitPreprocessor(spec, iris).value();
    QCOMPARE(pre.pcaBasis.rows(), Index(4));
    QCOMPARE(pre.pcaMean.size(), Index(4));
    QCOMPARE(pre.outputDim, Index(3));
  }

 private:
  // Recorded from the implementation (Boost 1.74, mt19937_64); γ = 0.5 makes √(2γ) = 1.
  static constexpr double kPinnedOmega00 = 1.1210831710110098;
  static constexpr double kPinnedOmega20 = 0.32080787128972288;
  static constexpr double kPinnedOffset0 = 5.2237464514951197;
  static constexpr double kPinnedOmega13 = -0.52435156993095489;
};

QTEST_GUILESS_MAIN(TestRandomFeatures)
#include "test_random_features.moc"
