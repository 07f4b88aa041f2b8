// Private parameter tuning (docs/algorithms.md §3 H): what the report contains (and does not),
// replay and thread-count independence, release mode, validation, and that the selection
// follows the validation errors.

#include <QJsonObject>
#include <QTest>

#include <set>

#include "core/mechanisms/report_json.h"
#include "core/mechanisms/tuning.h"
#include "core/privacy/noise.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;

namespace {

mech::TuningOptions tuning(MechanismKind kind, ModelKind model, double epsilon, std::vector<double> lambdas) {
  return {test::options(kind, model, epsilon), std::move(lambdas)};
}

mech::PrivateModel tuneOrDie(const mech::TuningOptions& o, const Dataset& train, privacy::NoiseSource& noise) {
  auto result = mech::tunePrivately(o, train, noise);
  if (!result) qFatal("%s", result.error().toString().c_str());
  return std::move(result).value();
}

mech::PrivateModel tuneWithSeed(const mech::TuningOptions& o, const Dataset& train, std::uint64_t seed) {
  privacy::ExperimentNoise noise(seed);
  return tuneOrDie(o, train, noise);
}

}  // namespace

class TestMechanismTuning : public QObject {
  Q_OBJECT

 private slots:
  // The release is the chosen model and its own report plus public values: no error counts.
  void reportHasTheChoiceAndNothingElse() {
    const auto data = test::blobs(2, true, 120);
    const std::vector<double> lambdas{1e-3, 1e-2, 1e-1};
    const auto o = tuning(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, lambdas);
    const auto tuned = tuneWithSeed(o, data.train, 3);
    const auto& r = tuned.report;
    QCOMPARE(*r.value("candidates"), 3.0);
    const double chosen = *r.value("chosen_lambda");
    QVERIFY(std::find(lambdas.begin(), lambdas.end(), chosen) != lambdas.end());
    QCOMPARE(lambdas[static_cast<std::size_t>(*r.value("chosen_index")) - 1], chosen);
    QCOMPARE(*r.value("part_rows"), double(data.train.rows() / 4));
    QCOMPARE(*r.value("selection_beta"), 0.5);
    QCOMPARE(r.epsilon, 1.0);
    QVERIFY(r.statement.find("private tuning of lambda over 3 candidates") != std::string::npos);
    QVERIFY(r.statement.rfind("(1, 0)-DP under substitution", 0) == 0);
    // The chosen model's own calibration is for its part: ε' with n = part_rows and Λ = chosen.
    const auto own = mech::calibrate(test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, chosen),
                                     {data.train.rows() / 4, data.train.features(), 2});
    QCOMPARE(*r.value("epsilon_prime"), *own.value().value("epsilon_prime"));
    QCOMPARE(r.noiseNorms.size(), std::size_t(1));
    const QJsonObject json = mech::reportToJson(r);
    for (const QString& key : json.keys())
      QVERIFY2(!key.contains("error") && !key.startsWith("z") && !key.contains("utilit"), qPrintable(key));
  }

  // Each candidate has its own stream in experiment mode: the same bits with 1 or 2 threads.
  void sameSeedSameModelAnyThreads() {
    const auto data = test::blobs(3, true, 150);
    for (auto kind : {MechanismKind::Output, MechanismKind::Loss, MechanismKind::DpSgd}) {
      const auto o = tuning(kind, ModelKind::Softmax, 1.0, {1e-3, 1e-2, 1e-1});
      Eigen::VectorXd one, two;
      std::string sourceOne, sourceTwo;
      {
        ScopedWorkerThreads threads(1);
        const auto tuned = tuneWithSeed(o, data.train, 21);
        one = tuned.trained.theta;
        sourceOne = tuned.report.noiseSource;
      }
      {
        ScopedWorkerThreads threads(2);
        const auto tuned = tuneWithSeed(o, data.train, 21);
        two = tuned.trained.theta;
        sourceTwo = tuned.report.noiseSource;
      }
      QVERIFY(test::identical(one, two));
      QCOMPARE(sourceOne, sourceTwo);
      QVERIFY(sourceOne.rfind("experiment (seed 21); candidate ", 0) == 0);
      QVERIFY(!test::identical(one, tuneWithSeed(o, data.train, 22).trained.theta));
    }
  }

  // The split and the choice come from the source: other seeds give other splits and,
  // between two equally good candidates, both choices.
  void choiceIsRandomized() {
    const auto data = test::blobs(2, true, 120);
    const auto o = tuning(MechanismKind::Objective, ModelKind::LogisticRegression, 0.1, {1e-2, 1e-2});
    std::set<double> chosen;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) chosen.insert(*tuneWithSeed(o, data.train, seed).report.value("chosen_index"));
    QCOMPARE(chosen.size(), std::size_t(2));
  }

  // With a large ε the exponential mechanism follows the errors: a λ so small that output
  // perturbation's noise (Δ = 2/(nλ)) swamps the model loses against a sensible one.
  void choiceFollowsValidationErrors() {
    const auto data = test::blobs(2, true, 200);
    const auto o = tuning(MechanismKind::Output, ModelKind::LogisticRegression, 50.0, {1e-6, 1e-2});
    for (std::uint64_t seed = 1; seed <= 5; ++seed) QCOMPARE(*tuneWithSeed(o, data.train, seed).report.value("chosen_lambda"), 1e-2);
    const auto tuned = tuneWithSeed(o, data.train, 1);
    QVERIFY(test::testAccuracy(tuned, data.test) > 0.85);
  }

  void releaseModeUsesTheOneSource() {
    const auto data = test::blobs(3, true, 60);
    auto source = privacy::ReleaseNoise::create();
    QVERIFY(source);
    const auto tuned =
        tuneOrDie(tuning(MechanismKind::Loss, ModelKind::Softmax, 1.0, {1e-3, 1e-2}), data.train, *source.value());
    QCOMPARE(tuned.report.noiseSource, std::string("release (OS CSPRNG, getrandom)"));
    QVERIFY(tuned.report.releaseGranularity > 0);
  }

  void deltaOfTheBaseCarriesOver() {
    const auto data = test::blobs(3, true, 60);
    auto o = tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, {1e-3, 1e-2});
    o.base.family = mech::NoiseFamily::Gaussian;
    o.base.delta = 1e-5;
    const auto tuned = tuneWithSeed(o, data.train, 4);
    QVERIFY(tuned.report.statement.rfind("(1, 1e-05)-DP", 0) == 0);
  }

  void publishedBaseClaimsNoGuarantee() {
    const auto data = test::blobs(3, false, 40);
    auto o = tuning(MechanismKind::DpLmgc, ModelKind::Lmgc, 1.0, {1e-3, 1e-2});
    o.base.calibration = mech::Calibration::Published;
    const auto tuned = tuneWithSeed(o, data.train, 4);
    QVERIFY(tuned.report.statement.rfind("no valid guarantee", 0) == 0);
    QVERIFY(!tuned.report.warning.empty());
  }

  void invalidTuningIsRejectedBeforeAnyWork() {
    const auto data = test::blobs(2, true, 20);
    struct Row {
      const char* name;
      mech::TuningOptions options;
      const char* field;
    };
    auto none = tuning(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, {1e-2});
    none.base.kind = MechanismKind::None;
    auto badEpsilon = tuning(MechanismKind::Objective, ModelKind::LogisticRegression, 0.0, {1e-2});
    const std::vector<Row> rows{
        {"no mechanism", none, "tune-lambdas"},
        {"no candidates", tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, {}), "tune-lambdas"},
        {"negative lambda", tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, {1e-2, -1}), "tune-lambdas"},
        {"NaN lambda", tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, {std::nan("")}), "tune-lambdas"},
        {"bad epsilon", badEpsilon, "epsilon"},
        {"objective on softmax", tuning(MechanismKind::Objective, ModelKind::Softmax, 1.0, {1e-2}), "mechanism"},
        {"more candidates than rows", tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, std::vector<double>(40, 1e-2)),
         "tune-lambdas"},
    };
    for (const Row& row : rows) {
      privacy::ExperimentNoise noise(9), fresh(9);
      auto result = mech::tunePrivately(row.options, data.train, noise);
      QVERIFY2(!result, row.name);
      QCOMPARE(result.error().kind, ErrorKind::InvalidPrivacy);
      QVERIFY2(result.error().field == row.field, row.name);
      QCOMPARE(noise.nextU64(), fresh.nextU64());
    }
    auto outside = data.train;
    outside.X.row(0) *= 3.0;
    privacy::ExperimentNoise noise(9);
    auto result = mech::tunePrivately(tuning(MechanismKind::Output, ModelKind::Softmax, 1.0, {1e-2}), outside, noise);
    QVERIFY(!result);
    QCOMPARE(result.error().field, std::string("norm-bound"));
  }

  void cancellationStopsEveryCandidate() {
    const auto data = test::blobs(3, true, 60);
    StopToken stop;
    stop.requestStop();
    TrainControl control;
    control.progress = Progress({}, stop);
    privacy::ExperimentNoise noise(1);
    auto result = mech::tunePrivately(tuning(MechanismKind::Loss, ModelKind::Softmax, 1.0, {1e-3, 1e-2}), data.train,
                                      noise, control);
    QVERIFY(!result);
    QCOMPARE(result.error().kind, ErrorKind::Cancelled);
  }
};

QTEST_GUILESS_MAIN(TestMechanismTuning)
#include "test_mechanism_tuning.moc"
