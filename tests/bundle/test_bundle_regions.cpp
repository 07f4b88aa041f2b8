// An opened bundle drawn in the decision view (issue 12): the regions a bundle read back from
// its file gives on a dataset's raw view plane are, pixel for pixel, those of the same model
// and preprocessing trained in this process; they are what the pipeline answers for each
// pixel's raw row; they do not depend on the thread count; and with a preprocessing that is
// only a scale they are the trained-model decision view's picture, rescaled.

#include <QTest>

#include <algorithm>
#include <mutex>

#include "core/learn/decision_map.h"
#include "core/learn/model_view.h"
#include "core/learn/regions_through_preprocessing.h"
#include "core/util/parallel.h"
#include "tests/bundle/bundle_fixtures.h"

using namespace dpstudio;
using experiment::PrivacyPlan;
using mech::MechanismKind;

namespace {

constexpr const char* kBinary = "builtin:blobs:classes=2,dim=4,separation=3,per_class=80";
constexpr const char* kIris = "builtin:iris";

// The raw dataset's view as the GUI's dataset view makes it, and a grid over its points with
// a margin around them, where clipping by the preprocessing bends the regions.
struct RawPlane {
  ViewProjection view;
  ViewGrid grid;
};

RawPlane rawPlane(const std::string& builtin, const ViewSpec& spec, int width, int height) {
  const Dataset all = test::orDie(openDataset(builtin));
  RawPlane out{test::orDie(makeViewProjection(all, spec)), {}};
  const Eigen::MatrixXd coords = out.view.project(all.X);
  const Eigen::RowVector2d lo = coords.colwise().minCoeff(), hi = coords.colwise().maxCoeff();
  const Eigen::RowVector2d margin = 0.3 * (hi - lo);
  out.grid = {lo[0] - margin[0], hi[0] + margin[0], lo[1] - margin[1], hi[1] + margin[1], width, height};
  return out;
}

const TrainedModel& shownModel(const test::TrainedRun& t) {
  return t.plan.isPrivate() ? t.run.release->model : t.run.baseline.model;
}

RegionMap regionsOf(const Preprocessor& pre, const TrainedModel& m, const RawPlane& plane) {
  return test::orDie(computeRegionsThroughPreprocessing(pre, *m.model, m.theta, plane.view, plane.grid));
}

bool onBoundary(const RegionMap& map, int row, int column) {
  const int label = map.at(row, column);
  constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  for (const auto& step : kSteps) {
    const int r = row + step[0], c = column + step[1];
    if (r >= 0 && r < map.height && c >= 0 && c < map.width && map.at(r, c) != label) return true;
  }
  return false;
}

// Pixels where `a` and `b` differ; every one must lie on a boundary of `b` (rounding can
// move a boundary by a pixel, nothing else may differ).
int differingPixels(const RegionMap& a, const RegionMap& b, bool* offBoundary) {
  int differing = 0;
  *offBoundary = false;
  for (int row = 0; row < a.height; ++row)
    for (int column = 0; column < a.width; ++column)
      if (a.at(row, column) != b.at(row, column)) {
        ++differing;
        *offBoundary |= !onBoundary(b, row, column);
      }
  return differing;
}

int distinctLabels(const RegionMap& map) {
  std::vector<int> labels = map.labels;
  std::sort(labels.begin(), labels.end());
  return static_cast<int>(std::unique(labels.begin(), labels.end()) - labels.begin());
}

PreprocessSpec normBound(double bound) {
  PreprocessSpec spec;
  spec.normBound = bound;
  return spec;
}

// Every step but PCA (iris: every value lies in [0, 8]).
PreprocessSpec featureMapPipeline() {
  PreprocessSpec spec;
  spec.publicRanges = {{0.0, 8.0}};
  spec.projectionDim = 3;
  spec.normBound = 1.0;
  spec.randomFeatures = RandomFeaturesSpec{60, 4.0, 9};
  spec.intercept = true;
  return spec;
}

PreprocessSpec pcaPipeline() {
  PreprocessSpec spec;
  spec.pcaDim = 2;
  spec.unitRows = true;
  return spec;
}

// A mechanism at a large ε (DP-SGD: with enough epochs), so that the model still draws a
// picture of several classes to compare.
PrivacyPlan weakNoise(MechanismKind kind, ModelKind model, double lambda = 1e-2, double delta = 0.0) {
  mech::MechanismOptions o = std::get<experiment::TrainingMechanism>(test::mechanismPlan(kind, model, lambda, delta).choice).options;
  o.epsilon = 200.0;
  o.sgd.epochs = 30;
  return PrivacyPlan::training(o);
}

PrivacyPlan multipartyPlan() {
  multiparty::MultipartyOptions o;
  o.lambda = 1e-2;
  o.epsilon = 2.0;
  o.parties = 3;
  return PrivacyPlan::multiparty(o);
}

}  // namespace

