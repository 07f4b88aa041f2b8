// Issue 13 bug 7, "the noise is stringly typed": noise was drawn by looking up
// report.value("sigma") and comparing report.noise == "gaussian" without checks, and the
// ledger charged whatever report.delta held. The report now carries a typed calibration —
// law, mode, scale, dimension, ε, δ, the ε that holds — that every draw, the ledger and
// the audit read; the display rows and the JSON are generated from it. These tests fail on
// the string-keyed report: a scale stored under the wrong key, a δ charged for pure-ε
// noise, a σ = 0 DP-SGD run with a "sigma" of its own.

#include <QJsonObject>
#include <QTest>

#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/report_json.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"
#include "core/prediction/private_predictor.h"
#include "core/privacy/ledger.h"
#include "core/privacy/noise.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;
using mech::NoiseLaw;

namespace {

int rowsWithKey(const mech::MechanismReport& r, const std::string& key) {
  int count = 0;
  for (const auto& d : r.rows()) count += d.key == key ? 1 : 0;
  return count;
}

}  // namespace

class TestMechanismTypedCalibration : public QObject {
  Q_OBJECT

 private slots:
  // The scale sits under the key of its law, once; the other law's key is absent.
  void typedCalibrationNamesTheScaleOfItsLaw() {
    const auto data = test::blobs(2, true);
    for (const bool gaussian : {false, true}) {
      auto o = test::options(MechanismKind::Output, ModelKind::LogisticRegression, 1.0);
      if (gaussian) {
        o.family = mech::NoiseFamily::Gaussian;
        o.delta = 1e-5;
      }
      const auto r = mech::calibrate(o, {data.train.rows(), data.train.features(), 2}).value();
      QVERIFY(r.noise == (gaussian ? NoiseLaw::Gaussian : NoiseLaw::L2Laplace));
      QVERIFY(r.calibration == mech::Calibration::Corrected);
      const std::string key = gaussian ? "sigma" : "beta", other = gaussian ? "beta" : "sigma";
      QCOMPARE(rowsWithKey(r, key), 1);
      QCOMPARE(rowsWithKey(r, other), 0);
      QCOMPARE(*r.value(key), r.noiseScale());
      QVERIFY(r.noiseScale() > 0);
      const QJsonObject json = mech::reportToJson(r);
      QCOMPARE(json.value(QString::fromStdString(key)).toDouble(), r.noiseScale());
      QVERIFY(!json.contains(QString::fromStdString(other)));
      QCOMPARE(json.value("noise").toString(), QString::fromStdString(mech::noiseLawName(r.noise)));
    }
  }

