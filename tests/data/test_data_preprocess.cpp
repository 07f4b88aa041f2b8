// Splits, preprocessing and the 2-D view: determinism, stratification, the norm bound,
// and which steps are marked not private.

#include <QTest>

#include <algorithm>
#include <set>

#include "core/sources/builtin.h"
#include "core/data/preprocess.h"
#include "core/util/parallel.h"
#include "core/sources/source.h"
#include "core/data/split.h"
#include "core/data/view_projection.h"
#include "core/random/rng.h"
#include <Eigen/SVD>
#include "tests/common/test_support.h"

using namespace dpstudio;

class TestDataPreprocess : public QObject {
  Q_OBJECT

 private slots:
  // The column sweep that replaced strided row reductions in the unit-ball clipping must sum
  // exactly as X.row(i).squaredNorm() does — the clipping's guarantee (every row ≤ 1 by each
  // way the code measures it) rests on it. Rows scaled to norm 1 (where the sums sit at the
  // rounding edge), sparse and dense, and the long rows of images.
  void sequentialRowSquaredNormsMatchRowReductions() {
    for (const Eigen::Index d : {Eigen::Index{3}, Eigen::Index{57}, Eigen::Index{784}}) {
      Eigen::MatrixXd X = Eigen::MatrixXd::Random(300, d);
      for (Eigen::Index i = 0; i < X.rows(); i += 3) X.row(i) = X.row(i).cwiseMax(0.6) - Eigen::RowVectorXd::Constant(d, 0.6);
      dpstudio::scaleRowsToUnitNorm(X);
      const Eigen::VectorXd sums = dpstudio::sequentialRowSquaredNorms(X);
      for (Eigen::Index i = 0; i < X.rows(); ++i) {
        QCOMPARE(sums[i], X.row(i).squaredNorm());
        QVERIFY(X.row(i).squaredNorm() <= 1.0);
        QVERIFY(X.rowwise().norm()[i] <= 1.0);
      }
    }
  }

  void splitIsDeterministicAndStratified() {
    const Dataset data = openDataset("builtin:digits").value();
    const auto a = stratifiedSplit(data.y, data.classes(), 0.25, 7).value();
    const auto b = stratifiedSplit(data.y, data.classes(), 0.25, 7).value();
    const auto c = stratifiedSplit(data.y, data.classes(), 0.25, 8).value();
    QVERIFY(a.train == b.train && a.test == b.test);
    QVERIFY(a.test != c.test);
    QCOMPARE(static_cast<Index>(a.train.size() + a.test.size()), data.rows());
    std::set<Index> all(a.train.begin(), a.train.end());
    all.insert(a.test.begin(), a.test.end());
    QCOMPARE(static_cast<Index>(all.size()), data.rows());  // a partition: nothing twice
    // Every class keeps its share within one row of rounding.
    const auto counts = data.classCounts();
    std::vector<Index> testCounts(counts.size(), 0);
    for (Index i : a.test) ++testCounts[static_cast<std::size_t>(data.y[i])];
    for (std::size_t k = 0; k < counts.size(); ++k)
      QVERIFY(std::abs(static_cast<double>(testCounts[k]) - 0.25 * static_cast<double>(counts[k])) <= 0.5 + 1e-9);
    // The training part is ascending; the test part is shuffled, so that its first rows (the
    // ones private prediction answers) are not all of the first class on a class-sorted file.
    QVERIFY(std::is_sorted(a.train.begin(), a.train.end()));
    const Dataset iris = openDataset("builtin:iris").value();  // sorted by class
    const auto irisSplit = stratifiedSplit(iris.y, iris.classes(), 0.25, 1).value();
    std::set<int> firstLabels;
    for (std::size_t i = 0; i < 10; ++i) firstLabels.insert(iris.y[irisSplit.test[i]]);
    QVERIFY2(firstLabels.size() >= 2, "the first ten test rows are all of one class");
  }

  void splitKeepsOneTrainingRowPerClass() {
    Eigen::VectorXi y(5);
    y << 0, 0, 0, 0, 1;
    const auto split = stratifiedSplit(y, 2, 0.9, 1).value();
    QCOMPARE(split.train.size(), std::size_t(2));  // one of class 0, the only one of class 1
    QVERIFY(std::find(split.train.begin(), split.train.end(), 4) != split.train.end());
  }

  void splitRejectsBadFractions_data() {
    QTest::addColumn<double>("fraction");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("one") << 1.0;
    QTest::newRow("negative") << -0.2;
    QTest::newRow("nan") << std::nan("");
  }

