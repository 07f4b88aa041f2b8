// Issue 13 part 2, the audit's adversary (docs/algorithms.md §3 J (a), (b)): on its worst cases the
// audit certifies at least half of the claimed ε for output and objective perturbation,
// prediction sensitivity (ℓ2-Laplace) and corrected subsample-and-aggregate at 20 000 runs,
// and it flags each of them under-noised by a factor 2 — the noise scale halved, which for
// these pure-ε laws is the mechanism run at 2ε while ε is claimed. The same for the (ε, δ)
// mechanisms whose worst case the accountant bounds nearly exactly — output perturbation
// with Gaussian noise, DP-SGD on softmax with every step sampling the decisive row — at
// δ = 1e-2, with σ halved. Loss perturbation is audited on the binary Huber SVM, where its
// calibration is tight (worst_case.h: the double spends 1.56 on the pair, the calibration
// 0.90 of its ε = 1) with the exact likelihood ratio of a perturbed minimizer; on linear
// softmax it has more than a factor 2 of slack on every pair
// (lossPerturbationReachesThePairsBound says why). DP-LMGC is not flagged: see
// dpLmgcDoubleIsBeyondAffordableTrials. The old adversary (a
// two-cluster problem whose canary moved θ* by about half of Δ, a projection statistic)
// certified 0 for output perturbation at ε = 1 and flagged none of these doubles.
// Also: the worst case's geometry (θ* moves by exactly Δ for the Huber SVM), the likelihood
// ratio statistic, and the vote split.

#include <QTest>

#include <cmath>

#include "core/audit/audit_problem.h"
#include "core/audit/perturbed_likelihood.h"
#include "core/audit/statistic.h"
#include "core/audit/worst_case.h"
#include "core/models/huber.h"
#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using audit::AuditOptions;
using audit::AuditTarget;
Q_DECLARE_METATYPE(dpstudio::audit::AuditOptions)

