// Private selection among mechanisms and λ (docs/algorithms.md §3 K; core/mechanisms/
// selection.h): the budget split (pure: (2 + η)·ε_run exactly; δ > 0: the Rényi bound of the
// very candidates that run, recomputed from their fixed noise), refusals, what the release's
// report says, replay, release mode, cancellation, and accuracy well above the most common
// class on real data with every candidate trained on all the rows.

#include <QTest>

#include <cmath>

#include "core/mechanisms/selection.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/privacy/rdp_accountant.h"
#include "core/privacy/repeat_select.h"
#include "core/sources/builtin.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;

namespace {

mech::SelectionOptions selection(ModelKind model, double epsilon, double delta, bool tune = true) {
  mech::SelectionOptions o;
  o.settings.tune = tune;
  o.shared.learner.kind = model;
  o.shared.epsilon = epsilon;
  o.shared.delta = delta;
  o.shared.sgd.batchSize = 64;
  return o;
}

PreparedData digitsInRange() {
  SplitAndPreprocess settings;
  settings.testFraction = 0.25;
  settings.splitSeed = 7;
  settings.preprocess.publicRanges = {{0.0, 16.0}};
  settings.preprocess.intercept = true;
  return test::orDie(prepareLoaded(test::orDie(loadBuiltin("digits")), std::nullopt, settings));
}

PreparedData unitRows(const std::string& name) {
  SplitAndPreprocess settings;
  settings.testFraction = 0.3;
  settings.splitSeed = 7;
  settings.preprocess.unitRows = true;
  settings.preprocess.intercept = true;
  return test::orDie(prepareLoaded(test::orDie(loadBuiltin(name)), std::nullopt, settings));
}

bool hasKind(const mech::SelectionPlan& plan, MechanismKind kind) {
  return std::any_of(plan.candidates.begin(), plan.candidates.end(),
                     [&](const mech::MechanismOptions& c) { return c.kind == kind; });
}

}  // namespace

class TestMechanismSelection : public QObject {
  Q_OBJECT

 private slots:
  // δ = 0: pure candidates only, each at 0.9·ε/(2 + η), the score at 0.1·ε/(2 + η).
  void pureBudgetSplitsExactly() {
    for (auto law : {mech::RunLaw::Geometric, mech::RunLaw::Logarithmic}) {
      auto o = selection(ModelKind::LogisticRegression, 1.0, 0.0);
      o.settings.law = law;
      const auto plan = test::orDie(mech::planSelection(o, {1000, 10, 2}));
      const double eta = law == mech::RunLaw::Geometric ? 1 : 0;
      QCOMPARE(plan.shape, eta);
      QVERIFY(std::abs(plan.epsilon - 1.0) < 1e-12);
      QCOMPARE(plan.delta, 0.0);
      QVERIFY(std::abs(plan.trainEpsilon - 0.9 / (2 + eta)) < 1e-12);
      QVERIFY(std::abs(plan.scoreEpsilon - 0.1 / (2 + eta)) < 1e-12);
      QVERIFY(hasKind(plan, MechanismKind::Objective) && hasKind(plan, MechanismKind::Output));
      QVERIFY(!hasKind(plan, MechanismKind::DpSgd));  // Gaussian noise needs δ
      for (const auto& c : plan.candidates) {
        QCOMPARE(c.epsilon, plan.trainEpsilon);
        QCOMPARE(c.family, mech::NoiseFamily::L2Laplace);
        QCOMPARE(c.delta, 0.0);
      }
      QVERIFY(plan.meanRuns >= std::max(10.0, 2.0 * static_cast<double>(plan.candidates.size())) - 1e-6);
    }
  }