Q_DECLARE_METATYPE(PrivacyPlan)
Q_DECLARE_METATYPE(PreprocessSpec)

class TestBundleRegions : public QObject {
  Q_OBJECT

 private slots:
  void bundleRegionsAreTheInProcessModels_data() {
    QTest::addColumn<PrivacyPlan>("plan");
    QTest::addColumn<QString>("data");
    QTest::addColumn<PreprocessSpec>("preprocess");
    const PreprocessSpec unit = test::unitRows();
    QTest::newRow("none softmax, unit rows")
        << PrivacyPlan::nonPrivate({ModelKind::Softmax, 1e-3, 0.5}) << kIris << unit;
    QTest::newRow("output logreg one-vs-rest, norm bound clipping")
        << weakNoise(MechanismKind::Output, ModelKind::LogisticRegression, 1e-3) << kIris << normBound(5.0);
    QTest::newRow("objective huber binary, unit rows")
        << test::mechanismPlan(MechanismKind::Objective, ModelKind::HuberSvm) << kBinary << unit;
    QTest::newRow("loss softmax, pca") << test::mechanismPlan(MechanismKind::Loss, ModelKind::Softmax) << kIris
                                       << pcaPipeline();
    QTest::newRow("dplmgc, unit rows") << test::mechanismPlan(MechanismKind::DpLmgc, ModelKind::Lmgc) << kIris << unit;
    QTest::newRow("dpsgd softmax gaussian, unit rows")
        << weakNoise(MechanismKind::DpSgd, ModelKind::Softmax, 1e-2, 1e-5) << kIris << unit;
    QTest::newRow("output softmax, rff + projection + ranges + intercept")
        << weakNoise(MechanismKind::Output, ModelKind::Softmax, 1e-3) << kIris
        << featureMapPipeline();
    QTest::newRow("multiparty, unit rows") << multipartyPlan() << kBinary << unit;
  }

  // Written with the export the CLI and GUI use, read back from the file: the same labels at
  // every pixel as the model and preprocessing of the run in memory; and those are the
  // pipeline's answers for each pixel's raw row, computed here in one batch of all pixels.
  void bundleRegionsAreTheInProcessModels() {
    QFETCH(PrivacyPlan, plan);
    QFETCH(QString, data);
    QFETCH(PreprocessSpec, preprocess);
    const test::TrainedRun trained = test::trainRun(plan, data.toStdString(), preprocess);
    test::BundleFolder folder;
    const QString path = folder.path("m.dpmodel");
    QVERIFY(bundle::writeBundle(test::exported(trained), path));
    const bundle::LoadedBundle loaded = test::orDie(bundle::readBundle(path));
    const auto* released = std::get_if<bundle::BundleModel>(&loaded.predictor);
    QVERIFY(released);

    ViewSpec spec;
    spec.kind = ViewKind::RandomProjection;
    spec.seed = 3;
    const RawPlane plane = rawPlane(data.toStdString(), spec, 96, 72);
    const RegionMap fromFile = test::orDie(computeRegionsThroughPreprocessing(
        loaded.preprocessor, *released->model, released->theta, plane.view, plane.grid));
    const RegionMap inProcess = regionsOf(trained.data.preprocessor, shownModel(trained), plane);
    QCOMPARE(fromFile.width, 96);
    QCOMPARE(fromFile.height, 72);
    QVERIFY(!fromFile.exact);
    QVERIFY(fromFile.labels == inProcess.labels);
    QVERIFY2(distinctLabels(fromFile) >= 2, "a picture of one class proves nothing");

    Eigen::MatrixXd U(plane.grid.width * plane.grid.height, 2);
    for (int row = 0; row < plane.grid.height; ++row)
      for (int column = 0; column < plane.grid.width; ++column)
        U.row(row * plane.grid.width + column) << plane.grid.x(column), plane.grid.y(row);
    const TrainedModel& m = shownModel(trained);
    const Eigen::VectorXi direct = m.model->predict(m.theta, trained.data.preprocessor.transform(plane.view.lift(U)));
    const RegionMap reference{plane.grid.width, plane.grid.height, std::vector<int>(direct.begin(), direct.end()),
                              false};
    bool offBoundary = false;
    const int differing = differingPixels(fromFile, reference, &offBoundary);
    QVERIFY2(!offBoundary && differing <= 10, qPrintable(QStringLiteral("%1 pixels differ").arg(differing)));
  }