  void splitRejectsBadFractions() {
    QFETCH(double, fraction);
    Eigen::VectorXi y(4);
    y << 0, 1, 0, 1;
    auto split = stratifiedSplit(y, 2, fraction, 1);
    QVERIFY(!split.ok());
    QCOMPARE(QString::fromStdString(split.error().field), QString("test-fraction"));
  }

  // Regression (issue 10): x/‖x‖ landed an ulp above 1 for some rows, and every mechanism
  // then copied and re-clipped the whole training set (60 000 MNIST rows in every sweep
  // trial). The row scalings now leave every norm the mechanisms compute at ≤ 1.
  void unitRowsAreInsideTheUnitBallAsEveryNormSays() {
    const Eigen::MatrixXd raw = Eigen::MatrixXd::Random(4000, 60);
    Eigen::MatrixXd divided = raw;  // the division alone, as before
    const Eigen::VectorXd norms = divided.rowwise().norm();
    for (Index i = 0; i < divided.rows(); ++i) divided.row(i) /= norms[i];
    Index above = 0;
    for (Index i = 0; i < divided.rows(); ++i)
      if (divided.row(i).norm() > 1.0 || divided.row(i).squaredNorm() > 1.0) ++above;
    QVERIFY(above > 0 || divided.rowwise().norm().maxCoeff() > 1.0);  // the case is real

    for (bool bound : {false, true}) {
      Eigen::MatrixXd X = bound ? Eigen::MatrixXd(3 * raw) : raw;
      if (bound) applyNormBound(X, 1.0);
      else scaleRowsToUnitNorm(X);
      QVERIFY(X.rowwise().norm().maxCoeff() <= 1.0);
      for (Index i = 0; i < X.rows(); ++i) {
        QVERIFY(X.row(i).norm() <= 1.0 && X.row(i).squaredNorm() <= 1.0);
        QVERIFY(X.row(i).norm() > 1.0 - 1e-15);  // scaled to 1, not shrunk further
      }
    }
    // Blocks of rows run in parallel: the same bits with 1 and 2 threads.
    Eigen::MatrixXd one = raw, two = raw;
    {
      ScopedWorkerThreads threads(1);
      scaleRowsToUnitNorm(one);
    }
    {
      ScopedWorkerThreads threads(2);
      scaleRowsToUnitNorm(two);
    }
    QVERIFY(one == two);
  }

  void normBoundClipsThenDivides() {
    Eigen::MatrixXd X(3, 2);
    X << 3, 4,      // norm 5 > R: clipped to R, then / R → norm 1
        0.6, 0.8,   // norm 1 < R: only divided → norm 0.5
        0, 0;       // zero stays zero
    applyNormBound(X, 2.0);
    DPSTUDIO_COMPARE_REL(X.row(0).norm(), 1.0, 1e-15);
    DPSTUDIO_COMPARE_REL(X(0, 0), 0.6, 1e-15);
    DPSTUDIO_COMPARE_REL(X.row(1).norm(), 0.5, 1e-15);
    QCOMPARE(X.row(2).norm(), 0.0);
  }

  void pipelineBoundsEveryRow() {
    const Dataset data = openDataset("builtin:wine").value();
    PreprocessSpec spec;
    spec.normBound = 500.0;  // far below the largest wine row (proline reaches 1680)
    const auto pre = fitPreprocessor(spec, data).value();
    const Dataset out = pre.apply(data).value();
    QVERIFY(out.maxRowNorm() <= 1.0 + 1e-12);
    QVERIFY(out.provenance.isPrivacySafe());
    QCOMPARE(out.provenance.steps.size(), std::size_t(1));
  }

  void publicRangeMapsAndClips() {
    Dataset data = openDataset("builtin:digits").value();
    PreprocessSpec spec;
    spec.publicRanges = {{0.0, 16.0}};
    spec.unitRows = true;
    const Preprocessor pre = fitPreprocessor(spec, data).value();
    QVERIFY(!pre.normBoundFromRanges);  // unit rows bound the rows already
    const Dataset out = pre.apply(data).value();
    for (Index i = 0; i < out.rows(); ++i) DPSTUDIO_COMPARE_REL(out.X.row(i).norm(), 1.0, 1e-12);
  }