namespace {

constexpr long long kTrials = 20000;

AuditOptions training(mech::MechanismKind kind, double epsilon) {
  AuditOptions o;
  o.target = AuditTarget::Training;
  o.training.kind = kind;
  o.training.learner.kind = ModelKind::HuberSvm;
  o.training.learner.lambda = 1e-2;
  o.training.epsilon = epsilon;
  o.trials = kTrials;
  return o;
}

AuditOptions prediction(predict::PredictionKind kind, double epsilon) {
  AuditOptions o;
  o.target = AuditTarget::Prediction;
  o.prediction.kind = kind;
  o.prediction.learner.kind = kind == predict::PredictionKind::Sensitivity ? ModelKind::HuberSvm
                                                                           : ModelKind::LogisticRegression;
  o.prediction.learner.lambda = 1e-2;
  o.prediction.epsilon = epsilon;
  o.prediction.budget = 1;
  o.prediction.teachers = 20;
  o.trials = kTrials;
  return o;
}

// The noise scale a training audit's mechanism calibrates on its built-in problem.
mech::MechanismReport trainingCalibration(const AuditOptions& o) {
  auto problem = audit::builtinAuditProblem(o);
  if (!problem) qFatal("%s", problem.error().toString().c_str());
  const Dataset& D = problem.value().D;
  auto report = mech::calibrate(o.training, {D.rows(), D.features(), D.classes()});
  if (!report) qFatal("%s", report.error().toString().c_str());
  return report.value();
}

// The same mechanism with half its noise while the claim stays: the pure-ε laws' scale is
// proportional to ε, so that is the run at 2ε; a Gaussian σ is halved by bisection on the ε
// it is calibrated for; DP-SGD's noise multiplier is halved.
AuditOptions underNoised(AuditOptions o) {
  if (o.target == AuditTarget::Training && o.training.kind == mech::MechanismKind::DpSgd) {
    o.training.sgd.noiseMultiplier = *trainingCalibration(o).value("noise_multiplier") / 2.0;
    return o;
  }
  if (o.target == AuditTarget::Training && o.training.family == mech::NoiseFamily::Gaussian) {
    const double target = trainingCalibration(o).noiseScale() / 2.0;
    double low = o.training.epsilon, high = 64.0 * o.training.epsilon;  // σ falls as ε grows
    for (int i = 0; i < 100 && high - low > 1e-12 * high; ++i) {
      AuditOptions trial = o;
      trial.training.epsilon = 0.5 * (low + high);
      (trainingCalibration(trial).noiseScale() > target ? low : high) = trial.training.epsilon;
    }
    o.training.epsilon = high;
    if (std::abs(trainingCalibration(o).noiseScale() / target - 1.0) > 1e-9) qFatal("sigma not halved");
    return o;
  }
  o.training.epsilon *= 2.0;
  o.prediction.epsilon *= 2.0;
  o.multiparty.epsilon *= 2.0;
  return o;
}

audit::AuditResult audited(const AuditOptions& o) {
  auto problem = audit::builtinAuditProblem(o);
  if (!problem) qFatal("%s", problem.error().toString().c_str());
  auto result = audit::runAudit(o, problem.value());
  if (!result) qFatal("%s", result.error().toString().c_str());
  const auto& r = result.value();
  qInfo("%-10s claimed eps %.3g: eps_lower %.3f, %lld trials, %.2f s", r.mechanism.c_str(), r.epsilon,
        r.epsilonLower, r.trials, r.seconds);
  return r;
}

AuditOptions multipartyAudit(double epsilon) {
  AuditOptions o;
  o.target = AuditTarget::Multiparty;
  o.multiparty.model = ModelKind::HuberSvm;
  o.multiparty.lambda = 1e-2;
  o.multiparty.epsilon = epsilon;
  o.trials = kTrials;
  return o;
}

// (ε, δ) mechanisms at δ = 1e-2: a Gaussian's privacy loss exceeds ε only with probability
// about δ, so at δ = 1e-5 neither a correct mechanism nor its double is visible in 20 000
// runs; at 1e-2 both are, and the calibration is the same function of δ.
AuditOptions gaussianOutput(double epsilon) {
  AuditOptions o = training(mech::MechanismKind::Output, epsilon);
  o.training.family = mech::NoiseFamily::Gaussian;
  o.training.delta = 1e-2;
  return o;
}

AuditOptions dpSgd(double epsilon) {
  AuditOptions o = training(mech::MechanismKind::DpSgd, epsilon);
  o.training.learner.kind = ModelKind::Softmax;
  o.training.delta = 1e-2;
  o.training.sgd.clipNorm = 0.5;  // below the decisive row's gradient norm 1/√2: every step clipped
  o.training.sgd.epochs = 5;
  return o;
}

// Loss perturbation's worst case (worst_case.h): its privacy loss is a ramp in θ, highest
// (0.90ε) on a narrow band of outputs next to the Huber knot, so at 20 000 runs the
// threshold selected on half of them often lands on that band with few held-out counts
// (0.28 certified at seed 1). Its runs are cheap (1-D, two rows): 200 000 take ~3 s and
// certify 0.53 (seed 1) to 0.82 (seeds 2–5: 0.76–0.82; the double 1.35–1.51).
AuditOptions lossPerturbation(double epsilon) {
  AuditOptions o = training(mech::MechanismKind::Loss, epsilon);
  o.trials = 200000;
  return o;
}

void addWorstCases() {
  QTest::addColumn<AuditOptions>("options");
  QTest::newRow("output perturbation, huber, gaussian, delta = 1e-2") << gaussianOutput(1.0);
  QTest::newRow("dp-sgd, softmax, q = 1, delta = 1e-2") << dpSgd(1.0);
  QTest::newRow("output perturbation, huber") << training(mech::MechanismKind::Output, 1.0);
  QTest::newRow("objective perturbation, huber") << training(mech::MechanismKind::Objective, 1.0);
  QTest::newRow("loss perturbation, huber, n = 2") << lossPerturbation(1.0);
  QTest::newRow("prediction sensitivity, l2-laplace, B = 1") << prediction(predict::PredictionKind::Sensitivity, 1.0);
  QTest::newRow("subsample-and-aggregate, corrected, T = 20, B = 1")
      << prediction(predict::PredictionKind::Subsample, 1.0);
  QTest::newRow("multiparty aggregation, huber, K = 5") << multipartyAudit(1.0);
}

}  // namespace

