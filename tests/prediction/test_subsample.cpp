// Subsample-and-aggregate (docs/algorithms.md §3 G): the sampled labels follow the exponential
// mechanism's exact probabilities (Pearson χ², fixed seeds), the teachers are the same for
// 1 and 2 threads, training is cancellable, and with a generous ε the answers are accurate.

#include <QTest>

#include "core/privacy/noise.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"
#include "tests/privacy/statistics.h"

using namespace dpstudio;

namespace {

// Ten one-feature softmax teachers; at x = 1 teacher t predicts class c when θ_t = e_c:
// votes (6, 3, 1).
std::shared_ptr<const predict::TeacherEnsemble> fixedVotes() {
  auto ensemble = std::make_shared<predict::TeacherEnsemble>();
  ensemble->model = test::orDie(makeModel(LearnerSpec{ModelKind::Softmax, 1e-2, 0.5}, 1, 3));
  for (int c : {0, 0, 0, 0, 0, 0, 1, 1, 1, 2}) ensemble->thetas.push_back(Eigen::VectorXd::Unit(3, c));
  ensemble->trainRows = 100;
  ensemble->partRows = 10;
  return ensemble;
}

}  // namespace

class TestSubsample : public QObject {
  Q_OBJECT

 private slots:
  void votesCountTeachers() {
    const auto ensemble = fixedVotes();
    const Eigen::MatrixXi votes = ensemble->votes(Eigen::MatrixXd::Ones(2, 1));
    QCOMPARE(votes.row(0), (Eigen::RowVector3i() << 6, 3, 1).finished());
    QCOMPARE(votes.row(1).sum(), 10);
  }

  // 20 000 single answers (fresh repetitions, B = 1) against exp(β·votes)/Σ, for the
  // corrected β = ε/2 and the published β = ε.
  void exponentialMechanismSamplingFitsChiSquared_data() {
    QTest::addColumn<int>("calibration");
    QTest::addColumn<double>("beta");
    QTest::newRow("corrected") << int(mech::Calibration::Corrected) << 0.3;
    QTest::newRow("published") << int(mech::Calibration::Published) << 0.6;
  }
  void exponentialMechanismSamplingFitsChiSquared() {
    QFETCH(int, calibration);
    QFETCH(double, beta);
    auto o = test::subsampleOptions(ModelKind::Softmax, 0.6, 1, 10);
    o.calibration = mech::Calibration(calibration);
    const auto predictor = test::orDie(predict::SubsampleAggregate::restore(o, fixedVotes(), 0));
    QCOMPARE(predictor.beta(), beta);
    privacy::ExperimentNoise noise(20240601);
    std::vector<long> counts(3, 0);
    const int draws = 20000;
    for (int i = 0; i < draws; ++i) {
      auto fresh = predictor.freshRepetition();
      ++counts[static_cast<std::size_t>(test::orDie(fresh.answer(Eigen::VectorXd::Ones(1), noise)).label)];
    }
    const Eigen::VectorXd exact =
        test::orDie(privacy::exponentialMechanismProbabilities(beta, Eigen::Vector3d(6, 3, 1)));
    const auto fit = test::chiSquared(counts, {exact[0], exact[1], exact[2]});
    qInfo("beta %.2f: counts %ld %ld %ld, expected %.0f %.0f %.0f, chi2 %.3f, p %.3f", beta, counts[0], counts[1],
          counts[2], draws * exact[0], draws * exact[1], draws * exact[2], fit.statistic, fit.pValue);
    QVERIFY2(fit.pValue > 1e-3, qPrintable(QString::number(fit.pValue)));
  }

  void teachersAreTheSameForOneAndTwoThreads() {
    const auto data = test::predictionBlobs(3, 60);
    const auto o = test::subsampleOptions(ModelKind::Softmax, 1.0, 10, 6);
    std::shared_ptr<const predict::TeacherEnsemble> one, two;
    {
      const ScopedWorkerThreads threads(1);
      one = test::orDie(predict::trainTeachers(o, data.train));
    }
    {
      const ScopedWorkerThreads threads(2);
      two = test::orDie(predict::trainTeachers(o, data.train));
    }
    QCOMPARE(one->teachers(), Index(6));
    QCOMPARE(one->partRows, data.train.rows() / 6);
    for (std::size_t t = 0; t < 6; ++t) QVERIFY((one->thetas[t].array() == two->thetas[t].array()).all());
  }

  void trainingIsCancellable() {
    const auto data = test::predictionBlobs(3, 60);
    const auto o = test::subsampleOptions(ModelKind::Softmax, 1.0, 10, 12);
    StopToken stop;
    TrainControl control;
    int reports = 0;
    control.progress = Progress([&](double) {
      if (++reports == 1) stop.requestStop();
    }, stop);
    const ScopedWorkerThreads threads(1);
    auto result = predict::SubsampleAggregate::train(o, data.train, control);
    QVERIFY(!result);
    QCOMPARE(result.error().kind, ErrorKind::Cancelled);
    QCOMPARE(reports, 1);  // the teachers after the first were not trained
  }

  void generousEpsilonAnswersAccurately() {
    const auto data = test::predictionBlobs(3, 100);
    const auto o = test::subsampleOptions(ModelKind::Softmax, 400.0, 40, 8);
    auto predictor = test::orDie(predict::SubsampleAggregate::train(o, data.train));
    privacy::ExperimentNoise noise(9);
    const auto answers = test::orDie(predictor.answerRows(data.test.X.topRows(40), noise));
    int correct = 0;
    for (std::size_t i = 0; i < answers.size(); ++i) correct += answers[i].label == data.test.y[static_cast<Index>(i)];
    QVERIFY2(correct >= 34, qPrintable(QString::number(correct)));
    QCOMPARE(predictor.report().mechanism, std::string("subsample"));
  }
};

QTEST_GUILESS_MAIN(TestSubsample)
#include "test_subsample.moc"
