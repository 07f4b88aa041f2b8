// Private prediction on MNIST and multiparty aggregation on a9a (label "realdata"; needs
// DPSTUDIO_DATA_DIR).
//
// MNIST (paper 003 §4.2): rows scaled to unit norm (per example, no privacy cost), softmax
// regression, inference budget B = 100, δ = 0, accuracy over the first 100 test points
// answered through the private predictor, averaged over 10 repetitions of the whole
// mechanism (each repetition is its own release, as in the paper's 100 repeats). The
// non-private part is trained once and reused across ε: θ* for prediction sensitivity,
// the T = 256 teachers for subsample-and-aggregate.
//
// a9a (paper 004 §5, Figure 2): every row is a one-hot encoding with at most 14 ones, so
// ‖x‖ ≤ √14 is the public norm bound. λ = 1e-3 in J(w) = (1/n)Σℓ + λ‖w‖² (paper 004 uses
// λ = 1 on unnormalized rows; on rows scaled into the unit ball λ = 1 gives the constant
// classifier). Test error averaged over 200 noise draws per ε, the local models trained once.

#include <QTest>

#include <algorithm>
#include <cmath>

#include "core/models/linear.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"

using namespace dpstudio;

namespace {

constexpr long long kBudget = 100;
constexpr int kRepetitions = 10;

PreparedData mnist() {
  return test::orDie(prepareData(mnistRequest(test::realDataDir().toStdString())));
}

PreparedData a9a() {
  const std::string dir = test::realDataDir().toStdString();
  DataRequest request;
  request.trainSpec = dir + "/a9a";
  request.testSpec = dir + "/a9a.t";
  request.preprocess.normBound = std::sqrt(14.0);
  return test::orDie(prepareData(request));
}

// Mean accuracy of kRepetitions fresh repetitions answering the first B test points.
template <class Predictor>
double meanAccuracy(const Predictor& predictor, const Dataset& test, std::uint64_t seed) {
  double sum = 0;
  for (int r = 0; r < kRepetitions; ++r) {
    Predictor fresh = predictor.freshRepetition();
    privacy::ExperimentNoise noise(seed, static_cast<std::uint64_t>(r));
    const auto answers = test::orDie(fresh.answerRows(test.X.topRows(kBudget), noise));
    int correct = 0;
    for (Index i = 0; i < kBudget; ++i) correct += answers[static_cast<std::size_t>(i)].label == test.y[i];
    sum += correct / static_cast<double>(kBudget);
  }
  return sum / kRepetitions;
}

const std::vector<double> kMnistEpsilons{0.5, 2.0, 10.0};
const std::vector<double> kA9aEpsilons{0.1, 0.3, 1, 3, 10, 30};
constexpr int kNoiseDraws = 200;

double testError(const Eigen::VectorXd& w, const Dataset& test) {
  const BinaryLinearModel model(test.features(), MarginLoss{});
  return 1.0 - accuracy(model, w, test.X, test.y);
}

}  // namespace

class TestPredictionRealData : public QObject {
  Q_OBJECT

  PreparedData mnist_;
  PreparedData a9a_;

 private slots:
  void initTestCase() {
    if (test::realDataDir().isEmpty()) return;
    mnist_ = mnist();
    a9a_ = a9a();
  }

