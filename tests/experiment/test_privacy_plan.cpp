// PrivacyPlan and its runner (core/experiment/privacy_plan.h, plan_run.h): the one sum type
// every front end builds, what each alternative trains and releases, and the audit mapping.

#include <QTest>

#include "core/experiment/answering.h"
#include "core/experiment/audit_plan.h"
#include "core/experiment/plan_run.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

class TestPrivacyPlan : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();

 private slots:
  void keysLearnersAndAxes() {
    const PrivacyPlan output = test::outputPlan(ModelKind::HuberSvm, 0.05);
    QCOMPARE(output.key(), std::string("output"));
    QCOMPARE(output.learner().lambda, 0.05);
    QCOMPARE(output.withEpsilon(3).epsilon(), 3.0);
    QCOMPARE(output.withDelta(1e-6).delta(), 1e-6);
    QVERIFY(PrivacyPlan::training(mech::MechanismOptions{}).choice.index() == 0);  // kind None: non-private
    QVERIFY(!PrivacyPlan::nonPrivate({}).isPrivate());

    multiparty::MultipartyOptions m;
    m.lambda = 0.25;
    const PrivacyPlan parties = PrivacyPlan::multiparty(m);
    QCOMPARE(parties.key(), std::string("multiparty"));
    QCOMPARE(parties.delta(), 0.0);
    QCOMPARE(parties.withDelta(0.5).delta(), 0.0);  // (ε, 0)-DP whatever is asked
    // Paper 004's objective (1/n)Σℓ + λ‖w‖² is the learner's mean scale with 2λ.
    QCOMPARE(parties.baselineLearner().lambda, 0.5);
    QCOMPARE(parties.withLearner({ModelKind::HuberSvm, 2.0, 0.3}).learner().kind, ModelKind::HuberSvm);

    const PrivacyPlan teachers =
        test::predictionPlan(predict::PredictionKind::Subsample, ModelKind::LogisticRegression, 10);
    QCOMPARE(teachers.key(), std::string("subsample"));
  }

  void withMechanismKeepsTheLearnerAndPrivacyParameters() {
    mech::MechanismOptions o;
    o.kind = mech::MechanismKind::Objective;
    o.learner = {ModelKind::HuberSvm, 0.05, 0.3};
    o.epsilon = 2.5;
    o.delta = 1e-6;
    o.family = mech::NoiseFamily::Gaussian;
    PrivacyPlan base = PrivacyPlan::training(o);
    base.solver = {1e-10, 77};
    for (const std::string& key : privateMechanismKeys()) {
      const PrivacyPlan plan = test::orDie(withMechanism(base, key));
      QCOMPARE(plan.key(), key);
      QCOMPARE(plan.learner(), base.learner());
      QCOMPARE(plan.solver, base.solver);
      QCOMPARE(plan.epsilon(), 2.5);
      QCOMPARE(plan.delta(), key == "multiparty" ? 0.0 : 1e-6);  // multiparty is (ε, 0)-DP
    }
    // A training mechanism keeps the base's own options (noise family); others their defaults.
    const PrivacyPlan loss = test::orDie(withMechanism(base, "loss"));
    QCOMPARE(std::get<TrainingMechanism>(loss.choice).options.family, mech::NoiseFamily::Gaussian);
    const PrivacyPlan prediction = test::orDie(withMechanism(base, "prediction"));
    QCOMPARE(std::get<PrivatePrediction>(prediction.choice).options.budget, predict::PredictionOptions{}.budget);
    // A predictor's B and T travel to the other predictor.
    predict::PredictionOptions p;
    p.learner = o.learner;
    p.budget = 7;
    p.teachers = 9;
    const PrivacyPlan teachers = test::orDie(withMechanism(PrivacyPlan::prediction(p), "subsample"));
    QCOMPARE(std::get<PrivatePrediction>(teachers.choice).options.budget, 7LL);
    QCOMPARE(std::get<PrivatePrediction>(teachers.choice).options.teachers, Index(9));
    QVERIFY(!test::orDie(withMechanism(base, "none")).isPrivate());
    const auto unknown = withMechanism(base, "laplace");
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.find("'laplace'") != std::string::npos);
    // Titles for people (the CLI's legends and the GUI's check boxes).
    QCOMPARE(base.title(), std::string("Objective perturbation, Gaussian"));
    QCOMPARE(test::orDie(withMechanism(base, "multiparty")).title(), std::string("Multiparty, K = 5 even"));
  }

  void validateNamesTheField() {
    PrivacyPlan plan = test::outputPlan(ModelKind::LogisticRegression).withEpsilon(-1);
    const Status status = plan.validate();
    QVERIFY(!status);
    QCOMPARE(status.error().field, std::string("epsilon"));
    mech::MechanismOptions o;
    o.kind = mech::MechanismKind::Output;
    QVERIFY(!PrivacyPlan::training(o, {0.1, -2}).validate());
  }

  void calibrateMatchesEachMechanismsOwn() {
    const mech::ProblemShape shape{400, 30, 2};
    const PrivacyPlan output = test::outputPlan(ModelKind::LogisticRegression);
    const auto viaPlan = test::orDie(output.calibrate(shape));
    const auto direct = test::orDie(mech::calibrate(std::get<TrainingMechanism>(output.choice).options, shape));
    QCOMPARE(*viaPlan.value("beta"), *direct.value("beta"));
    // Multiparty: n_(1) from the even split of n = 400 into K = 5 parties.
    multiparty::MultipartyOptions m;
    m.parties = 5;
    const auto parties = test::orDie(PrivacyPlan::multiparty(m).calibrate(shape));
    QCOMPARE(*parties.value("smallest_party"), 80.0);
  }

  void runTrainsWhatEachAlternativeReleases() {
    privacy::ExperimentNoise noise(3);
    const PlanRun none = test::orDie(runPlan(PrivacyPlan::nonPrivate({ModelKind::LogisticRegression, 1e-2, 0.5}),
                                             blobs_, noise));
    QVERIFY(!none.release && !none.prediction);
    QVERIFY(none.baseline.testAccuracy.value() > 0.9);

    const PlanRun output = test::orDie(runPlan(test::outputPlan(ModelKind::LogisticRegression).withEpsilon(50),
                                               blobs_, noise));
    QVERIFY(output.release);
    QVERIFY(output.baseline.model.model);  // the baseline beside it, for the GUI
    QVERIFY(output.release->model.theta != output.baseline.model.theta);
    RunControl alone;
    alone.trainBaseline = false;
    const PlanRun bare = test::orDie(runPlan(test::outputPlan(ModelKind::LogisticRegression), blobs_, noise, alone));
    QVERIFY(bare.release && !bare.baseline.model.model);

    PlanRun predictor = test::orDie(runPlan(
        test::predictionPlan(predict::PredictionKind::Sensitivity, ModelKind::LogisticRegression, 30), blobs_,
        noise));
    QVERIFY(predictor.prediction);
    QCOMPARE(predictor.prediction->remaining(), 30LL);  // training answers nothing
    const auto answered = test::orDie(answerTestSample(*predictor.prediction, blobs_.test, noise, 9));
    QCOMPARE(answered.answered, 30LL);
    QCOMPARE(answered.remaining, 0LL);
    QCOMPARE(answered.rows.size(), std::size_t(30));
    QVERIFY(std::is_sorted(answered.rows.begin(), answered.rows.end()));

    multiparty::MultipartyOptions m;
    m.parties = 3;
    m.lambda = 1e-2;
    const PlanRun parties = test::orDie(runPlan(PrivacyPlan::multiparty(m), blobs_, noise));
    QVERIFY(parties.release && parties.multiparty);
    QCOMPARE(parties.multiparty->partySizes.size(), std::size_t(3));
    QCOMPARE(parties.multiparty->average.size(), parties.release->model.theta.size());
  }

  void auditMapsEveryPrivatePlan() {
    const auto training = test::orDie(auditOptionsFor(test::outputPlan(ModelKind::LogisticRegression), 500, 4));
    QCOMPARE(training.target, audit::AuditTarget::Training);
    QCOMPARE(training.trials, 500LL);
    const auto predictor = test::orDie(auditOptionsFor(
        test::predictionPlan(predict::PredictionKind::Subsample, ModelKind::LogisticRegression, 3), 500, 4));
    QCOMPARE(predictor.target, audit::AuditTarget::Prediction);
    QVERIFY(!auditOptionsFor(PrivacyPlan::nonPrivate({}), 500, 4));
    mech::MechanismOptions o;
    o.kind = mech::MechanismKind::Output;
    QVERIFY(!auditOptionsFor(PrivacyPlan::training(o, {0.1, 1}), 500, 4));  // tuning is not audited
  }
};

QTEST_GUILESS_MAIN(TestPrivacyPlan)
#include "test_privacy_plan.moc"
