// The inference budget of the private predictors (docs/algorithms.md §3 F, G): B answers succeed,
// answer B+1 is refused and draws no noise, the count survives copies (which share it) and
// a JSON round trip (which restores it), a stored state cannot lower the noise, batches are
// all or nothing, and the ledger records the budget once.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "core/prediction/predictor_json.h"
#include "core/privacy/ledger.h"
#include "core/privacy/release_granularity.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"

using namespace dpstudio;

namespace {

QJsonObject reparsed(const QJsonObject& json) {
  return QJsonDocument::fromJson(QJsonDocument(json).toJson(QJsonDocument::Compact)).object();
}

bool identical(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && (a.array() == b.array()).all();
}

}  // namespace

class TestPredictionBudget : public QObject {
  Q_OBJECT

  PreparedData data_ = test::predictionBlobs(3, 80);

 private slots:
  void sensitivityAnswersBThenRefuses() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 5), data_.train));
    privacy::ExperimentNoise noise(7);
    for (int i = 0; i < 5; ++i) {
      auto answer = predictor.answer(data_.test.X.row(i).transpose(), noise);
      QVERIFY2(answer, answer ? "" : answer.error().toString().c_str());
      QCOMPARE(answer.value().number, static_cast<long long>(i + 1));
      QCOMPARE(answer.value().scores.size(), Index(3));
    }
    QCOMPARE(predictor.remaining(), 0LL);
    auto refused = predictor.answer(data_.test.X.row(5).transpose(), noise);
    QVERIFY(!refused);
    QCOMPARE(refused.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(refused.error().field, std::string("budget"));
    QVERIFY(refused.error().message.find("answer 6 refused") != std::string::npos);
    QCOMPARE(predictor.used(), 5LL);
  }

  // Issue 12 item 3: beside released scores, ‖b‖ would locate the noise-free ones. It is a
  // diagnostic of experiment noise only; with release noise no answer carries it.
  void releaseAnswersCarryNoNoiseNorm() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 4), data_.train));
    privacy::ExperimentNoise experiment(7);
    const auto diagnostic = test::orDie(predictor.answer(data_.test.X.row(0).transpose(), experiment));
    QVERIFY(diagnostic.noiseNorm.has_value());
    QVERIFY(*diagnostic.noiseNorm > 0);
    auto release = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Release, 0));
    const auto released = test::orDie(predictor.answer(data_.test.X.row(1).transpose(), *release));
    QVERIFY(!released.noiseNorm.has_value());
  }

  // Issue 30 bug 8: the scores θᵀx + b are an additive release, so release-mode answers draw
  // at the scale enlarged by F = 1 + 2^-10, as output perturbation does (β ÷ F, σ × F);
  // experiment answers keep the calibrated scale, which the report also names.
  void releaseAnswersDrawEnlargedNoise() {
    for (const bool gaussian : {false, true}) {
      auto options = test::sensitivityOptions(ModelKind::Softmax, 1.0, 4);
      if (gaussian) {
        options.family = mech::NoiseFamily::Gaussian;
        options.delta = 1e-6;
      }
      auto predictor = test::orDie(predict::PrivatePredictor::train(options, data_.train));
      const double calibrated = predictor.report().noiseScale();
      QCOMPARE(*predictor.report().value("release_noise_factor"), privacy::kReleaseNoiseFactor);
      privacy::ExperimentNoise experiment(7);
      QCOMPARE(test::orDie(predictor.answer(data_.test.X.row(0).transpose(), experiment)).noiseScale, calibrated);
      auto release = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Release, 0));
      const double used = test::orDie(predictor.answer(data_.test.X.row(1).transpose(), *release)).noiseScale;
      QCOMPARE(used, gaussian ? calibrated * privacy::kReleaseNoiseFactor : calibrated / privacy::kReleaseNoiseFactor);
      QCOMPARE(predictor.report().noiseScale(), calibrated);  // the stored calibration is untouched
    }
  }

  // A refused answer draws no noise: the stream continues where the last answer left it.
  void refusedAnswerDrawsNoNoise() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 1), data_.train));
    privacy::ExperimentNoise a(3), b(3);
    QVERIFY(predictor.answer(data_.test.X.row(0).transpose(), a));
    QVERIFY(!predictor.answer(data_.test.X.row(0).transpose(), a));
    auto other = predictor.freshRepetition();
    QVERIFY(other.answer(data_.test.X.row(0).transpose(), b));  // one answer's worth of draws
    QCOMPARE(a.nextU64(), b.nextU64());
  }

  void copiesShareTheBudget() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 3), data_.train));
    privacy::ExperimentNoise noise(1);
    QVERIFY(predictor.answer(data_.test.X.row(0).transpose(), noise));
    predict::PrivatePredictor copy = predictor;
    QCOMPARE(copy.used(), 1LL);
    QVERIFY(copy.answer(data_.test.X.row(1).transpose(), noise));
    QVERIFY(predictor.answer(data_.test.X.row(2).transpose(), noise));
    QCOMPARE(copy.used(), 3LL);
    QVERIFY(!copy.answer(data_.test.X.row(3).transpose(), noise));  // not 2B answers through a copy
    QCOMPARE(predictor.freshRepetition().used(), 0LL);
  }

  void sensitivityStateSurvivesJson() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 2.0, 4), data_.train));
    privacy::ExperimentNoise noise(2);
    QVERIFY(predictor.answerRows(data_.test.X.topRows(3), noise));
    auto restored = test::orDie(predict::predictorFromJson(reparsed(predict::predictorToJson(predictor))));
    QCOMPARE(restored.used(), 3LL);
    QCOMPARE(restored.budget(), 4LL);
    QVERIFY(identical(restored.theta(), predictor.theta()));
    QCOMPARE(*restored.report().value("beta"), *predictor.report().value("beta"));
    QCOMPARE(restored.trainRows(), predictor.trainRows());
    QVERIFY(restored.answer(data_.test.X.row(3).transpose(), noise));
    auto refused = restored.answer(data_.test.X.row(4).transpose(), noise);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("budget"));
  }

  // A stored state whose beta was edited (less noise) is refused.
  void tamperedCalibrationIsRefused() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 4), data_.train));
    QJsonObject json = predict::predictorToJson(predictor);
    QJsonObject report = json["report"].toObject();
    report["beta"] = report["beta"].toDouble() * 10;
    json["report"] = report;
    auto loaded = predict::predictorFromJson(json);
    QVERIFY(!loaded);
    QCOMPARE(loaded.error().kind, ErrorKind::BadBundle);
    QCOMPARE(loaded.error().field, std::string("beta"));
    json = predict::predictorToJson(predictor);
    json["used"] = 9;  // more than the budget
    QVERIFY(!predict::predictorFromJson(json));
  }

  void subsampleAnswersBThenRefusesAndSurvivesJson() {
    auto predictor = test::orDie(predict::SubsampleAggregate::train(
        test::subsampleOptions(ModelKind::Softmax, 1.0, 3, 8), data_.train));
    privacy::ExperimentNoise noise(4);
    QVERIFY(predictor.answer(data_.test.X.row(0).transpose(), noise));
    predict::SubsampleAggregate copy = predictor;
    QVERIFY(copy.answer(data_.test.X.row(1).transpose(), noise));
    auto restored = test::orDie(predict::subsampleFromJson(reparsed(predict::subsampleToJson(predictor))));
    QCOMPARE(restored.used(), 2LL);
    QCOMPARE(restored.teachers().teachers(), Index(8));
    for (std::size_t t = 0; t < 8; ++t)
      QVERIFY(identical(restored.teachers().thetas[t], predictor.teachers().thetas[t]));
    QCOMPARE(restored.beta(), predictor.beta());
    QVERIFY(restored.answer(data_.test.X.row(2).transpose(), noise));
    auto refused = restored.answer(data_.test.X.row(3).transpose(), noise);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("answer 4 refused") != std::string::npos);
  }

  // answerRows reserves the whole batch or nothing.
  void batchesAreAllOrNothing() {
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 1.0, 5), data_.train));
    privacy::ExperimentNoise noise(5);
    QVERIFY(predictor.answerRows(data_.test.X.topRows(3), noise));
    auto tooMany = predictor.answerRows(data_.test.X.topRows(3), noise);
    QVERIFY(!tooMany);
    QVERIFY(tooMany.error().message.find("3 more answers refused") != std::string::npos);
    QCOMPARE(predictor.used(), 3LL);
    // A query outside the unit ball is refused before anything is spent.
    Eigen::MatrixXd queries = data_.test.X.topRows(2);
    queries.row(1) *= 5.0;
    auto outside = predictor.answerRows(queries, noise);
    QVERIFY(!outside);
    QCOMPARE(outside.error().field, std::string("query"));
    QCOMPARE(predictor.used(), 3LL);
  }

  // The ledger records the whole budget's (ε, δ) once, at the first answer.
  void ledgerRecordsTheBudgetOnce() {
    privacy::PrivacyLedger ledger;
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 0.5, 4), data_.train));
    privacy::ExperimentNoise noise(6);
    for (int i = 0; i < 4; ++i) {
      QVERIFY(predictor.answer(data_.test.X.row(i).transpose(), noise, &ledger));
      // The entry follows the answers given, so the ledger shows what remains.
      const auto budget = ledger.entries().front().inferenceBudget;  // a copy: entries() is a snapshot
      QVERIFY(budget.has_value());
      QCOMPARE(budget->budget, 4LL);
      QCOMPARE(budget->counted(), static_cast<long long>(i + 1));
    }
    QCOMPARE(ledger.size(), std::size_t(1));
    QCOMPARE(ledger.total().epsilon, 0.5);
    QVERIFY(ledger.entries().front().note.find("budget of 4 answers") != std::string::npos);
    // A repetition is a new budget: a new entry at its first answer, its own count.
    auto repetition = predictor.freshRepetition();
    QVERIFY(repetition.answerRows(data_.test.X.topRows(2), noise, &ledger));
    QCOMPARE(ledger.size(), std::size_t(2));
    QVERIFY(ledger.entries()[1].inferenceBudget->id != ledger.entries()[0].inferenceBudget->id);
    QCOMPARE(ledger.entries()[1].inferenceBudget->counted(), 2LL);
    QCOMPARE(ledger.entries()[0].inferenceBudget->counted(), 4LL);
    // As published subsample-and-aggregate records what really holds (2ε), not the claim.
    auto o = test::subsampleOptions(ModelKind::Softmax, 0.5, 2, 4);
    o.calibration = mech::Calibration::Published;
    auto published = test::orDie(predict::SubsampleAggregate::train(o, data_.train));
    QVERIFY(published.answer(data_.test.X.row(0).transpose(), noise, &ledger));
    QVERIFY(published.answer(data_.test.X.row(1).transpose(), noise, &ledger));
    QCOMPARE(ledger.size(), std::size_t(3));
    QCOMPARE(ledger.entries().back().epsilon, 1.0);
    QCOMPARE(ledger.entries().back().inferenceBudget->counted(), 2LL);
  }

  // A batch the ledger refuses (its count of the budget would pass B: a copy answered
  // elsewhere) draws nothing and gives the reserved answers back to the predictor's budget.
  void answersTheLedgerRefusesAreNotSpent() {
    privacy::PrivacyLedger ledger;
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::Softmax, 0.5, 4), data_.train));
    privacy::LedgerEntry elsewhere;
    elsewhere.mechanism = "prediction sensitivity";
    elsewhere.epsilon = 0.5;
    elsewhere.inferenceBudget = privacy::InferenceBudgetUse{predictor.budgetId(), 4, 3, 0, true};
    QVERIFY(ledger.record(elsewhere));
    privacy::ExperimentNoise noise(6);
    auto refused = predictor.answerRows(data_.test.X.topRows(2), noise, &ledger);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("budget"));
    QCOMPARE(predictor.used(), 0LL);
    QVERIFY(predictor.answer(data_.test.X.row(0).transpose(), noise, &ledger));
    QCOMPARE(predictor.used(), 1LL);
    QCOMPARE(ledger.entries().front().inferenceBudget->counted(), 4LL);
  }

  // Binary models release one score wᵀx; the label is its sign.
  void binaryModelReleasesOneScore() {
    const auto binary = test::predictionBlobs(2, 80);
    auto predictor = test::orDie(predict::PrivatePredictor::train(
        test::sensitivityOptions(ModelKind::LogisticRegression, 1.0, 2), binary.train));
    QCOMPARE(predictor.report().noiseDimension, Index(1));
    privacy::ExperimentNoise noise(8);
    const auto answer = test::orDie(predictor.answer(binary.test.X.row(0).transpose(), noise));
    QCOMPARE(answer.scores.size(), Index(1));
    QCOMPARE(answer.label, answer.scores[0] > 0 ? Index(1) : Index(0));
  }
};

QTEST_GUILESS_MAIN(TestPredictionBudget)
#include "test_prediction_budget.moc"