  // Issue 32 item 1: a declared range's midpoint maps to 0, its ends to ∓1/2, values beyond
  // them are clipped; as published in bundles of version 1, [0, 1].
  void declaredRangesAreCentredOnTheirMidpoints() {
    Eigen::MatrixXd X(5, 2);
    X << 0, 10,  //
        8, 15,   //
        16, 20,  //
        -4, 30,  //
        4, 12.5;
    Dataset data;
    data.X = X;
    data.y = Eigen::VectorXi::Zero(5);
    data.classNames = {"a"};
    PreprocessSpec spec;
    spec.publicRanges = {{0, 16}, {10, 20}};
    spec.normBound = 1e9;  // so that the mapped values are read back times 1e9
    const Eigen::MatrixXd centred = fitPreprocessor(spec, data).value().transform(X) * 1e9;
    Eigen::MatrixXd expected(5, 2);
    expected << -0.5, -0.5,  //
        0, 0,                //
        0.5, 0.5,            //
        -0.5, 0.5,           //
        -0.25, -0.25;
    QVERIFY2(centred.isApprox(expected, 1e-12), qPrintable(QString::number((centred - expected).norm())));
    spec.rangeMapping = RangeMapping::UnitInterval;
    const Eigen::MatrixXd unit = fitPreprocessor(spec, data).value().transform(X) * 1e9;
    QVERIFY(unit.isApprox((expected.array() + 0.5).matrix(), 1e-12));
  }

  // Issue 32 item 1: declared ranges give R without the user computing it — the largest norm
  // a mapped row can have, so the box's corners land on the unit sphere and nothing is clipped.
  void declaredRangesDeriveTheNormBound() {
    const Dataset data = openDataset("builtin:digits").value();
    PreprocessSpec spec;
    spec.publicRanges = {{0.0, 16.0}};
    const Preprocessor pre = fitPreprocessor(spec, data).value();
    QVERIFY(pre.normBoundFromRanges);
    QCOMPARE(*pre.spec.normBound, 4.0);  // √64 / 2
    Eigen::MatrixXd corners(2, 64);
    corners.row(0).setConstant(16.0);
    corners.row(1).setConstant(0.0);
    corners(1, 5) = 16.0;
    const Eigen::MatrixXd mapped = pre.transform(corners);
    DPSTUDIO_COMPARE_REL(mapped.row(0).norm(), 1.0, 1e-12);
    DPSTUDIO_COMPARE_REL(mapped.row(1).norm(), 1.0, 1e-12);
    QVERIFY(pre.apply(data).value().maxRowNorm() <= 1.0);
    // The user's R wins; unit rows need none.
    spec.normBound = 2.0;
    QVERIFY(!fitPreprocessor(spec, data).value().normBoundFromRanges);
    QCOMPARE(*fitPreprocessor(spec, data).value().spec.normBound, 2.0);
  }

  // Issue 34 item 1: a non-private LMGC's rows divided by their root-mean-square norm, read
  // off the data, unclipped, and marked so; anything the user declared (R, unit rows,
  // ranges) wins.
  void scaleToDataUsesTheRootMeanSquareNorm() {
    const Dataset data = openDataset("builtin:digits").value();
    PreprocessSpec spec;
    spec.scaleToData = true;
    const Preprocessor pre = fitPreprocessor(spec, data).value();
    QVERIFY(pre.rowScaleFromData && !pre.spec.normBound);
    const double rms = std::sqrt(data.X.rowwise().squaredNorm().mean());
    DPSTUDIO_COMPARE_REL(*pre.spec.rowScale, rms, 1e-12);
    QCOMPARE(pre.notPrivate.size(), std::size_t(1));
    const Dataset out = pre.apply(data).value();
    DPSTUDIO_COMPARE_REL(std::sqrt(out.X.rowwise().squaredNorm().mean()), 1.0, 1e-12);
    DPSTUDIO_COMPARE_REL(out.maxRowNorm(), data.maxRowNorm() / rms, 1e-12);  // nothing clipped
    spec.normBound = 50.0;
    QVERIFY(!fitPreprocessor(spec, data).value().rowScaleFromData);
    spec.normBound.reset();
    spec.unitRows = true;
    QVERIFY(!fitPreprocessor(spec, data).value().rowScaleFromData);
    spec.unitRows = false;
    spec.publicRanges = {{0.0, 16.0}};
    const Preprocessor ranged = fitPreprocessor(spec, data).value();
    QVERIFY(ranged.normBoundFromRanges && !ranged.rowScaleFromData && ranged.notPrivate.empty());
  }

