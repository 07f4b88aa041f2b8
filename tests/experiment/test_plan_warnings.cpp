// Core's pre-run warnings for every plan kind in one place (experiment::planWarnings): the
// CLI's `train` and the GUI's Mechanism form both show exactly this list.
#include <QTest>

#include "core/experiment/plan_choice.h"
#include "core/experiment/plan_warnings.h"
#include "core/mechanisms/pre_run_warnings.h"
#include "core/util/number_text.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

namespace {

PrivacyPlan planOf(PlanChoice choice) { return test::orDie(buildPlan(choice)); }

std::vector<std::string> warningsOf(const PrivacyPlan& plan, const mech::ProblemShape& shape) {
  return planWarnings(plan, test::orDie(plan.calibrate(shape)), shape);
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
  for (const std::string& warning : warnings)
    if (warning.find(text) != std::string::npos) return true;
  return false;
}

PlanChoice choice(const std::string& mechanism, ModelKind model, double lambda, double epsilon) {
  PlanChoice c;
  c.mechanism = mechanism;
  c.learner.kind = model;
  c.learner.lambda = lambda;
  c.epsilon = epsilon;
  return c;
}

}  // namespace

class TestPlanWarnings : public QObject {
  Q_OBJECT

 private slots:
  void noneWithoutPrivacy() {
    QVERIFY(warningsOf(planOf(choice("none", ModelKind::Softmax, 1e-6, 1.0)), {100, 4, 3}).empty());
  }

  // Each kind's own judgement reaches the list: the swamping noise of output perturbation,
  // of prediction sensitivity and of multiparty aggregation; none where λ is large enough.
  void eachKindWarnsOfNoiseThatSwampsItsRelease() {
    const mech::ProblemShape shape{4800, 36, 6};
    QVERIFY(mentions(warningsOf(planOf(choice("output", ModelKind::Softmax, 1e-4, 1.0)), shape), "swamps the model"));
    QVERIFY(warningsOf(planOf(choice("output", ModelKind::Softmax, 1.0, 1.0)), shape).empty());
    QVERIFY(mentions(warningsOf(planOf(choice("prediction", ModelKind::Softmax, 1e-4, 1.0)), shape), "mostly noise"));
    QVERIFY(warningsOf(planOf(choice("prediction", ModelKind::Softmax, 1.0, 1.0)), shape).empty());
    const mech::ProblemShape binary{1000, 30, 2};
    QVERIFY(mentions(warningsOf(planOf(choice("multiparty", ModelKind::LogisticRegression, 1e-4, 0.5)), binary),
                     "swamps the model"));
    QVERIFY(warningsOf(planOf(choice("multiparty", ModelKind::LogisticRegression, 1.0, 0.5)), binary).empty());
  }

  // A δ that allows publishing a whole record is said for training and prediction alike.
  void deltaNotBelowOneOverN() {
    const mech::ProblemShape iris{112, 4, 3};
    PlanChoice training = choice("output", ModelKind::Softmax, 1.0, 1.0);
    training.family = mech::NoiseFamily::Gaussian;
    training.delta = 0.05;
    QVERIFY(mentions(warningsOf(planOf(training), iris), "1/n"));
    PlanChoice prediction = choice("prediction", ModelKind::Softmax, 1.0, 1.0);
    prediction.family = mech::NoiseFamily::Gaussian;
    prediction.delta = 0.05;
    QVERIFY(mentions(warningsOf(planOf(prediction), iris), "1/n"));
  }

  // Private tuning of λ is judged as its first candidate on one part (mech::calibratedProblem):
  // with a first candidate too small for the noise, the warning names that λ.
  void tuningIsJudgedAsItsFirstCandidate() {
    const mech::ProblemShape shape{4800, 36, 6};
    PlanChoice tuned = choice("output", ModelKind::Softmax, 1.0, 1.0);
    tuned.tuneLambdas = {1e-4, 1.0};
    const PrivacyPlan plan = planOf(tuned);
    const auto& training = std::get<TrainingMechanism>(plan.choice);
    const mech::CalibratedProblem problem = mech::calibratedProblem(training.options, training.tuneLambdas, shape);
    const auto warnings =
        planWarnings(plan, test::orDie(mech::calibrate(problem.options, problem.shape)), shape);
    QVERIFY(mentions(warnings, "\u03bb = " + briefNumber(1e-4)));
  }
};

QTEST_GUILESS_MAIN(TestPlanWarnings)
#include "test_plan_warnings.moc"