class TestAuditAdversary : public QObject {
  Q_OBJECT

 private slots:
  void worstCaseCertifiesHalfOfEpsilon_data() { addWorstCases(); }
  void worstCaseCertifiesHalfOfEpsilon() {
    QFETCH(AuditOptions, options);
    const auto r = audited(options);
    QVERIFY2(r.epsilonLower >= 0.5 * r.epsilon, qPrintable(QString("eps_lower %1").arg(r.epsilonLower)));
    QVERIFY2(!r.violation, qPrintable(QString("a correct mechanism flagged: eps_lower %1").arg(r.epsilonLower)));
  }

  void factorTwoDoubleIsFlagged_data() { addWorstCases(); }
  void factorTwoDoubleIsFlagged() {
    QFETCH(AuditOptions, options);
    const double claimed = options.target == AuditTarget::Training     ? options.training.epsilon
                           : options.target == AuditTarget::Prediction ? options.prediction.epsilon
                                                                       : options.multiparty.epsilon;
    const auto r = audited(underNoised(options));
    QVERIFY2(r.epsilonLower > claimed,
             qPrintable(QString("the double's eps_lower %1 does not exceed the claimed %2").arg(r.epsilonLower).arg(claimed)));
  }

  // Loss perturbation's calibration has slack on linear softmax that no audit can close: β =
  // ε/(4K) covers a noise shift of 2K = 2√2 plus a Jacobian term of ε/2, but flipping the
  // decisive row's label shifts the noise that explains an output by e₁ − e₀ (norm √2 = K)
  // and leaves the Jacobian alone (the softmax Hessian does not depend on the label), so this
  // pair's privacy loss is at most β·√2 = ε/4. (The worst pair in two classes — orthogonal
  // rows, one predicted wrong with certainty, the canary at p = ½ — reaches ≈ 0.69ε at
  // ε = 1 and only where the noise aligns with the shift.) The factor-2 double is therefore
  // at most ≈ 1.25ε-DP: no audit at affordable trial counts can flag it. What is tested is
  // the audit's power on the pair: ≥ half of the ε/4 it can reach, and a flag when the noise
  // is cut 8×, which lets this pair's loss reach 2ε.
  void lossPerturbationReachesThePairsBound() {
    AuditOptions o = training(mech::MechanismKind::Loss, 1.0);
    o.training.learner.kind = ModelKind::Softmax;
    const auto correct = audited(o);
    QVERIFY2(correct.epsilonLower >= 0.5 * 0.25 * o.training.epsilon,
             qPrintable(QString("eps_lower %1").arg(correct.epsilonLower)));
    QVERIFY(!correct.violation);
    AuditOptions cut = o;
    cut.training.epsilon *= 8.0;
    const auto r = audited(cut);
    QVERIFY2(r.epsilonLower > o.training.epsilon, qPrintable(QString("eps_lower %1").arg(r.epsilonLower)));
  }