  void theThreadCountChangesNothing() {
    const test::TrainedRun trained = test::trainRun(
        test::mechanismPlan(MechanismKind::Output, ModelKind::Softmax), kIris, featureMapPipeline());
    const RawPlane plane = rawPlane(kIris, {ViewKind::Features, 2, 3, 1}, 80, 64);
    const RegionMap parallel = regionsOf(trained.data.preprocessor, shownModel(trained), plane);
    const ScopedWorkerThreads one(1);
    QVERIFY(regionsOf(trained.data.preprocessor, shownModel(trained), plane).labels == parallel.labels);
  }

  // Iris's preprocessing is the public bound R = 20, which no row nor any point of the grid
  // reaches: a scale by 1/R. The raw plane is then the trained view's plane scaled by R
  // (model_view.h), and the opened model's picture must be the trained model's.
  void aScaleOnlyPreprocessingGivesTheTrainedView() {
    const double R = 20.0;
    const test::TrainedRun trained =
        test::trainRun(PrivacyPlan::nonPrivate({ModelKind::Softmax, 1e-4, 0.5}), kIris, normBound(R));
    const TrainedModel& m = shownModel(trained);
    const ViewSpec spec{ViewKind::Features, 2, 3, 1};
    const ModelViewGeometry geometry = test::orDie(makeModelViewGeometry(trained.data, spec, *m.model, m.theta));
    ViewGrid trainedGrid{0.0, 0.4, -0.02, 0.15, 120, 90};
    const RegionMap trainedMap = computeDecisionRegions(*m.model, m.theta, geometry.projection, trainedGrid);

    RawPlane raw{geometry.projection, trainedGrid};
    raw.view.centre *= R;
    raw.grid.xMin *= R;
    raw.grid.xMax *= R;
    raw.grid.yMin *= R;
    raw.grid.yMax *= R;
    // The norm is convex: below R at the corners, below R everywhere on the grid.
    Eigen::MatrixXd corners(4, 2);
    corners << raw.grid.xMin, raw.grid.yMin, raw.grid.xMin, raw.grid.yMax, raw.grid.xMax, raw.grid.yMin, raw.grid.xMax,
        raw.grid.yMax;
    QVERIFY(raw.view.lift(corners).rowwise().norm().maxCoeff() < R);
    const RegionMap openedMap = regionsOf(trained.data.preprocessor, m, raw);
    QVERIFY(distinctLabels(trainedMap) == 3);
    bool offBoundary = false;
    const int differing = differingPixels(openedMap, trainedMap, &offBoundary);
    QVERIFY2(!offBoundary && differing <= 10, qPrintable(QStringLiteral("%1 pixels differ").arg(differing)));
  }

  void aCancelledMapStops() {
    const test::TrainedRun trained = test::trainRun(
        test::mechanismPlan(MechanismKind::Output, ModelKind::Softmax), kIris, featureMapPipeline());
    const RawPlane plane = rawPlane(kIris, {}, 64, 64);
    StopToken stop;
    stop.requestStop();
    const TrainedModel& m = shownModel(trained);
    auto map = computeRegionsThroughPreprocessing(trained.data.preprocessor, *m.model, m.theta, plane.view,
                                                  plane.grid, Progress({}, stop));
    QVERIFY(!map);
    QCOMPARE(map.error().kind, ErrorKind::Cancelled);

    // Progress reaches 1 on a full map.
    double last = 0;
    std::mutex mutex;
    auto full = computeRegionsThroughPreprocessing(trained.data.preprocessor, *m.model, m.theta, plane.view,
                                                   plane.grid, Progress([&](double f) {
                                                     const std::lock_guard lock(mutex);
                                                     last = std::max(last, f);
                                                   }));
    QVERIFY(full);
    QCOMPARE(last, 1.0);
  }

  void aPlaneOfAnotherDimensionIsRefused() {
    const test::TrainedRun trained =
        test::trainRun(test::mechanismPlan(MechanismKind::Output, ModelKind::Softmax), kIris);
    const RawPlane plane = rawPlane(kBinary, {}, 16, 16);  // 4 features, like iris
    RawPlane fewer = plane;
    fewer.view.centre.conservativeResize(3);
    fewer.view.basis.conservativeResize(3, 2);
    const TrainedModel& m = shownModel(trained);
    auto refused = computeRegionsThroughPreprocessing(trained.data.preprocessor, *m.model, m.theta, fewer.view,
                                                      fewer.grid);
    QVERIFY(!refused);
    QCOMPARE(refused.error().kind, ErrorKind::Usage);
    QVERIFY2(QString::fromStdString(refused.error().message).contains("3 features"),
             refused.error().message.c_str());
  }
};

QTEST_MAIN(TestBundleRegions)
#include "test_bundle_regions.moc"
