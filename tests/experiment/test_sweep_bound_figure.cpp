// What a sweep measures beside the published bounds (core/experiment/trial_measures.h) and
// the bounds chart built from it (bound_figure.h): known objective values, the multiparty
// distance equal to the one multiparty's own report measures, measurements only when asked
// and only for the series a bound applies to, series with one bound sharing a curve, and the
// notes that say when a bound is vacuous.

#include <QTest>

#include <cmath>

#include "core/experiment/bound_figure.h"
#include "core/models/lmgc.h"
#include "core/prediction/multiparty.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

namespace {

PrivacyPlan aggregate(Index parties, double lambda, mech::Calibration calibration = mech::Calibration::Corrected) {
  multiparty::MultipartyOptions o;
  o.lambda = lambda;
  o.parties = parties;
  o.calibration = calibration;
  return PrivacyPlan::multiparty(o);
}

PrivacyPlan dplmgc(mech::Calibration calibration) {
  mech::MechanismOptions o;
  o.kind = mech::MechanismKind::DpLmgc;
  o.learner = {ModelKind::Lmgc, 1e-2, 0.5};
  o.calibration = calibration;
  return PrivacyPlan::training(o);
}

SweepSpec multipartySpec(double lambda) {
  SweepSpec spec;
  spec.series = {test::series("even", aggregate(4, lambda)),
                 test::series("even-published", aggregate(4, lambda, mech::Calibration::Published)),
                 test::series("output", test::outputPlan(ModelKind::LogisticRegression))};
  spec.axis = SweepAxis::Epsilon;
  spec.values = {0.5, 5};
  spec.repeats = 3;
  spec.seed = 5;
  return spec;
}

const TrialRecord* firstOf(const SweepResult& result, const std::string& key) {
  for (const TrialRecord& t : result.trials)
    if (t.series == key) return &t;
  return nullptr;
}

}  // namespace