  // δ > 0: the plan's ε is the Rényi bound of the candidates it will run — their noise is
  // fixed in the plan (DP-SGD's σ) — and meets the target closely.
  void renyiBudgetIsThatOfTheCandidatesRun() {
    const mech::ProblemShape shape{5000, 20, 5};
    const auto o = selection(ModelKind::Softmax, 1.0, 1e-6);
    const auto plan = test::orDie(mech::planSelection(o, shape));
    QVERIFY2(plan.epsilon <= 1.0 && plan.epsilon > 0.99, qPrintable(QString::number(plan.epsilon)));
    QCOMPARE(plan.delta, 1e-6);
    QVERIFY(hasKind(plan, MechanismKind::DpSgd) && hasKind(plan, MechanismKind::Loss));

    const std::vector<double>& orders = mech::selectionOrders();
    std::vector<double> run = privacy::laplaceRdp(plan.scoreEpsilon, orders), worst(orders.size(), 0.0);
    for (const auto& c : plan.candidates) {
      std::vector<double> curve;
      if (c.kind == MechanismKind::DpSgd) {
        QVERIFY(c.sgd.noiseMultiplier.has_value());
        const double q = 64.0 / 5000.0;
        const auto steps = static_cast<long long>(std::ceil(c.sgd.epochs / q));
        curve = test::orDie(mech::substitutionRdpCurve({q, *c.sgd.noiseMultiplier, steps}, orders));
      } else if (c.family == mech::NoiseFamily::Gaussian) {
        const auto report = test::orDie(mech::calibrate(c, shape));
        curve = privacy::gaussianRdp(report.calibrated(mech::Calibrated::Delta), report.noiseScale(), orders);
        QVERIFY(!report.find(mech::Calibrated::Releases));  // softmax: one release
      } else {
        curve = privacy::pureDpRdp(c.epsilon, orders);
      }
      for (std::size_t i = 0; i < orders.size(); ++i) worst[i] = std::max(worst[i], curve[i]);
    }
    for (std::size_t i = 0; i < orders.size(); ++i) run[i] += worst[i];
    const auto total = privacy::repeatAndSelectRdp(orders, run, plan.shape, plan.gamma);
    const auto epsilon = test::orDie(privacy::rdpToEpsilon(orders, total, 1e-6, privacy::RdpConversion::Improved));
    QVERIFY2(std::abs(epsilon.epsilon - plan.epsilon) < 1e-9,
             qPrintable(QString("%1 vs %2").arg(epsilon.epsilon).arg(plan.epsilon)));
  }

  void refusals() {
    auto tiny = mech::planSelection(selection(ModelKind::Softmax, 0.01, 1e-6), {5000, 20, 5});
    QVERIFY(!tiny);
    QCOMPARE(tiny.error().field, std::string("epsilon"));
    auto published = selection(ModelKind::LogisticRegression, 1.0, 0.0);
    published.shared.calibration = mech::Calibration::Published;
    QCOMPARE(published.validate().error().field, std::string("calibration"));
    auto lambdas = selection(ModelKind::LogisticRegression, 1.0, 0.0);
    lambdas.settings.lambdas = {1e-3, -1};
    QCOMPARE(lambdas.validate().error().field, std::string("tune-lambdas"));
    auto runs = selection(ModelKind::LogisticRegression, 1.0, 0.0);
    runs.settings.meanRuns = 0.5;
    QCOMPARE(runs.validate().error().field, std::string("selection-runs"));
  }

  // Without --tune: the public rule's one mechanism at the whole budget, nothing spent on
  // choosing — bit for bit the mechanism run alone.
  void theRuleTrainsOneMechanismAtTheWholeBudget() {
    struct Case {
      ModelKind model;
      double delta;
      MechanismKind kind;
    };
    for (const Case& c : {Case{ModelKind::LogisticRegression, 0, MechanismKind::Objective},
                          Case{ModelKind::LogisticRegression, 1e-6, MechanismKind::DpSgd},
                          Case{ModelKind::HuberSvm, 0, MechanismKind::Objective},
                          Case{ModelKind::HuberSvm, 1e-6, MechanismKind::DpSgd},
                          Case{ModelKind::Softmax, 0, MechanismKind::Loss},
                          Case{ModelKind::Softmax, 1e-6, MechanismKind::DpSgd},
                          Case{ModelKind::Lmgc, 0, MechanismKind::DpLmgc},
                          Case{ModelKind::Lmgc, 1e-6, MechanismKind::DpSgd}}) {
      const auto plan = test::orDie(mech::planSelection(selection(c.model, 0.7, c.delta, false), {1000, 10, 3}));
      QVERIFY(!plan.selects);
      QCOMPARE(plan.candidates.size(), std::size_t(1));
      QCOMPARE(plan.candidates[0].kind, c.kind);
      QCOMPARE(plan.candidates[0].epsilon, 0.7);
      QCOMPARE(plan.epsilon, 0.7);
      QCOMPARE(plan.delta, c.kind == MechanismKind::DpSgd ? c.delta : 0.0);  // ℓ2-Laplace: pure ε
    }
    // The perturbations' λ falls as 1/√(nε) (0.2/√(1000·0.7)), within [1e-4, 0.1].
    const auto lambdaFor = [](Index rows, double epsilon) {
      return test::orDie(mech::planSelection(selection(ModelKind::LogisticRegression, epsilon, 0, false), {rows, 5, 2}))
          .candidates[0].learner.lambda;
    };
    QVERIFY(std::abs(lambdaFor(1000, 0.7) - 0.0075592895) < 1e-9);
    QCOMPARE(lambdaFor(100000000, 1.0), 1e-4);
    QCOMPARE(lambdaFor(2, 0.1), 0.1);

    const PreparedData data = digitsInRange();
    const auto o = selection(ModelKind::Softmax, 1.0, 1e-5, false);
    const auto plan = test::orDie(mech::planSelection(o, {data.train.rows(), data.train.features(), 10}));
    privacy::ExperimentNoise a(4), b(4);
    const auto chosen = test::orDie(mech::selectPrivately(o, data.train, a));
    const auto alone = test::orDie(mech::trainPrivately(plan.candidates[0], data.train, b));
    QVERIFY(test::identical(chosen.trained.theta, alone.trained.theta));
    QCOMPARE(chosen.report.epsilon, 1.0);
    QVERIFY(!chosen.report.value("runs"));
    QVERIFY2(chosen.report.statement.find("public rule") != std::string::npos, chosen.report.statement.c_str());
    // Digits at ε = 1: far above the most common class (≈ 0.10); DP-SGD alone measured ≈ 0.8.
    const double accuracy = test::testAccuracy(chosen, data.test);
    QVERIFY2(accuracy > 0.6, qPrintable(QString::number(accuracy)));
  }

