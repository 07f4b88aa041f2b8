// Objective perturbation on a9a (UCI Adult, label "realdata"; needs DPSTUDIO_DATA_DIR).
// Every a9a row is a one-hot encoding with at most 14 ones, so ‖x‖ ≤ √14 is known from the
// schema, not read off the data: the public norm bound. No intercept (docs/algorithms.md §2.1).
// ε = 1, mean test accuracy over 10 seeds, at a fixed λ and with λ chosen by private
// tuning (Chaudhuri et al. Alg. 3).

#include <QTest>

#include <cmath>

#include "core/mechanisms/tuning.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;

namespace {

PreparedData a9a() {
  const std::string dir = test::realDataDir().toStdString();
  DataRequest request;
  request.trainSpec = dir + "/a9a";
  request.testSpec = dir + "/a9a.t";
  request.preprocess.normBound = std::sqrt(14.0);
  auto prepared = prepareData(request);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

constexpr int kSeeds = 10;

}  // namespace

class TestMechanismRealData : public QObject {
  Q_OBJECT

 private slots:
  void objectivePerturbationOnA9aAtFixedLambda() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto data = a9a();
    QCOMPARE(data.train.rows(), Index(32561));
    const auto o = test::options(mech::MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, 3e-4);
    double sum = 0;
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed)
      sum += test::testAccuracy(test::trainWithSeed(o, data.train, seed), data.test);
    const double mean = sum / kSeeds;
    qInfo("a9a objective perturbation, logreg, eps 1, lambda 3e-4: mean test accuracy %.4f over %d seeds", mean,
          kSeeds);
    QVERIFY2(mean >= 0.835, qPrintable(QString::number(mean)));
  }

  void objectivePerturbationOnA9aWithPrivateTuning() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto data = a9a();
    const mech::TuningOptions o{test::options(mech::MechanismKind::Objective, ModelKind::LogisticRegression, 1.0),
                                {1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2}};
    double sum = 0;
    QString chosen;
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      privacy::ExperimentNoise noise(seed);
      auto tuned = mech::tunePrivately(o, data.train, noise);
      QVERIFY2(tuned, tuned ? "" : tuned.error().toString().c_str());
      sum += test::testAccuracy(tuned.value(), data.test);
      chosen += QString(" %1").arg(*tuned.value().report.value("chosen_lambda"));
    }
    const double mean = sum / kSeeds;
    qInfo("a9a objective perturbation, logreg, eps 1, lambda tuned privately: mean test accuracy %.4f over %d "
          "seeds (chosen:%s)", mean, kSeeds, qPrintable(chosen));
    QVERIFY2(mean >= 0.805, qPrintable(QString::number(mean)));
  }
};

QTEST_GUILESS_MAIN(TestMechanismRealData)
#include "test_mechanism_realdata.moc"