class TestSweepBoundFigure : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();

 private slots:
  // J(0) = log 2 for any rows (mean scale, no regularizer at 0); LMGC: J(Φ = 0) = n(C−1)·H_h(0).
  void objectivesHaveKnownValuesAtZero() {
    const LearnerSpec logreg{ModelKind::LogisticRegression, 0.3, 0.5};
    const auto model = test::orDie(makeModel(logreg, blobs_.train.features(), 2));
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model->parameterCount());
    DPSTUDIO_COMPARE_REL(learnerObjective(logreg, *model, zero, blobs_.train), std::log(2.0), 1e-12);
    DPSTUDIO_COMPARE_REL(heldOutRisk(logreg, *model, zero, blobs_.test), std::log(2.0), 1e-12);
    // One row x = e1 with label +1 and θ = 2e1: log(1 + e^{−2}) + (0.3/2)·4.
    Dataset one;
    one.X = Eigen::MatrixXd::Zero(1, blobs_.train.features());
    one.X(0, 0) = 1.0;
    one.y = Eigen::VectorXi::Constant(1, 1);
    one.classNames = {"a", "b"};
    Eigen::VectorXd theta = zero;
    theta(0) = 2.0;
    DPSTUDIO_COMPARE_REL(learnerObjective(logreg, *model, theta, one), std::log1p(std::exp(-2.0)) + 0.6, 1e-12);

    const PreparedData iris = test::unitRowData("iris");
    const LearnerSpec lmgc{ModelKind::Lmgc, 1e-2, 0.5};
    const auto gaussian = test::orDie(makeModel(lmgc, iris.train.features(), 3));
    const Eigen::VectorXd none = Eigen::VectorXd::Zero(gaussian->parameterCount());
    DPSTUDIO_COMPARE_REL(learnerObjective(lmgc, *gaussian, none, iris.train),
                         static_cast<double>(iris.train.rows()) * 2.0, 1e-12);
    DPSTUDIO_COMPARE_REL(heldOutRisk(lmgc, *gaussian, none, iris.test), 2.0, 1e-12);
    // Softmax has no bound, so no measured objective.
    const LearnerSpec softmax{ModelKind::Softmax, 1e-2, 0.5};
    const auto soft = test::orDie(makeModel(softmax, iris.train.features(), 3));
    QVERIFY(std::isnan(learnerObjective(softmax, *soft, Eigen::VectorXd::Zero(soft->parameterCount()), iris.train)));
  }

  void multipartyTrialsMeasureWhatMultipartyReports() {
    const SweepSpec spec = multipartySpec(1e-2);
    SweepControl control;
    control.measureBoundedQuantities = true;
    const SweepResult result = test::orDie(runSweep(spec, blobs_, control));
    int measured = 0;
    double distance = -1;
    for (const TrialRecord& t : result.trials) {
      const bool bounded = t.series == "even" || t.series == "even-published";
      QCOMPARE(t.measures.has_value(), bounded);  // not output perturbation, not the reference
      if (!bounded) continue;
      ++measured;
      QCOMPARE(t.measures->shape.rows, blobs_.train.rows());
      QCOMPARE(t.measures->shape.features, blobs_.train.features());
      // ‖ŵ − w*‖ has no noise in it: one number for every ε, repetition and calibration.
      if (distance < 0) distance = t.measures->distance;
      DPSTUDIO_COMPARE_REL(t.measures->distance, distance, 1e-12);
      // w* minimizes J (to the solver's tolerance): the released model cannot do better on it.
      QVERIFY2(t.measures->empiricalExcess > -1e-9, qPrintable(QString::number(t.measures->empiricalExcess)));
      QVERIFY(std::isfinite(t.measures->trueExcess));
    }
    QCOMPARE(measured, 2 * 2 * 3);
    QVERIFY(distance > 0);
    // The distance multiparty's own run reports, from exact local and all-data minimizers.
    auto noise = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Experiment, 1));
    const auto run = test::orDie(multiparty::trainMultiparty(std::get<Multiparty>(spec.series[0].plan.choice).options,
                                                             blobs_.train, *noise));
    DPSTUDIO_COMPARE_REL(distance, run.distance, 1e-4);
    // More noise, more excess risk: ε = 0.5 against ε = 5, averaged over the repetitions.
    double low = 0, high = 0;
    for (const TrialRecord& t : result.trials)
      if (t.series == "even") (t.value < 1 ? low : high) += t.measures->empiricalExcess;
    QVERIFY2(low > high, qPrintable(QString("%1 vs %2").arg(low).arg(high)));

    // Not asked: nothing measured (the CLI's sweeps).
    const SweepResult plain = test::orDie(runSweep(spec, blobs_));
    QVERIFY(!firstOf(plain, "even")->measures);
    QCOMPARE(test::comparable(plain.trials), test::comparable(result.trials));  // the same trials
  }

  void figureDrawsOneBoundPerSplitAndSaysWhenVacuous() {
    const SweepSpec spec = multipartySpec(1e-2);
    SweepControl control;
    control.measureBoundedQuantities = true;
    const SweepResult result = test::orDie(runSweep(spec, blobs_, control));
    QCOMPARE(boundedQuantities(result.spec),
             (std::vector<BoundedQuantity>{BoundedQuantity::ParameterDistance, BoundedQuantity::EmpiricalExcessRisk,
                                           BoundedQuantity::TrueExcessRisk}));

    const BoundFigure distance =
        boundFigure(result.spec, result.trials, BoundedQuantity::ParameterDistance, 0.05);
    QCOMPARE(distance.series.size(), std::size_t{2});  // the two multiparty series
    QCOMPARE(distance.points.size(), std::size_t{2 * 2});
    for (const CurvePoint& p : distance.points) {
      QCOMPARE(p.count, Index{3});
      QCOMPARE(p.std, 0.0);
    }
    // Corrected and as published share the split, hence the bound: one curve for both.
    QCOMPARE(distance.bounds.size(), std::size_t{1});
    const BoundCurve& curve = distance.bounds.front();
    QCOMPARE(curve.seriesKeys, (std::vector<std::string>{"even", "even-published"}));
    QCOMPARE(curve.label, std::string("Paper 004, Theorem 4.2 (as published)"));
    const Index n1 = blobs_.train.rows() / 4;  // even split: sizes differ by at most one row
    QCOMPARE(curve.points.size(), std::size_t{2});
    DPSTUDIO_COMPARE_REL(curve.points[0].bound, aggregateDistanceBound(4, static_cast<double>(n1), 1e-2), 1e-12);
    QCOMPARE(curve.points[0].bound, curve.points[1].bound);  // no ε in it

    // Theorem 4.3 at λ = 1e-2 on 2 800 rows in 10 dimensions is far above log 2: vacuous, said so.
    const BoundFigure empirical =
        boundFigure(result.spec, result.trials, BoundedQuantity::EmpiricalExcessRisk, 0.05);
    QCOMPARE(empirical.bounds.size(), std::size_t{2});  // corrected and published differ in caveat
    bool vacuousNoted = false, caveatNoted = false;
    for (const std::string& note : empirical.notes) {
      vacuousNoted |= note.find("Theorem 4.3") != std::string::npos && note.find("vacuous") != std::string::npos;
      caveatNoted |= note.find("drawn for reference") != std::string::npos;
    }
    QVERIFY(vacuousNoted);
    QVERIFY(caveatNoted);
    QVERIFY(empirical.bounds[0].vacuousSomewhere());
    QVERIFY(QString::fromStdString(empirical.title).contains("δ = 0.05"));

    // Two sweeps in one chart: the second's keys tagged, as overlayCurves does.
    const BoundFigure both = overlayBoundFigures({distance, distance});
    QCOMPARE(both.bounds.size(), std::size_t{2});
    QCOMPARE(both.bounds[1].seriesKeys.front(), std::string("even #2"));
    QCOMPARE(both.series.size(), std::size_t{4});
  }

  void dplmgcTrialsMeasureExcessRiskOfTheirOwnObjective() {
    const PreparedData iris = test::unitRowData("iris");
    SweepSpec spec;
    spec.series = {test::series("dplmgc", dplmgc(mech::Calibration::Corrected)),
                   test::series("dplmgc-published", dplmgc(mech::Calibration::Published))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {1, 10};
    spec.repeats = 2;
    SweepControl control;
    control.measureBoundedQuantities = true;
    const SweepResult result = test::orDie(runSweep(spec, iris, control));
    for (const TrialRecord& t : result.trials) {
      if (t.series == "nonprivate") continue;
      QVERIFY(t.measures);
      QVERIFY(std::isnan(t.measures->distance));
      QVERIFY2(t.measures->empiricalExcess > -1e-6, qPrintable(QString::number(t.measures->empiricalExcess)));
    }
    const BoundFigure figure =
        boundFigure(result.spec, result.trials, BoundedQuantity::EmpiricalExcessRisk, 0.05);
    QCOMPARE(figure.bounds.size(), std::size_t{2});
    QCOMPARE(figure.bounds[0].source, std::string("Paper 000, Theorem 2"));
    // 8·5⁴·3/(ε²·0.01)·log²(4/0.05) against J(Φ = 0) = 2n: vacuous everywhere, said so.
    QVERIFY(figure.bounds[0].vacuousSomewhere());
    DPSTUDIO_COMPARE_REL(figure.bounds[0].points[0].vacuousAbove, 2.0 * static_cast<double>(iris.train.rows()), 1e-12);
    QVERIFY(!boundedQuantities(spec).empty());
  }

  void noBoundSaysWhy() {
    SweepSpec spec;
    spec.series = {test::series("output", test::outputPlan(ModelKind::LogisticRegression))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {1};
    QVERIFY(boundedQuantities(spec).empty());
    QVERIFY(QString::fromStdString(whyNoBounds(spec)).contains("DP-LMGC"));
    spec.series = {test::series("even", aggregate(4, 1e-2))};
    QVERIFY(!boundedQuantities(spec).empty());
    spec.axis = SweepAxis::Delta;  // pure ε-DP bounds take no privacy δ
    QVERIFY(boundedQuantities(spec).empty());
    QVERIFY(!whyNoBounds(spec).empty());
  }
};

QTEST_GUILESS_MAIN(TestSweepBoundFigure)
#include "test_sweep_bound_figure.moc"
