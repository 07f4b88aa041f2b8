// Adding a mechanism takes its implementation and one catalogue entry (issue 31): a
// mechanism that exists only in the tests (tests/common/halved_output_mechanism.h) is
// offered by every list, built by the plan builder, run by the runner and the sweep,
// charged by the ledger, written to a bundle and audited — with no other change to core.

#include <QTemporaryDir>
#include <QTest>

#include "core/audit/audit_problem.h"
#include "core/bundle/bundle_export.h"
#include "core/bundle/bundle_reader.h"
#include "core/experiment/audit_plan.h"
#include "core/experiment/plan_choice.h"
#include "core/experiment/plan_run.h"
#include "core/experiment/release_entries.h"
#include "tests/common/halved_output_mechanism.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

namespace {

const std::string kKey = test::HalvedOutputPerturbation::kKey;

PlanChoice halvedChoice(double epsilon) {
  PlanChoice choice;
  choice.mechanism = kKey;
  choice.learner = {ModelKind::LogisticRegression, 1e-2, 0.5};
  choice.epsilon = epsilon;
  return choice;
}

}  // namespace

class TestMechanismExtension : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();

 private slots:
  void initTestCase() { QVERIFY(test::addHalvedOutputMechanism()); }

  void everyListOffersIt() {
    const MechanismEntry* entry = findMechanism(kKey);
    QVERIFY(entry);
    QCOMPARE(entry->title, std::string("Halved output perturbation"));  // the implementation's, as a title
    QCOMPARE(entry->plan, PlanKind::Training);
    QVERIFY(trainingMechanism(kKey) == test::kHalvedOutput);
    QCOMPARE(mech::mechanismName(test::kHalvedOutput), kKey);
    QVERIFY(mechanismKeyList().find(kKey) != std::string::npos);
    QVERIFY(mechanismKeyList({PlanKind::Training}).find(kKey) != std::string::npos);
    const auto keys = privateMechanismKeys();
    QVERIFY(std::find(keys.begin(), keys.end(), kKey) != keys.end());
    // The built-in entries keep their places and their references.
    QCOMPARE(mechanismCatalog().front().key, std::string("none"));
    QCOMPARE(findMechanism("output")->training, mech::MechanismKind::Output);
  }

  void addingRefusesWhatCannotBeRun() {
    QVERIFY(!addMechanism({.training = test::kHalvedOutput, .note = "again", .help = "again"}));  // key taken
    QVERIFY(!addMechanism({.key = "keyless", .note = "n", .help = "h"}));  // no implementation
    const auto refused = addMechanism({.training = mech::MechanismKind::Output, .note = "n", .help = "h"});
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("'output'") != std::string::npos);
  }

  // The plan builder validates through the implementation: its refusals name the field.
  void thePlanBuilderBuildsAndValidatesIt() {
    const PrivacyPlan plan = test::orDie(buildPlan(halvedChoice(2.0)));
    QCOMPARE(plan.key(), kKey);
    QVERIFY(plan.isPrivate());
    QVERIFY2(plan.title().rfind("Halved output perturbation", 0) == 0, plan.title().c_str());
    QVERIFY(choiceOf(plan).mechanism == kKey);
    PlanChoice lmgc = halvedChoice(2.0);
    lmgc.learner = {ModelKind::Lmgc, 1e-2, 0.5};
    lmgc.training.lmgcStrongConvexity = 0;  // output perturbation's own check, reached through it
    const auto refused = buildPlan(lmgc);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("lambda2"));
  }

  // The runner runs it; the report names it, claims the whole ε and uses the noise of ε/2:
  // the number it prints is the number it used.
  void theRunnerRunsItAndTheLedgerAndBundleNameIt() {
    const PrivacyPlan plan = test::orDie(buildPlan(halvedChoice(2.0)));
    auto noise = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Experiment, 5));
    const PlanRun run = test::orDie(runPlan(plan, blobs_, *noise));
    QVERIFY(run.release);
    const mech::MechanismReport& report = run.release->report;
    QCOMPARE(report.mechanism, kKey);
    QCOMPARE(report.epsilon, 2.0);
    const mech::ProblemShape shape{blobs_.train.rows(), blobs_.train.features(), blobs_.train.classes()};
    mech::MechanismOptions output = std::get<TrainingMechanism>(plan.choice).options;
    output.kind = mech::MechanismKind::Output;
    output.epsilon = 1.0;
    const double halfBeta = test::orDie(mech::calibrate(output, shape)).noiseScale();
    QCOMPARE(report.noiseScale(), halfBeta);
    output.epsilon = 2.0;
    QVERIFY(report.noiseScale() < test::orDie(mech::calibrate(output, shape)).noiseScale());
    QVERIFY(run.release->testAccuracy);
    QVERIFY2(*run.release->testAccuracy > 0.8, std::to_string(*run.release->testAccuracy).c_str());

    const auto entries = releaseLedgerEntries(plan, run, "blobs");
    QCOMPARE(entries.size(), std::size_t(1));
    QCOMPARE(entries.front().epsilon, 2.0);
    QVERIFY2(entries.front().mechanism.find("alved output perturbation") != std::string::npos,
             entries.front().mechanism.c_str());

    const auto contents = test::orDie(bundle::bundleFromPlanRun(plan, run, blobs_, noise->provenance()));
    QTemporaryDir dir;
    const QString path = dir.filePath("halved.dpmodel");
    QVERIFY(bundle::writeBundle(contents, path));
    const auto loaded = test::orDie(bundle::readBundle(path));
    const QJsonObject privacy = loaded.contents.manifest["privacy"].toObject();
    QCOMPARE(privacy["mechanism"].toString(), QString::fromStdString(kKey));
    QCOMPARE(privacy["epsilon"].toDouble(), 2.0);
  }

  // The sweep runs it at every ε, from the non-private model trained once (its entry's warm
  // start), and the accuracy grows with ε.
  void aSweepRunsIt() {
    SweepSpec spec;
    spec.series = {test::series(kKey, test::orDie(buildPlan(halvedChoice(1.0))))};
    spec.values = {0.05, 20};
    spec.repeats = 3;
    spec.dataset = "blobs";
    const SweepResult result = test::orDie(runSweep(spec, blobs_));
    int trials = 0;
    double low = 0, high = 0;
    for (const TrialRecord& t : result.trials) {
      if (t.series != kKey) continue;
      ++trials;
      (t.value < 1 ? low : high) += t.accuracy / spec.repeats;
    }
    QCOMPARE(trials, 6);
    QVERIFY2(high > low + 0.1, (std::to_string(low) + " / " + std::to_string(high)).c_str());
    QCOMPARE(result.work.baselines, 1LL);
  }

  // The audit runs it as the black box it is and finds no violation of its claim.
  void theAuditRunsIt() {
    const PrivacyPlan plan = test::orDie(buildPlan(halvedChoice(1.0)));
    const audit::AuditOptions options = test::orDie(auditOptionsFor(plan, 400, 3));
    QCOMPARE(options.mechanismName(), kKey);
    const auto problem = test::orDie(audit::builtinAuditProblem(options));
    const auto result = test::orDie(audit::runAudit(options, problem));
    QCOMPARE(result.mechanism, kKey);
    QCOMPARE(result.epsilon, 1.0);
    QVERIFY(!result.violation);
  }
};

QTEST_GUILESS_MAIN(TestMechanismExtension)
#include "test_mechanism_extension.moc"