  // Through a projection P the bound is ‖P‖₂·√d/2, a public number: every point of the box
  // stays inside the unit ball, and the direction P stretches most reaches its boundary.
  void derivedBoundHoldsThroughAProjection() {
    const Dataset data = openDataset("builtin:wine").value();  // 13 features
    PreprocessSpec spec;
    spec.publicRanges = {{-1.0, 1.0}};
    spec.projectionDim = 20;
    const Preprocessor pre = fitPreprocessor(spec, data).value();
    QVERIFY(pre.normBoundFromRanges);
    Rng rng(5);
    Eigen::MatrixXd points(2000, 13);
    for (Index i = 0; i < points.rows(); ++i)
      for (Index j = 0; j < 13; ++j) points(i, j) = rng.uniform01() < 0.5 ? -1.0 : 1.0;  // corners
    const Eigen::VectorXd norms = pre.transform(points).rowwise().norm();
    QVERIFY(norms.maxCoeff() <= 1.0);
    QVERIFY2(norms.maxCoeff() > 0.5, qPrintable(QString::number(norms.maxCoeff())));
    const double expected = std::sqrt(13.0) / 2 * Eigen::JacobiSVD<Eigen::MatrixXd>(pre.projection).singularValues()(0);
    DPSTUDIO_COMPARE_REL(*pre.spec.normBound, expected, 1e-10);
  }

  void perFeatureRangesMustMatchDimension() {
    const Dataset data = openDataset("builtin:iris").value();
    PreprocessSpec spec;
    spec.publicRanges = {{0, 1}, {0, 2}};
    auto pre = fitPreprocessor(spec, data);
    QVERIFY(!pre.ok());
    QCOMPARE(QString::fromStdString(pre.error().field), QString("feature-range"));
  }

  // Issue 9 item 7: UCI letter's split is the first 16 000 rows / the last 4 000.
  void orderedSplitKeepsFileOrder() {
    const auto byRows = orderedSplit(10, 0.5, Index{4}).value();
    QCOMPARE(byRows.train, (std::vector<Index>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(byRows.test, (std::vector<Index>{6, 7, 8, 9}));
    const auto byFraction = orderedSplit(20, 0.25).value();
    QCOMPARE(byFraction.train.size(), std::size_t{15});
    QCOMPARE(byFraction.test.front(), Index{15});
    QVERIFY(!orderedSplit(10, 0.5, Index{10}).ok());  // no training rows
    QVERIFY(!orderedSplit(10, 0.5, Index{0}).ok());
    QVERIFY(!orderedSplit(10, 1.5).ok());
    const Dataset iris = openDataset("builtin:iris").value();  // sorted by class
    const TrainTest parts = splitDatasetOrdered(iris, 0.25, Index{50}).value();
    QCOMPARE(parts.train.rows(), Index{100});
    for (Index i = 0; i < parts.test.rows(); ++i) QCOMPARE(parts.test.y[i], 2);  // the last class only
    QVERIFY(parts.test.provenance.steps.back().rfind("ordered split", 0) == 0);
  }

  // Issue 9 item 11: the CLI answered the first B test rows, one class on a sorted file.
  void seededSampleIsUniformSortedAndReplayable() {
    const auto a = seededSample(100, 10, 3);
    QCOMPARE(a.size(), std::size_t{10});
    QVERIFY(std::is_sorted(a.begin(), a.end()));
    QCOMPARE(std::set<Index>(a.begin(), a.end()).size(), std::size_t{10});
    QCOMPARE(seededSample(100, 10, 3), a);
    QVERIFY(seededSample(100, 10, 4) != a);
    std::vector<Index> first10(10);
    for (Index i = 0; i < 10; ++i) first10[static_cast<std::size_t>(i)] = i;
    QVERIFY(a != first10);
    QCOMPARE(seededSample(5, 9, 1).size(), std::size_t{5});  // all rows when asked for more
    // Roughly uniform: over many seeds, the upper half is drawn about half of the time.
    long upper = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed)
      for (Index i : seededSample(100, 10, seed)) upper += i >= 50;
    QVERIFY2(upper > 900 && upper < 1100, qPrintable(QString::number(upper)));
  }

  // Issue 9 item 7: --feature-range clipped silently.
  void clippedValuesAreCounted() {
    Eigen::MatrixXd X(4, 2);
    X << -1, 0.5,   //
        5, 2,       //
        11, -3,     //
        3, 0.2;
    QCOMPARE(countOutsideRanges({}, X), Index{0});
    QCOMPARE(countOutsideRanges({{0, 10}}, X), Index{3});           // -1, 11 and -3
    QCOMPARE(countOutsideRanges({{0, 10}, {0, 1}}, X), Index{4});   // -1, 11; 2, -3
    QCOMPARE(countOutsideRanges({{0, 10}, {0, 1}, {0, 1}}, X), Index{0});  // does not fit
  }

  void randomProjectionIsSeededAndPrivate() {
    const Dataset data = openDataset("builtin:digits").value();
    PreprocessSpec spec;
    spec.projectionDim = 10;
    spec.projectionSeed = 3;
    const auto preA = fitPreprocessor(spec, data).value();
    const auto preB = fitPreprocessor(spec, data.subset({0, 1, 2})).value();
    QVERIFY(preA.projection == preB.projection);  // does not depend on the data
    const Dataset out = preA.apply(data).value();
    QCOMPARE(out.features(), Index(10));
    QVERIFY(out.provenance.isPrivacySafe());
    // Entries are N(0, 1/D): the sample variance of 640 entries is near 0.1.
    const double variance = preA.projection.squaredNorm() / static_cast<double>(preA.projection.size());
    QVERIFY2(variance > 0.08 && variance < 0.12, qPrintable(QString::number(variance)));
  }

  void pcaIsMarkedNotPrivate() {
    const Dataset data = openDataset("builtin:iris").value();
    PreprocessSpec spec;
    spec.pcaDim = 2;
    spec.normBound = 10.0;
    const auto pre = fitPreprocessor(spec, data).value();
    const Dataset out = pre.apply(data).value();
    QCOMPARE(out.features(), Index(2));
    QVERIFY(!out.provenance.isPrivacySafe());
    QVERIFY(QString::fromStdString(out.provenance.notPrivate[0]).contains("private data"));
    // PCA coordinates are uncorrelated, the first has the larger spread.
    Eigen::MatrixXd Z = pre.transform(data.X) * 10.0;  // undo the bound (no row exceeds 10)
    Z.rowwise() -= Z.colwise().mean();
    const Eigen::Matrix2d cov = Z.transpose() * Z;
    QVERIFY(std::abs(cov(0, 1)) < 1e-8 * cov(0, 0));
    QVERIFY(cov(0, 0) > cov(1, 1));
  }

  void preprocessingRejectsWrongWidth() {
    const Dataset iris = openDataset("builtin:iris").value();
    const Dataset wine = openDataset("builtin:wine").value();
    const auto pre = fitPreprocessor(PreprocessSpec{}, iris).value();
    QVERIFY(!pre.apply(wine).ok());
  }

  void viewLiftsOntoThePlaneThroughTheMean_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("features") << static_cast<int>(ViewKind::Features);
    QTest::newRow("random projection") << static_cast<int>(ViewKind::RandomProjection);
    QTest::newRow("pca") << static_cast<int>(ViewKind::Pca);
  }

