// The four baselines on the shipped data: LMGC's quadratic boundaries against the linear
// models, one-vs-rest against softmax, warm starts, and cancellation.

#include <QTest>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/learn/learner.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

PreparedData prepare(const std::string& spec, PreprocessSpec preprocess) {
  DataRequest request;
  request.trainSpec = spec;
  request.testFraction = 0.3;
  request.preprocess = std::move(preprocess);
  auto prepared = prepareData(request);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

double testAccuracy(const PreparedData& data, ModelKind kind, double lambda) {
  auto trained = trainModel({kind, lambda, 0.5}, data.train.X, data.train.y, data.train.classes());
  if (!trained) qFatal("%s", trained.error().toString().c_str());
  return accuracy(*trained.value().model, trained.value().theta, data.test.X, data.test.y);
}

PreprocessSpec bounded(double normBound, bool intercept = false) {
  PreprocessSpec spec;
  spec.normBound = normBound;
  spec.intercept = intercept;
  return spec;
}

}  // namespace

class TestLearners : public QObject {
  Q_OBJECT

 private slots:
  void lmgcOnDigitsMatchesSoftmax() {
    PreprocessSpec pre;
    pre.publicRanges = {{0.0, 16.0}};
    pre.normBound = 8.0;
    const auto data = prepare("builtin:digits", pre);
    const double softmax = testAccuracy(data, ModelKind::Softmax, 1e-4);
    const double lmgc = testAccuracy(data, ModelKind::Lmgc, 1e-4);
    qInfo("digits: softmax %.4f, LMGC %.4f", softmax, lmgc);
    QVERIFY2(lmgc >= softmax - 0.01, qPrintable(QString("%1 vs %2").arg(lmgc).arg(softmax)));
  }

  // Two classes with the same mean and different covariances: no linear rule does much
  // better than chance, a quadratic one does.
  void lmgcBeatsLinearModelsOnDifferentCovariances() {
    const auto data = prepare("builtin:blobs:classes=2,dim=2,per_class=400,separation=0.5,anisotropy=6,seed=3",
                              bounded(4.0));
    const double lmgc = testAccuracy(data, ModelKind::Lmgc, 1e-3);
    for (ModelKind linear : {ModelKind::LogisticRegression, ModelKind::HuberSvm, ModelKind::Softmax}) {
      const double acc = testAccuracy(data, linear, 1e-4);
      qInfo("%s %.4f vs LMGC %.4f", modelKindName(linear).c_str(), acc, lmgc);
      QVERIFY2(lmgc >= acc + 0.1, qPrintable(QString("%1 vs %2").arg(lmgc).arg(acc)));
    }
  }

  void oneVsRestOnIris() {
    const auto data = prepare("builtin:iris", bounded(10.0, true));
    QVERIFY(testAccuracy(data, ModelKind::LogisticRegression, 1e-4) > 0.9);
    QVERIFY(testAccuracy(data, ModelKind::HuberSvm, 1e-4) > 0.9);
  }

  void warmStartFromTheSolutionIsImmediate() {
    const auto data = prepare("builtin:wine", bounded(2000.0));
    const LearnerSpec spec{ModelKind::Softmax, 1e-3, 0.5};
    const auto cold = trainModel(spec, data.train.X, data.train.y, 3).value();
    TrainControl control;
    control.warmStart = cold.theta;
    const auto warm = trainModel(spec, data.train.X, data.train.y, 3, control).value();
    QVERIFY(warm.summary.iterations <= 2);
    QVERIFY((warm.theta - cold.theta).norm() <= 1e-6 * (1 + cold.theta.norm()));
  }

  void exactMinimizerTolerance() {
    // The first design's relative stopping rule ‖∇J‖ ≤ 1e-9·(1 + ‖θ‖) (docs/algorithms.md §3.0).
    const auto data = prepare("builtin:breast_cancer", bounded(5000.0));
    TrainControl control;
    control.tolerance = 1e-10;
    const auto trained = trainModel({ModelKind::LogisticRegression, 1e-3, 0.5}, data.train.X,
                                    data.train.y, 2, control).value();
    QVERIFY2(trained.summary.gradientNorm <= 1e-9 * (1 + trained.theta.norm()),
             qPrintable(QString::number(trained.summary.gradientNorm)));
  }

  void cancellationReturnsCancelled() {
    const auto data = prepare("builtin:digits", bounded(100.0));
    StopToken stop;
    stop.requestStop();
    TrainControl control;
    control.progress = Progress({}, stop);
    for (ModelKind kind : {ModelKind::LogisticRegression, ModelKind::Softmax, ModelKind::Lmgc}) {
      auto trained = trainModel({kind, 1e-4, 0.5}, data.train.X, data.train.y, 10, control);
      QVERIFY2(!trained.ok(), modelKindName(kind).c_str());
      QCOMPARE(trained.error().kind, ErrorKind::Cancelled);
    }
  }

  // LMGC's progress moves during its rounds of L-BFGS over factors (which do not compute the
  // stopping measure; a round takes seconds on a9a) and never moves back: digits at λ = 1e-3
  // goes through several rounds. Before, the bar held still for a round's 75–500 iterations.
  void lmgcProgressMovesDuringRoundsAndNeverBack() {
    PreprocessSpec pre;
    pre.publicRanges = {{0.0, 16.0}};
    pre.normBound = 8.0;
    const auto data = prepare("builtin:digits", pre);
    std::vector<double> shown;
    TrainControl control;
    control.progress = Progress([&](double fraction) { shown.push_back(fraction); });
    auto trained = trainModel({ModelKind::Lmgc, 1e-3, 0.5}, data.train.X, data.train.y, 10, control);
    QVERIFY2(trained.ok(), trained.ok() ? "" : trained.error().toString().c_str());
    QVERIFY(shown.size() > 100);
    std::size_t longestHold = 0, hold = 0;
    for (std::size_t k = 1; k < shown.size(); ++k) {
      QVERIFY2(shown[k] >= shown[k - 1], qPrintable(QString("report %1: %2 after %3").arg(k).arg(shown[k]).arg(shown[k - 1])));
      hold = shown[k] == shown[k - 1] ? hold + 1 : 0;
      longestHold = std::max(longestHold, hold);
    }
    qInfo("%zu reports, the longest run of equal ones %zu, last %.3f", shown.size(), longestHold, shown.back());
    QVERIFY2(longestHold < 40, qPrintable(QString::number(longestHold)));
    QVERIFY(shown.back() > 0.95);
  }
};

QTEST_GUILESS_MAIN(TestLearners)
#include "test_learners.moc"
