// Linear models on random Fourier features: they solve problems no linear model on the raw
// coordinates can (XOR, two moons), and the decision view draws them in the coordinates
// before the map — regions go through φ point by point, agree with the model's own
// predictions, and stay fast enough for the GUI.

#include <QTest>

#include <set>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/learn/decision_map.h"
#include "core/learn/learner.h"
#include "core/learn/model_view.h"

using namespace dpstudio;

namespace {

// A public norm bound of 2 (XOR's clusters sit at (±1, ±1), the moons within [−1, 2]×[−0.5, 1]),
// then, when D > 0, D random Fourier features with γ in the bounded units.
PreparedData prepare(const Dataset& data, Index D, double gamma, bool intercept = false) {
  SplitAndPreprocess settings;
  settings.testFraction = 0.3;
  settings.preprocess.normBound = 2.0;
  settings.preprocess.intercept = intercept;
  if (D > 0) settings.preprocess.randomFeatures = RandomFeaturesSpec{D, gamma, 1};
  auto prepared = prepareLoaded(data, std::nullopt, settings);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

TrainedModel train(const PreparedData& data, ModelKind kind, double lambda) {
  auto trained = trainModel({kind, lambda, 0.5}, data.train.X, data.train.y, data.train.classes());
  if (!trained) qFatal("%s", trained.error().toString().c_str());
  return std::move(trained).value();
}

double testAccuracy(const PreparedData& data, const TrainedModel& m) {
  return accuracy(*m.model, m.theta, data.test.X, data.test.y);
}

ViewGrid gridAround(const Eigen::MatrixXd& coords, int width, int height) {
  return ViewGrid{coords.col(0).minCoeff() - 0.05, coords.col(0).maxCoeff() + 0.05,
                  coords.col(1).minCoeff() - 0.05, coords.col(1).maxCoeff() + 0.05, width, height};
}

}  // namespace

class TestRffLearning : public QObject {
  Q_OBJECT

 private slots:
  void kernelSolvesWhatLinearCannot_data() {
    QTest::addColumn<QString>("problem");
    QTest::addColumn<int>("model");
    QTest::addColumn<double>("linearAtMost");   // linear model on the raw coordinates
    QTest::addColumn<double>("kernelAtLeast");  // the same model on random Fourier features
    const auto row = [](const char* name, const char* problem, ModelKind m, double linear, double kernel) {
      QTest::newRow(name) << QString(problem) << static_cast<int>(m) << linear << kernel;
    };
    // A line can cut one XOR cluster off the other three (0.75) but no better; the moons
    // are mostly linearly separable (~0.9), their tips are not.
    row("xor, logreg", "xor", ModelKind::LogisticRegression, 0.76, 0.95);
    row("xor, huber", "xor", ModelKind::HuberSvm, 0.76, 0.95);
    row("xor, softmax", "xor", ModelKind::Softmax, 0.76, 0.95);
    row("moons, logreg", "moons", ModelKind::LogisticRegression, 0.93, 0.98);
  }

  void kernelSolvesWhatLinearCannot() {
    QFETCH(QString, problem);
    QFETCH(int, model);
    QFETCH(double, linearAtMost);
    QFETCH(double, kernelAtLeast);
    const Dataset data = problem == "xor" ? makeXor({300, 0.2, 1}) : makeMoons({300, 0.1, 1});
    const auto kind = static_cast<ModelKind>(model);
    const PreparedData raw = prepare(data, 0, 0, /*intercept=*/true);
    const PreparedData mapped = prepare(data, 200, 4.0);
    const double linear = testAccuracy(raw, train(raw, kind, 1e-4));
    const double kernel = testAccuracy(mapped, train(mapped, kind, 1e-4));
    qInfo("%s: linear %.3f, random Fourier features %.3f", QTest::currentDataTag(), linear, kernel);
    QVERIFY2(linear <= linearAtMost, qPrintable(QString::number(linear)));
    QVERIFY2(kernel >= kernelAtLeast, qPrintable(QString::number(kernel)));
  }