  void viewLiftsOntoThePlaneThroughTheMean() {
    QFETCH(int, kind);
    const Dataset data = openDataset("builtin:wine").value();
    ViewSpec spec;
    spec.kind = static_cast<ViewKind>(kind);
    spec.featureA = 2;
    spec.featureB = 5;
    const auto view = makeViewProjection(data, spec).value();
    const Eigen::Matrix2d gram = view.basis.transpose() * view.basis;
    QVERIFY((gram - Eigen::Matrix2d::Identity()).norm() < 1e-12);
    // Projecting a lifted point gives the point back; the mean lifts to itself.
    Eigen::MatrixXd U(2, 2);
    U << 0.3, -1.2, 14.0, 2.5;
    const Eigen::MatrixXd lifted = view.lift(U);
    QVERIFY((view.project(lifted) - U).norm() < 1e-9);
    const Eigen::MatrixXd centre = view.lift(view.project(view.centre.transpose()));
    QVERIFY((centre.transpose() - view.centre).norm() < 1e-9);
    QCOMPARE(view.notPrivate, spec.kind == ViewKind::Pca);
    if (spec.kind == ViewKind::Features) QCOMPARE(view.project(data.X).col(0), data.X.col(2));
  }

  void viewRejectsBadFeatures() {
    const Dataset data = openDataset("builtin:iris").value();
    QVERIFY(!makeViewProjection(data, {ViewKind::Features, 0, 4, 1}).ok());
    QVERIFY(!makeViewProjection(data, {ViewKind::Features, 1, 1, 1}).ok());
  }
};

QTEST_GUILESS_MAIN(TestDataPreprocess)
#include "test_data_preprocess.moc"
