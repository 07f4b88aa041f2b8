// RunControl::reuse (core/experiment/plan_run.h): work lent to a run is taken, not computed
// again, and a run that is lent it releases exactly what a run computing it itself releases
// from the same noise — what makes a sweep's trials (sweep.h, "Reuse") the same runs as
// train's.

#include <QTest>

#include "core/experiment/answering.h"
#include "core/experiment/plan_run.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

Q_DECLARE_METATYPE(dpstudio::experiment::PrivacyPlan)

namespace {

// A provider that computes once and then lends its value, counting the computations.
template <class T>
struct Memo {
  std::shared_ptr<const T> value;
  int computed = 0;

  WorkProvider<T> provider() {
    return [this](const std::function<Result<T>()>& compute) -> Result<std::shared_ptr<const T>> {
      if (!value) {
        auto made = compute();
        if (!made) return made.error();
        value = std::make_shared<const T>(std::move(made).value());
        ++computed;
      }
      return value;
    };
  }
};

struct Memos {
  Memo<FittedModel> baseline;
  Memo<Eigen::VectorXd> exactStart;
  Memo<predict::PrivatePredictor> predictor;
  Memo<std::shared_ptr<const predict::TeacherEnsemble>> teachers;
  Memo<std::vector<multiparty::LocalModel>> parties;

  int computed() const {
    return baseline.computed + exactStart.computed + predictor.computed + teachers.computed + parties.computed;
  }
};

// As a sweep's trial runs: nothing beside the release, warm starts from the baseline.
RunControl trialControl(const PrivacyPlan& plan, Memos* memos) {
  RunControl control;
  control.trainBaseline = false;
  control.diagnostics = false;
  control.experimentWarmStart = true;
  if (!memos) return control;
  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    if (startsFromBaseline(*t)) control.reuse.baseline = memos->baseline.provider();
    if (startsFromExactMinimizer(*t)) control.reuse.exactStart = memos->exactStart.provider();
  }
  control.reuse.predictor = memos->predictor.provider();
  control.reuse.teachers = memos->teachers.provider();
  control.reuse.parties = memos->parties.provider();
  return control;
}

// What a run released, as numbers: the released θ, or a predictor's answers to a seeded sample.
std::vector<double> released(PlanRun& run, const PreparedData& data, privacy::NoiseSource& noise) {
  if (run.prediction) {
    const auto answered = test::orDie(answerTestSample(*run.prediction, data.test, noise, 5));
    return {static_cast<double>(answered.correct), static_cast<double>(answered.answered)};
  }
  const Eigen::VectorXd& theta = run.release->model.theta;
  return {theta.data(), theta.data() + theta.size()};
}

}  // namespace

class TestPlanRunReuse : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();

 private slots:
  void lentWorkReleasesTheSame_data() {
    QTest::addColumn<PrivacyPlan>("plan");
    QTest::addColumn<int>("shared");  // computations two runs share
    mech::MechanismOptions loss;
    loss.kind = mech::MechanismKind::Loss;
    loss.learner = {ModelKind::LogisticRegression, 1e-2, 0.5};
    multiparty::MultipartyOptions parties;
    parties.parties = 3;
    parties.lambda = 1e-2;
    QTest::newRow("output: baseline and polished start") << test::outputPlan(ModelKind::LogisticRegression) << 2;
    QTest::newRow("objective: baseline") << test::objectivePlan() << 1;
    QTest::newRow("loss: baseline") << PrivacyPlan::training(loss) << 1;
    QTest::newRow("prediction sensitivity: theta*")
        << test::predictionPlan(predict::PredictionKind::Sensitivity, ModelKind::LogisticRegression, 40) << 1;
    QTest::newRow("subsample: teachers")
        << test::predictionPlan(predict::PredictionKind::Subsample, ModelKind::LogisticRegression, 40) << 1;
    QTest::newRow("multiparty: local models") << PrivacyPlan::multiparty(parties) << 1;
  }

  void lentWorkReleasesTheSame() {
    QFETCH(PrivacyPlan, plan);
    QFETCH(int, shared);
    privacy::ExperimentNoise ownNoise(11);
    PlanRun own = test::orDie(runPlan(plan, blobs_, ownNoise, trialControl(plan, nullptr)));
    const std::vector<double> expected = released(own, blobs_, ownNoise);

    Memos memos;
    for (int run = 0; run < 2; ++run) {
      privacy::ExperimentNoise noise(11);
      PlanRun lent = test::orDie(runPlan(plan, blobs_, noise, trialControl(plan, &memos)));
      QCOMPARE(released(lent, blobs_, noise), expected);  // bit for bit, the same noise draws
      if (lent.release) QCOMPARE(lent.release->trainAccuracy, 0.0);  // no diagnostics asked
    }
    QCOMPARE(memos.computed(), shared);  // once, by the first run
  }

  // A lent baseline is taken even where the run would not train one (model_spread, the GUI).
  void lentBaselineIsTaken() {
    privacy::ExperimentNoise noise(2);
    const PlanRun first =
        test::orDie(runPlan(PrivacyPlan::nonPrivate({ModelKind::LogisticRegression, 1e-2, 0.5}), blobs_, noise));
    RunControl control;
    control.trainBaseline = false;
    control.reuse.baseline = lentBaseline(first.baseline);
    const PlanRun output = test::orDie(runPlan(test::outputPlan(ModelKind::LogisticRegression), blobs_, noise, control));
    QCOMPARE(output.baseline.model.theta, first.baseline.model.theta);
    QCOMPARE(output.baseline.trainAccuracy, first.baseline.trainAccuracy);
  }
};

QTEST_GUILESS_MAIN(TestPlanRunReuse)
#include "test_plan_run_reuse.moc"