  // Loss perturbation's worst case (worst_case.h): the exact likelihood ratio agrees with
  // its closed form — D's row (x = 1, y = +1), D''s (x = 1, y = −1), the noise that explains
  // θ is b(θ) = −(ℓ'-term + Aθ), the Jacobian A + ℓ'' — and the privacy loss log p_D/p_D'
  // peaks within the proof's ε/2 + log(1 + ε/2) for the calibration at ε = 1 and above
  // ε = 1 for its factor-2 double (the mechanism at 2ε).
  void lossPerturbationPairSpendsWhatTheAnalysisSays() {
    for (const double run : {1.0, 2.0}) {
      const AuditOptions o = training(mech::MechanismKind::Loss, run);
      const audit::AuditProblem problem = audit::builtinAuditProblem(o).value();
      const mech::MechanismReport report = trainingCalibration(o);
      const double h = o.training.learner.huber;
      const double A = static_cast<double>(problem.D.rows()) * o.training.learner.lambda + report.calibrated(dpstudio::mech::Calibrated::Rho);
      const double beta = report.noiseScale();
      auto model = makeModel(o.training.learner, 1, 2).value();
      const auto s = audit::perturbedMinimizerStatistic(model, problem, A, report.noise, beta).value();
      double peak = -1e9;
      for (double t = -3.0; t <= 3.0; t += 1e-3) {
        const double knot = std::min({std::abs(std::abs(t) - (1 - h)), std::abs(std::abs(t) - (1 + h))});
        const double bD = -(huber::derivative(t, h) + A * t), bDprime = -(-huber::derivative(-t, h) + A * t);
        const double loss = beta * (std::abs(bDprime) - std::abs(bD)) +
                            std::log((A + huber::secondDerivative(t, h)) / (A + huber::secondDerivative(-t, h)));
        peak = std::max(peak, loss);
        if (knot > 1e-4) QVERIFY2(std::abs(-s.of(Eigen::VectorXd::Constant(1, t)) - loss) < 1e-6,
                                  qPrintable(QString("theta %1: %2 against %3").arg(t).arg(-s.of(Eigen::VectorXd::Constant(1, t))).arg(loss)));
      }
      qInfo("loss perturbation at %g on its pair: peak privacy loss %.4f", run, peak);
      if (run == 1.0) {
        QVERIFY(peak <= 0.5 + std::log(1.5) + 1e-9);
        QVERIFY(peak > 0.89);  // the pair is the worst the calibration allows, nearly
      } else {
        QVERIFY(peak > 1.55);  // the double spends more than the ε = 1 it claims
      }
    }
  }

  // DP-LMGC's factor-2 double is not flagged, and cannot be at the trial counts CI affords.
  // LMGC is linear in z = vec(x̃x̃ᵀ) and its smallest parameter space (d = 1, C = 2) has
  // m = 6 dimensions, so the noise B ~ ℓ2-Laplace(β, 6). The best pair is the loss-perturbation
  // pair above embedded along u = (z, −z)/(√2‖z‖) with ‖z‖ = 1 (one row; its margin is a
  // 1-D Huber in ⟨θ, u⟩, its gradient difference 2K along u, its Jacobian ratio ≤ 1 + ε/2
  // per unit of ε, exactly as in one dimension), and B's five other coordinates only dilute
  // the density term: β(‖b + 2K u‖ − ‖b‖) nears 2βK only when b points along u, which a
  // 6-dimensional direction rarely does. Simulated without the PSD constraint (which can
  // only merge outputs), 10⁵ draws per dataset: the double's privacy loss peaks at 1.26 to
  // 1.46 (h = ½ to ¼) but the best threshold test certifies only 0.72–0.79 with 10 000
  // held-out runs per dataset, against the ε = 1 it claims (in one dimension: 1.37); at
  // h = ¼ it would take about 10⁵ held-out runs per dataset (1.08; 10⁶: 1.23) and an exact
  // likelihood ratio through the PSD constraint — hours of DP-LMGC runs, not a CI test.
  // The calibration is not loose by 2: the double's loss does exceed ε, rarely. What is
  // tested is what the built-in pair gives: no flag for the calibration.
  void dpLmgcDoubleIsBeyondAffordableTrials() {
    AuditOptions o = training(mech::MechanismKind::DpLmgc, 1.0);
    o.training.learner.kind = ModelKind::Lmgc;
    o.trials = 2000;
    const auto r = audited(o);
    QVERIFY(!r.violation);
  }