  void mnistPredictionSensitivity() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    auto o = test::sensitivityOptions(ModelKind::Softmax, kMnistEpsilons.back(), kBudget, 1e-2);
    const auto trained = test::orDie(predict::PrivatePredictor::train(o, mnist_.train));
    std::vector<double> means;
    for (double epsilon : kMnistEpsilons) {
      o.epsilon = epsilon;
      const auto predictor = test::orDie(predict::PrivatePredictor::restore(
          o, mnist_.train.rows(), mnist_.train.features(), mnist_.train.classes(), trained.theta(), 0));
      means.push_back(meanAccuracy(predictor, mnist_.test, 100));
      qInfo("MNIST prediction sensitivity, softmax, lambda 1e-2, B 100, delta 0, eps %5.1f: beta %.4g, accuracy %.3f",
            epsilon, *predictor.report().value("beta"), means.back());
    }
    for (std::size_t i = 1; i < means.size(); ++i) QVERIFY(means[i] > means[i - 1]);
    QVERIFY2(means.back() >= 0.5, qPrintable(QString::number(means.back())));  // chance is 0.1
  }

  void mnistSubsampleAndAggregate() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    auto o = test::subsampleOptions(ModelKind::Softmax, 1.0, kBudget, 256, 1e-3);
    const auto teachers = test::orDie(predict::trainTeachers(o, mnist_.train));
    QCOMPARE(teachers->partRows, Index(60000 / 256));
    for (mech::Calibration calibration : {mech::Calibration::Corrected, mech::Calibration::Published}) {
      o.calibration = calibration;
      std::vector<double> means;
      for (double epsilon : kMnistEpsilons) {
        o.epsilon = epsilon;
        const auto predictor = test::orDie(predict::SubsampleAggregate::restore(o, teachers, 0));
        means.push_back(meanAccuracy(predictor, mnist_.test, 200));
        qInfo("MNIST subsample-and-aggregate, T 256, B 100, delta 0, %s, eps %5.1f: beta %.4g, accuracy %.3f",
              mech::calibrationName(calibration).c_str(), epsilon, predictor.beta(), means.back());
      }
      for (std::size_t i = 1; i < means.size(); ++i) QVERIFY(means[i] > means[i - 1]);
      QVERIFY2(means.back() >= 0.5, qPrintable(QString::number(means.back())));
    }
  }

  // Paper 004 Figure 2 with five even parties: the corrected aggregate's error falls toward
  // the all-data model's as ε grows.
  void a9aMultipartyEvenParties() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    multiparty::MultipartyOptions o;
    o.parties = 5;
    o.lambda = 1e-3;
    const auto parties = test::orDie(multiparty::partyRows(a9a_.train.rows(), o));
    const auto locals = test::orDie(multiparty::trainLocalModels(o, a9a_.train, parties));
    const Eigen::VectorXd allData = test::orDie(multiparty::trainAllData(o, a9a_.train));
    const double allDataError = testError(allData, a9a_.test);
    std::vector<double> errors;
    for (double epsilon : kA9aEpsilons) {
      o.epsilon = epsilon;
      double sum = 0;
      for (int draw = 0; draw < kNoiseDraws; ++draw) {
        privacy::ExperimentNoise noise(7, static_cast<std::uint64_t>(draw));
        const auto release = test::orDie(multiparty::aggregate(locals, o, multiparty::TrustedCurator{}, noise));
        sum += testError(release.released, a9a_.test);
      }
      errors.push_back(sum / kNoiseDraws);
      qInfo("a9a multiparty, 5 even parties, lambda 1e-3, eps %5.1f: test error %.4f (all data, non-private %.4f)",
            epsilon, errors.back(), allDataError);
    }
    for (std::size_t i = 1; i < errors.size(); ++i) QVERIFY(errors[i] <= errors[i - 1] + 0.002);
    QVERIFY(errors.front() > errors.back() + 0.05);
    QVERIFY2(errors.back() - allDataError < 0.005, qPrintable(QString::number(errors.back() - allDataError)));
  }

  // The three splits of paper 004, corrected and as published, with the all-data baselines:
  // the table of the closing note. Checks only what the theory says: at every ε the even
  // split (largest n_(1)) is at least as good as the 10% split.
  void a9aMultipartySplitsTable() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const std::vector<std::pair<const char*, std::vector<double>>> splits{
        {"even 5 parties", {}}, {"15/20/20/20/25", {0.15, 0.2, 0.2, 0.2, 0.25}}, {"10/20/20/20/30", {0.1, 0.2, 0.2, 0.2, 0.3}}};
    multiparty::MultipartyOptions base;
    base.parties = 5;
    base.lambda = 1e-3;
    const Eigen::VectorXd allData = test::orDie(multiparty::trainAllData(base, a9a_.train));
    qInfo("a9a, lambda 1e-3, test error mean over %d noise draws; all data non-private %.4f", kNoiseDraws,
          testError(allData, a9a_.test));
    std::vector<std::vector<double>> corrected;
    for (const auto& [name, fractions] : splits) {
      multiparty::MultipartyOptions o = base;
      o.fractions = fractions;
      const auto parties = test::orDie(multiparty::partyRows(a9a_.train.rows(), o));
      const auto locals = test::orDie(multiparty::trainLocalModels(o, a9a_.train, parties));
      corrected.emplace_back();
      for (double epsilon : kA9aEpsilons) {
        o.epsilon = epsilon;
        double sum[3] = {0, 0, 0};  // corrected, published, all data DP
        for (int draw = 0; draw < kNoiseDraws; ++draw) {
          privacy::ExperimentNoise noise(11, static_cast<std::uint64_t>(draw));
          o.calibration = mech::Calibration::Corrected;
          sum[0] += testError(test::orDie(multiparty::aggregate(locals, o, multiparty::TrustedCurator{}, noise)).released,
                              a9a_.test);
          o.calibration = mech::Calibration::Published;
          sum[1] += testError(test::orDie(multiparty::aggregate(locals, o, multiparty::TrustedCurator{}, noise)).released,
                              a9a_.test);
          multiparty::MultipartyOptions pooled = base;
          pooled.parties = 1;
          pooled.epsilon = epsilon;
          sum[2] += testError(test::orDie(multiparty::aggregate({{allData, a9a_.train.rows()}}, pooled,
                                                                multiparty::TrustedCurator{}, noise)).released,
                              a9a_.test);
        }
        corrected.back().push_back(sum[0] / kNoiseDraws);
        qInfo("  %-15s n1 %5zu eps %5.1f: corrected %.4f  as published %.4f  | all data DP %.4f", name,
              std::min_element(parties.begin(), parties.end(), [](auto& a, auto& b) { return a.size() < b.size(); })->size(),
              epsilon, sum[0] / kNoiseDraws, sum[1] / kNoiseDraws, sum[2] / kNoiseDraws);
      }
    }
    for (std::size_t e = 0; e < kA9aEpsilons.size(); ++e) QVERIFY(corrected[0][e] <= corrected[2][e] + 0.002);
  }
};

QTEST_GUILESS_MAIN(TestPredictionRealData)
#include "test_prediction_realdata.moc"
