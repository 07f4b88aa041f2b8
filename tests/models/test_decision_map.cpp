// Decision regions on the view plane: the exact plane restriction agrees with evaluating
// the model pixel by pixel, for linear and quadratic (LMGC) models, in 2-D and in 6-D.

#include <QTest>

#include <set>

#include "core/sources/builtin.h"
#include "core/learn/decision_map.h"
#include "core/learn/learner.h"

using namespace dpstudio;

namespace {

// The same model, but hiding its polynomial degree so the map takes the pointwise path.
class Opaque : public Model {
 public:
  explicit Opaque(const Model& inner) : Model(inner.inputDim(), inner.classes()), inner_(inner) {}
  ModelKind kind() const override { return inner_.kind(); }
  Index parameterCount() const override { return inner_.parameterCount(); }
  double lossSum(const Eigen::VectorXd& t, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                 Eigen::VectorXd* g) const override {
    return inner_.lossSum(t, X, y, g);
  }
  Eigen::MatrixXd perExampleGradients(const Eigen::VectorXd& t, const Eigen::MatrixXd& X,
                                      const Eigen::VectorXi& y) const override {
    return inner_.perExampleGradients(t, X, y);
  }
  Eigen::MatrixXd scores(const Eigen::VectorXd& t, const Eigen::MatrixXd& X) const override {
    return inner_.scores(t, X);
  }
  ModelConstants constants() const override { return inner_.constants(); }

 private:
  const Model& inner_;
};

}  // namespace

class TestDecisionMap : public QObject {
  Q_OBJECT

 private slots:
  void exactAgreesWithPointwise_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("dim");
    QTest::newRow("softmax 2-D") << static_cast<int>(ModelKind::Softmax) << 2;
    QTest::newRow("softmax 6-D") << static_cast<int>(ModelKind::Softmax) << 6;
    QTest::newRow("one-vs-rest 6-D") << static_cast<int>(ModelKind::LogisticRegression) << 6;
    QTest::newRow("LMGC 2-D") << static_cast<int>(ModelKind::Lmgc) << 2;
    QTest::newRow("LMGC 6-D") << static_cast<int>(ModelKind::Lmgc) << 6;
  }

  void exactAgreesWithPointwise() {
    QFETCH(int, kind);
    QFETCH(int, dim);
    BlobsOptions options;
    options.classes = 4;
    options.dim = dim;
    options.perClass = 60;
    Dataset data = makeBlobs(options);
    data.X /= data.maxRowNorm();
    auto trained = trainModel({static_cast<ModelKind>(kind), 1e-3, 0.5}, data.X, data.y, 4).value();
    const auto view = makeViewProjection(data, {ViewKind::RandomProjection, 0, 1, 5}).value();
    const Eigen::MatrixXd coords = view.project(data.X);
    ViewGrid grid{coords.col(0).minCoeff(), coords.col(0).maxCoeff(), coords.col(1).minCoeff(),
                  coords.col(1).maxCoeff(), 160, 120};
    const RegionMap exact = computeDecisionRegions(*trained.model, trained.theta, view, grid);
    const RegionMap slow = computeDecisionRegions(Opaque(*trained.model), trained.theta, view, grid);
    QVERIFY(exact.exact);
    QVERIFY(!slow.exact);
    int differ = 0;
    for (std::size_t k = 0; k < exact.labels.size(); ++k) differ += exact.labels[k] != slow.labels[k];
    QVERIFY2(differ <= 2, qPrintable(QString::number(differ)));  // ties on a boundary at most
    // And more than one class is visible: the map is not trivially constant.
    QVERIFY(std::set<int>(exact.labels.begin(), exact.labels.end()).size() > 1);
  }

  void gridOrientation() {
    const ViewGrid grid{0, 4, 0, 2, 4, 2};
    QCOMPARE(grid.x(0), 0.5);
    QCOMPARE(grid.y(0), 1.5);  // row 0 is the top
    QCOMPARE(grid.y(1), 0.5);
  }
};

QTEST_GUILESS_MAIN(TestDecisionMap)
#include "test_decision_map.moc"