  // On real data (breast cancer, T = 20) the adversary finds a query and a canary that
  // turns one teacher, and the as-published calibration — each answer 2β-DP — is flagged,
  // while the corrected one is not (the old audit certified 0.68 against a true 2ε at T = 8).
  void subsampleAsPublishedIsFlaggedOnRealData() {
    auto loaded = loadBuiltin("breast_cancer");
    QVERIFY(loaded);
    SplitAndPreprocess settings;
    settings.testFraction = 0.25;
    settings.preprocess.normBound = 5000.0;
    auto prepared = prepareLoaded(std::move(loaded).value(), std::nullopt, settings);
    QVERIFY(prepared);
    for (const auto calibration : {mech::Calibration::Corrected, mech::Calibration::Published}) {
      AuditOptions o = prediction(predict::PredictionKind::Subsample, 1.0);
      o.prediction.calibration = calibration;
      o.prediction.learner.lambda = 1e-4;  // the CLI's default: teachers on 21 rows that disagree near the boundary
      auto problem = audit::auditProblemFromData(o, prepared.value().train);
      QVERIFY2(problem, problem ? "" : problem.error().toString().c_str());
      QVERIFY(problem.value().description.find("turns that teacher's vote") != std::string::npos);
      QVERIFY(problem.value().description.find("not a release") != std::string::npos);
      auto result = audit::runAudit(o, problem.value());
      QVERIFY(result);
      qInfo("breast cancer, %s: eps_lower %.3f; %s; %s", mech::calibrationName(calibration).c_str(), result.value().epsilonLower, problem.value().description.c_str(), result.value().statistic.c_str());
      QCOMPARE(result.value().violation, calibration == mech::Calibration::Published);
    }
  }

  // The geometry the worst case rests on: the Huber SVM's minimizer is set by the decisive
  // row alone and moves by exactly Δ = 2/(nλ) when its label flips.
  void decisiveRowMovesTheHuberMinimizerByDelta() {
    const double lambda = 1e-2;
    const Index n = audit::decisiveRowCount(lambda, 0.5);
    const audit::AuditProblem p = audit::oneDecisiveRow(n, 0, "");
    QCOMPARE(p.D.features(), Index{1});
    LearnerSpec spec;
    spec.kind = ModelKind::HuberSvm;
    spec.lambda = lambda;
    TrainControl tight;
    tight.tolerance = 1e-12;
    const auto onD = trainModel(spec, p.D.X, p.D.y, 2, tight).value();
    const auto onDprime = trainModel(spec, p.Dprime.X, p.Dprime.y, 2, tight).value();
    const double Delta = 2.0 / (static_cast<double>(n) * lambda);
    DPSTUDIO_COMPARE_REL((onD.theta - onDprime.theta).norm(), Delta, 1e-6);
  }

  // The ℓ2-Laplace likelihood ratio: ‖o − a‖ − ‖o − a'‖ per draw, summed over blocks; the
  // Gaussian one is the projection.
  void likelihoodRatioStatistic() {
    const Eigen::Vector4d a(0, 0, 1, 1), b(3, 4, 1, 1);
    const auto laplace = audit::likelihoodStatistic(a, b, mech::NoiseLaw::L2Laplace, 2, "output").value();
    const Eigen::Vector4d o(3, 4, 2, 1);
    QCOMPARE(laplace.of(o), (5.0 - 0.0) + (1.0 - 1.0));
    const auto perCoordinate =
        audit::likelihoodStatistic(a, b, mech::NoiseLaw::LaplacePerCoordinate, 4, "output").value();
    QCOMPARE(perCoordinate.of(o), (3.0 + 4.0 + 1.0 + 0.0) - (0.0 + 0.0 + 1.0 + 0.0));
    const auto gaussian = audit::likelihoodStatistic(a, b, mech::NoiseLaw::Gaussian, 4, "output").value();
    QCOMPARE(gaussian.of(o), (3.0 * 3.0 + 4.0 * 4.0) / 5.0);
    QVERIFY(!audit::likelihoodStatistic(a, a, mech::NoiseLaw::L2Laplace, 2, "output"));
  }

  // The split balances a large likelihood ratio against answers rare enough to be seen:
  // neither the tie nor the lopsided vote when β is large.
  void voteSplitIsNeitherTieNorLopsided() {
    const Index k = audit::bestVoteSplit(20, 1.0, 10000);
    QVERIFY2(k > 1 && k < 10, qPrintable(QString("k = %1").arg(k)));
    const audit::AuditProblem p = audit::voteSplit(20, k, 1);
    QCOMPARE(p.D.rows(), Index{60});
    QCOMPARE((p.D.X - p.Dprime.X).rowwise().norm().count(), Index{1});  // one row replaced
  }
};

QTEST_GUILESS_MAIN(TestAuditAdversary)
#include "test_audit_adversary.moc"
