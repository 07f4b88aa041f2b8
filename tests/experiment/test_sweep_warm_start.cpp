// A sweep trial's perturbed problem (objective and loss perturbation, DP-LMGC) starts from
// the non-private minimizer (sweep.h, "Reuse"; mech::trainPrivatelyFromSolution), and must
// still give what a release, started from zero, gives: the same stopping rule, a solution
// within the strong-convexity bound of the cold one, the same trial accuracy. Release paths
// (runPlan: train, the GUI) never warm-start.

#include <QTest>

#include "core/experiment/plan_run.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

namespace {

mech::MechanismOptions mechanism(mech::MechanismKind kind, ModelKind model, double epsilon, double lambda) {
  mech::MechanismOptions o;
  o.kind = kind;
  o.learner = {model, lambda, 0.5};
  o.epsilon = epsilon;
  return o;
}

std::unique_ptr<privacy::NoiseSource> experimentNoise(std::uint64_t seed) {
  return test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Experiment, seed));
}

}  // namespace

class TestSweepWarmStart : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();
  PreparedData iris_ = test::unitRowData("iris");

 private slots:
  // Loss perturbation (softmax) and objective perturbation (logistic regression), from zero
  // and from the non-private minimizer with the same noise: both stop by the one rule
  // ‖∇J(θ)‖ ≤ max(a, r‖θ‖) with a and r fixed in advance, and J is μ-strongly convex, so
  // both sit within ‖∇J‖/μ of the one perturbed minimizer.
  void warmAndColdSolutionsAgreeToTheTolerance_data() {
    QTest::addColumn<mech::MechanismKind>("kind");
    QTest::addColumn<int>("model");
    QTest::addColumn<double>("epsilon");
    QTest::newRow("loss, eps 0.1") << mech::MechanismKind::Loss << int(ModelKind::Softmax) << 0.1;
    QTest::newRow("loss, eps 10") << mech::MechanismKind::Loss << int(ModelKind::Softmax) << 10.0;
    QTest::newRow("objective, eps 1") << mech::MechanismKind::Objective << int(ModelKind::LogisticRegression)
                                      << 1.0;
  }
  void warmAndColdSolutionsAgreeToTheTolerance() {
    QFETCH(mech::MechanismKind, kind);
    QFETCH(int, model);
    QFETCH(double, epsilon);
    const double lambda = 1e-2;
    const auto options = mechanism(kind, ModelKind(model), epsilon, lambda);
    const Dataset& train = blobs_.train;
    const TrainedModel baseline = test::orDie(trainModel(options.learner, train.X, train.y, train.classes()));
    TrainControl control;  // the sweep's own tolerance (1e-8) and iteration limit
    const auto cold = test::orDie(mech::trainPrivately(options, train, *experimentNoise(5), control));
    const auto warm =
        test::orDie(mech::trainPrivatelyFromSolution(options, train, *experimentNoise(5), control, baseline.theta));
    QVERIFY(!cold.report.warmStarted);
    QVERIFY(warm.report.warmStarted);
    QCOMPARE(cold.report.noiseNorms, warm.report.noiseNorms);  // the same draw

    // The stopping rule at the point reached, from the control alone (learner.cpp's
    // stoppingRule): loss perturbation is on the sum scale (a = tolerance·n), objective
    // perturbation on the mean scale.
    const double n = static_cast<double>(train.rows());
    const bool sum = options.kind == mech::MechanismKind::Loss;
    for (const auto* run : {&cold, &warm}) {
      QVERIFY(run->report.converged());
      const double target = std::max(control.tolerance * (sum ? n : 1.0), control.tolerance * run->trained.theta.norm());
      QVERIFY2(run->trained.summary.gradientNorm <= target,
               qPrintable(QString("%1 > %2").arg(run->trained.summary.gradientNorm).arg(target)));
    }
    // μ: loss, sum scale nλ + ρ; objective, mean scale λ + Δ.
    const double mu = sum ? n * lambda + *cold.report.value("rho") : lambda + *cold.report.value("Delta");
    const double bound = (cold.trained.summary.gradientNorm + warm.trained.summary.gradientNorm) / mu;
    const double distance = (cold.trained.theta - warm.trained.theta).norm();
    QVERIFY2(distance <= bound, qPrintable(QString("%1 > %2").arg(distance).arg(bound)));
    // Not trivially equal: the runs took different paths (so the bound is what is tested).
    QVERIFY(cold.trained.summary.iterations != warm.trained.summary.iterations ||
            cold.trained.theta != warm.trained.theta);
  }

  // DP-LMGC is constrained (projected gradient): the same, with the rule on the projected-
  // gradient step and the distance bound of exact_minimizer.h, τ(1 + (1 + L)/μ), which
  // needs L; instead compare what the release is for: the same predictions.
  void dpLmgcWarmStartPredictsAsTheColdStart() {
    const auto options = mechanism(mech::MechanismKind::DpLmgc, ModelKind::Lmgc, 1.0, 1e-2);
    const Dataset& train = iris_.train;
    const TrainedModel baseline = test::orDie(trainModel(options.learner, train.X, train.y, train.classes()));
    const auto cold = test::orDie(mech::trainPrivately(options, train, *experimentNoise(3)));
    const auto warm =
        test::orDie(mech::trainPrivatelyFromSolution(options, train, *experimentNoise(3), {}, baseline.theta));
    QVERIFY(warm.report.warmStarted);
    QVERIFY(cold.report.converged() && warm.report.converged());
    const Model& model = *cold.trained.model;
    QCOMPARE(model.predict(cold.trained.theta, iris_.test.X), model.predict(warm.trained.theta, iris_.test.X));
    QVERIFY((cold.trained.theta - warm.trained.theta).norm() <= 1e-4 * (1 + cold.trained.theta.norm()));
  }

  // In a sweep: every objective/loss trial warm-started (the counter), and each trial's
  // accuracy is the one the cold start with the trial's own seed gives.
  void sweepTrialsWarmStartAndMeasureTheColdRelease() {
    SweepSpec spec;
    spec.series = {test::series("loss", PrivacyPlan::training(mechanism(mech::MechanismKind::Loss, ModelKind::Softmax,
                                                                         1, 1e-2))),
                   test::series("objective", test::objectivePlan())};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {0.3, 3};
    spec.repeats = 3;
    spec.seed = 21;
    const SweepResult result = test::orDie(runSweep(spec, blobs_));
    QCOMPARE(result.work.warmStarts, 2LL * 2 * 3);
    QCOMPARE(result.work.baselines, 2LL);  // softmax and logreg: each once, shared with its reference
    int checked = 0;
    for (const TrialRecord& trial : result.trials) {
      const SweepSeries& series = result.spec.series[static_cast<std::size_t>(trial.id.series)];
      if (!series.plan.isPrivate()) continue;
      const PrivacyPlan plan = spec.planAt(series, trial.value);  // by value: keep it while options is used
      const auto& options = std::get<TrainingMechanism>(plan.choice).options;
      const auto cold = test::orDie(mech::trainPrivately(options, blobs_.train, *experimentNoise(trial.seed)));
      QCOMPARE(trial.accuracy, *accuracyOn(cold.trained, cold.trained.theta, blobs_.test));
      ++checked;
    }
    QCOMPARE(checked, 2 * 2 * 3);
  }

  // The release path: runPlan (train, the GUI) starts loss perturbation from zero even with
  // a baseline at hand, bit for bit the cold result; and the warm entry point refuses
  // release noise.
  void releasesNeverWarmStart() {
    const auto options = mechanism(mech::MechanismKind::Loss, ModelKind::Softmax, 1, 1e-2);
    const PlanRun run = test::orDie(runPlan(PrivacyPlan::training(options), blobs_, *experimentNoise(9)));
    QVERIFY(run.baseline.model.model);  // a warm start was available
    QVERIFY(!run.release->report.warmStarted);
    const auto cold = test::orDie(mech::trainPrivately(options, blobs_.train, *experimentNoise(9)));
    QCOMPARE(run.release->model.theta, cold.trained.theta);

    auto release = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Release, 0));
    const auto refused =
        mech::trainPrivatelyFromSolution(options, blobs_.train, *release, {}, run.baseline.model.theta);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("warm-start"));
  }
};

QTEST_GUILESS_MAIN(TestSweepWarmStart)
#include "test_sweep_warm_start.moc"
