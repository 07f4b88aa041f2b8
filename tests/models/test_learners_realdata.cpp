// End-to-end accuracy of the non-private learners on real data (label "realdata"):
// a9a (UCI Adult) and MNIST from DPSTUDIO_DATA_DIR, and the shipped digits set.

#include <QTest>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/learn/learner.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

struct Scores {
  double train = 0;
  double test = 0;
};

Scores trainAndScore(const PreparedData& data, ModelKind kind, double lambda) {
  auto trained = trainModel({kind, lambda, 0.5}, data.train.X, data.train.y, data.train.classes());
  if (!trained) qFatal("%s", trained.error().toString().c_str());
  const auto& t = trained.value();
  return {accuracy(*t.model, t.theta, data.train.X, data.train.y),
          accuracy(*t.model, t.theta, data.test.X, data.test.y)};
}

PreparedData prepare(DataRequest request) {
  auto prepared = prepareData(request);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

PreparedData a9a() {
  DataRequest request;
  const std::string dir = dpstudio::test::realDataDir().toStdString();
  request.trainSpec = dir + "/a9a";
  request.testSpec = dir + "/a9a.t";
  return prepare(request);
}

}  // namespace

class TestLearnersRealData : public QObject {
  Q_OBJECT

 private slots:
  // scikit-learn's LogisticRegression(C=1) reaches 84.98% on a9a.t.
  void logisticRegressionOnA9a() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto data = a9a();
    const Scores s = trainAndScore(data, ModelKind::LogisticRegression, 1.0 / 32561);
    qInfo("a9a logistic regression: train %.4f, test %.4f", s.train, s.test);
    QVERIFY2(s.test >= 0.845, qPrintable(QString::number(s.test)));
  }

  void huberSvmOnA9a() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto data = a9a();
    const Scores s = trainAndScore(data, ModelKind::HuberSvm, 1.0 / 32561);
    qInfo("a9a Huber SVM: train %.4f, test %.4f", s.train, s.test);
    QVERIFY2(s.test >= 0.84, qPrintable(QString::number(s.test)));
  }

  void softmaxOnMnist() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const std::string dir = dpstudio::test::realDataDir().toStdString();
    DataRequest request;
    request.trainSpec = dir + "/train-images-idx3-ubyte.gz";
    request.trainOptions.labelsPath = dir + "/train-labels-idx1-ubyte.gz";
    request.testSpec = dir + "/t10k-images-idx3-ubyte.gz";
    request.testOptions.labelsPath = dir + "/t10k-labels-idx1-ubyte.gz";
    request.preprocess.publicRanges = {{0.0, 255.0}};
    request.preprocess.unitRows = true;
    const auto data = prepare(request);
    QCOMPARE(data.train.rows(), Index(60000));
    const Scores s = trainAndScore(data, ModelKind::Softmax, 1e-5);
    qInfo("MNIST softmax: train %.4f, test %.4f", s.train, s.test);
    QVERIFY2(s.test >= 0.915, qPrintable(QString::number(s.test)));
  }
};

QTEST_GUILESS_MAIN(TestLearnersRealData)
#include "test_learners_realdata.moc"