  // With --tune every candidate trains on all the rows; its report carries the whole
  // selection's ε and what was chosen. Digits at ε = 4, δ = 1e-5: well above the most common class.
  void tuningSelectsAGoodModelOnRealData() {
    const PreparedData data = digitsInRange();
    auto o = selection(ModelKind::Softmax, 4.0, 1e-5);
    o.settings.meanRuns = 6;
    const auto plan = test::orDie(mech::planSelection(o, {data.train.rows(), data.train.features(), 10}));
    QVERIFY(plan.selects && plan.candidates.size() >= 6);
    double sum = 0;
    const int seeds = 3;
    for (int seed = 1; seed <= seeds; ++seed) {
      privacy::ExperimentNoise noise(static_cast<std::uint64_t>(seed));
      const auto model = test::orDie(mech::selectPrivately(o, data.train, noise));
      const auto& r = model.report;
      QCOMPARE(r.epsilon, plan.epsilon);
      QCOMPARE(r.chargedDelta(), 1e-5);
      QCOMPARE(*r.value("candidates"), static_cast<double>(plan.candidates.size()));
      const auto index = static_cast<std::size_t>(*r.value("chosen_index")) - 1;
      QCOMPARE(*r.find(mech::Calibrated::ChosenLambda), plan.candidates.at(index).learner.lambda);
      QCOMPARE(r.mechanism, mech::mechanismName(plan.candidates[index].kind));
      QVERIFY(*r.value("runs") >= 1);
      QVERIFY2(r.statement.find("private selection") != std::string::npos, r.statement.c_str());
      sum += test::testAccuracy(model, data.test);
    }
    QVERIFY2(sum / seeds > 0.6, qPrintable(QString::number(sum / seeds)));
  }

  void replaysAndReleases() {
    const PreparedData data = unitRows("iris");
    const auto o = selection(ModelKind::Softmax, 2.0, 1e-5);
    privacy::ExperimentNoise first(9), second(9);
    const auto one = test::orDie(mech::selectPrivately(o, data.train, first));
    const auto two = test::orDie(mech::selectPrivately(o, data.train, second));
    QVERIFY(test::identical(one.trained.theta, two.trained.theta));
    QCOMPARE(one.report.chargedDelta(), 1e-5);  // the selection's δ, whatever law the chosen run drew
    auto release = test::orDie(privacy::ReleaseNoise::create());
    const auto released = test::orDie(mech::selectPrivately(o, data.train, *release));
    QVERIFY2(released.report.noiseSource.rfind("release", 0) == 0, released.report.noiseSource.c_str());
  }

  void cancels() {
    const PreparedData data = unitRows("iris");
    StopToken stop;
    stop.requestStop();
    TrainControl control;
    control.progress = Progress({}, stop);
    privacy::ExperimentNoise noise(1);
    auto result = mech::selectPrivately(selection(ModelKind::Softmax, 1.0, 0.0), data.train, noise, control);
    QVERIFY(!result);
    QCOMPARE(result.error().kind, ErrorKind::Cancelled);
  }
};

QTEST_APPLESS_MAIN(TestMechanismSelection)
#include "test_mechanism_selection.moc"