  // The view is made before the map: the points are the bounded 2-D rows themselves, the
  // projection carries the map, and the regions — computed point by point — are the model's
  // predictions at the grid's points and at the training points.
  void regionsGoThroughTheMap_data() {
    QTest::addColumn<bool>("intercept");
    QTest::newRow("no intercept") << false;
    QTest::newRow("intercept after the map") << true;
  }

  void regionsGoThroughTheMap() {
    QFETCH(bool, intercept);
    const PreparedData data = prepare(makeXor({300, 0.2, 1}), 100, 4.0, intercept);
    const TrainedModel m = train(data, ModelKind::LogisticRegression, 1e-4);
    const auto geometry = makeModelViewGeometry(data, {ViewKind::Features, 0, 1, 1}, *m.model, m.theta).value();
    QVERIFY(geometry.projection.hasFeatureMap());
    QCOMPARE(geometry.projection.interceptAfterMap, intercept);
    QCOMPARE(geometry.projection.basis.rows(), Index(2));
    QVERIFY((geometry.trainCoords.array() == data.trainBeforeMap.X.array()).all());
    QCOMPARE(geometry.testCoords.rows(), data.test.rows());
    QCOMPARE(geometry.projection.axisNames[0], std::string("x1"));
    QVERIFY(geometry.ellipses.empty());

    const ViewGrid grid = gridAround(geometry.trainCoords, 48, 40);
    const RegionMap map = computeDecisionRegions(*m.model, m.theta, geometry.projection, grid);
    QVERIFY(!map.exact);
    QCOMPARE(map.width, 48);
    QVERIFY(std::set<int>(map.labels.begin(), map.labels.end()).size() == 2);
    // Every pixel: the model on the preprocessor's own feature map of the pixel's point (the
    // map computes the cosines by angle addition: rounding may flip a pixel on a boundary).
    int differ = 0;
    for (int row = 0; row < grid.height; ++row) {
      Eigen::MatrixXd points(grid.width, 2);
      for (int column = 0; column < grid.width; ++column) points.row(column) << grid.x(column), grid.y(row);
      const Eigen::VectorXi expected =
          m.model->predict(m.theta, data.preprocessor.applyFeatureMap(geometry.projection.lift(points)));
      for (int column = 0; column < grid.width; ++column) differ += map.at(row, column) != expected[column];
    }
    QVERIFY2(differ <= 2, qPrintable(QString::number(differ)));
    // And the pixel under each training point shows what the model predicts for that row.
    const Eigen::VectorXi predicted = m.model->predict(m.theta, data.train.X);
    int agree = 0;
    for (Index i = 0; i < data.train.rows(); ++i) {
      const int column = static_cast<int>((geometry.trainCoords(i, 0) - grid.xMin) / (grid.xMax - grid.xMin) * grid.width);
      const int row = static_cast<int>((grid.yMax - geometry.trainCoords(i, 1)) / (grid.yMax - grid.yMin) * grid.height);
      agree += map.at(row, column) == predicted[i];
    }
    QVERIFY2(agree >= 0.97 * static_cast<double>(data.train.rows()), qPrintable(QString::number(agree)));
  }

  // LMGC on the features trains (its quadratic form is in φ-space) but has no ellipses to
  // draw in the view's coordinates; a PreparedData without the rows before the map cannot
  // make the view, and says so instead of drawing the wrong plane.
  void viewEdgeCases() {
    const PreparedData data = prepare(makeXor({100, 0.2, 1}), 12, 4.0);
    const TrainedModel lmgc = train(data, ModelKind::Lmgc, 1e-3);
    const auto geometry = makeModelViewGeometry(data, {}, *lmgc.model, lmgc.theta);
    QVERIFY(geometry.ok());
    QVERIFY(geometry.value().ellipses.empty());
    const RegionMap map = computeDecisionRegions(*lmgc.model, lmgc.theta, geometry.value().projection,
                                                 gridAround(geometry.value().trainCoords, 16, 16));
    QVERIFY(!map.exact);

    PreparedData lean = data;
    lean.trainBeforeMap = Dataset{};
    lean.testBeforeMap = Dataset{};
    QVERIFY(!makeModelViewGeometry(lean, {}, *lmgc.model, lmgc.theta).ok());
  }
};

QTEST_GUILESS_MAIN(TestRffLearning)
#include "test_rff_learning.moc"