  // The one draw function follows the typed law and scale: the same seed gives the same
  // bits as the law's own sampler at that scale, for each law with a noise vector.
  void typedCalibrationDrivesEveryDraw() {
    multiparty::MultipartyOptions published;
    published.calibration = mech::Calibration::Published;
    const auto perCoordinate = multiparty::calibrateMultiparty(published, 100, 6).value();
    QVERIFY(perCoordinate.noise == NoiseLaw::LaplacePerCoordinate);
    QVERIFY(perCoordinate.epsilonThatHolds().has_value());
    QCOMPARE(perCoordinate.epsilonThatHolds()->key, std::string("epsilon_provable"));

    const auto data = test::blobs(3, true);
    auto gaussian = test::options(MechanismKind::Loss, ModelKind::Softmax, 2.0);
    gaussian.family = mech::NoiseFamily::Gaussian;
    gaussian.delta = 1e-6;
    const auto loss = mech::calibrate(gaussian, {data.train.rows(), data.train.features(), 3}).value();
    const auto output = mech::calibrate(test::options(MechanismKind::Output, ModelKind::Softmax, 2.0),
                                        {data.train.rows(), data.train.features(), 3})
                            .value();

    for (const mech::MechanismReport* r : {&perCoordinate, &loss, &output}) {
      privacy::ExperimentNoise a(5), b(5);
      const auto drawn = mech::drawReportedNoise(*r, a);
      QVERIFY(drawn);
      QCOMPARE(drawn.value().noise.size(), r->noiseDimension);
      const auto expected = r->noise == NoiseLaw::Gaussian    ? privacy::drawGaussian(b, r->noiseScale(), r->noiseDimension)
                            : r->noise == NoiseLaw::L2Laplace ? privacy::drawL2Laplace(b, r->noiseScale(), r->noiseDimension)
                                : privacy::drawLaplacePerCoordinate(b, r->noiseScale(), r->noiseDimension);
      QVERIFY(drawn.value().noise == expected.value().noise);
    }

    mech::MechanismReport none;
    none.mechanism = "subsample";
    none.noise = NoiseLaw::ExponentialMechanism;
    privacy::ExperimentNoise c(5);
    const auto refused = mech::drawReportedNoise(none, c);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("exponential mechanism") != std::string::npos);
  }

  // What a ledger charges: δ only for a law that has one, the ε that holds where as
  // published claims more than it proves.
  void typedCalibrationChargesWhatHolds() {
    const auto data = test::blobs(2, true);
    auto pure = test::options(MechanismKind::Output, ModelKind::LogisticRegression, 1.0);
    pure.delta = 1e-5;  // carried by the options, but ℓ2-Laplace is (ε, 0)-DP
    const auto laplace = mech::calibrate(pure, {data.train.rows(), data.train.features(), 2}).value();
    QCOMPARE(laplace.chargedDelta(), 0.0);
    QCOMPARE(laplace.chargedEpsilon(), 1.0);

    predict::PredictionOptions asPublished;
    asPublished.learner.kind = ModelKind::LogisticRegression;
    asPublished.learner.lambda = 1e-2;
    asPublished.family = mech::NoiseFamily::Gaussian;
    asPublished.calibration = mech::Calibration::Published;
    asPublished.epsilon = 1.0;
    asPublished.delta = 1e-5;
    asPublished.budget = 1000;
    const auto predictor = predict::PrivatePredictor::train(asPublished, data.train);
    QVERIFY(predictor);
    const auto& report = predictor.value().report();
    QVERIFY(report.epsilonThatHolds().has_value());
    QVERIFY(report.chargedEpsilon() > asPublished.epsilon);
    // Its first answer opens the budget in the ledger, charged what holds.
    predict::PrivatePredictor answering = predictor.value();
    privacy::PrivacyLedger ledger;
    privacy::ExperimentNoise noise(3);
    QVERIFY(answering.answer(data.test.X.row(0).transpose(), noise, &ledger));
    QCOMPARE(ledger.entries().size(), std::size_t{1});
    QCOMPARE(ledger.entries().front().epsilon, report.epsilonThatHolds()->value);
    QCOMPARE(ledger.entries().front().delta, asPublished.delta);

    predict::PredictionOptions votes;
    votes.kind = predict::PredictionKind::Subsample;
    votes.learner.kind = ModelKind::LogisticRegression;
    votes.teachers = 10;
    votes.budget = 4;
    votes.delta = 1e-5;  // basic composition is cheaper here: the answers are pure ε
    const auto subsample = predict::calibratePrediction(votes, {data.train.rows(), data.train.features(), 2}).value();
    QVERIFY(subsample.noise == NoiseLaw::ExponentialMechanism);
    QCOMPARE(subsample.chargedDelta(), 0.0);
  }

  // DP-SGD with noise multiplier 0 has no noise law and no scale, rather than "sigma" = 0
  // beside a "gaussian" law.
  void typedCalibrationOfANoiselessRun() {
    auto o = test::options(MechanismKind::DpSgd, ModelKind::Softmax, 1.0);
    o.sgd.noiseMultiplier = 0.0;
    const auto calibrated = mech::calibrate(o, {400, 3, 2});
    QVERIFY2(calibrated, calibrated ? "" : calibrated.error().toString().c_str());
    const auto& r = calibrated.value();
    QVERIFY(r.noise == NoiseLaw::None);
    QCOMPARE(r.noiseScale(), 0.0);
    QVERIFY(!r.value("sigma"));
    QCOMPARE(r.chargedDelta(), 0.0);
  }
};

QTEST_GUILESS_MAIN(TestMechanismTypedCalibration)
#include "test_mechanism_typed_calibration.moc"
