// Calibration without data: known answers for every mechanism's derived values (computed
// by hand here from docs/algorithms.md §3), the DP-SGD σ search, the substitution accountant, and
// option validation (rejected before any work, with the parameter named).

#include <QTest>

#include <cmath>
#include <functional>
#include <limits>

#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/noise_scale.h"
#include "core/mechanisms/pre_run_warnings.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/privacy/gaussian.h"
#include "core/privacy/noise.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;
using Mutator = std::function<void(mech::MechanismOptions&)>;
Q_DECLARE_METATYPE(Mutator)
Q_DECLARE_METATYPE(dpstudio::ModelKind)

namespace {

mech::MechanismReport calibrated(const mech::MechanismOptions& o, mech::ProblemShape shape) {
  auto report = mech::calibrate(o, shape);
  if (!report) qFatal("%s", report.error().toString().c_str());
  return std::move(report).value();
}

double valueOf(const mech::MechanismReport& r, const char* key) {
  const auto v = r.value(key);
  if (!v) qFatal("report has no '%s'", key);
  return *v;
}

}  // namespace

class TestMechanismCalibration : public QObject {
  Q_OBJECT

 private slots:
  // Issue 11: ‖θ*‖ ≤ √(2ℓ(0)/λ) and the warning when output perturbation's E‖b‖ exceeds it.
  void noiseThatSwampsEveryModelIsNamed() {
    QCOMPARE(*mech::minimizerNormBound({ModelKind::LogisticRegression, 0.01, 0.5}, 2), std::sqrt(2 * std::log(2.0) / 0.01));
    QCOMPARE(*mech::minimizerNormBound({ModelKind::HuberSvm, 0.5, 0.5}, 2), 2.0);
    QCOMPARE(*mech::minimizerNormBound({ModelKind::Softmax, 0.02, 0.5}, 10), std::sqrt(2 * std::log(10.0) / 0.02));
    QVERIFY(!mech::minimizerNormBound({ModelKind::Lmgc, 0.01, 0.5}, 3));
    // iris-sized: n = 112, d = 4, one-vs-rest over 3 classes at ε = 1.
    auto o = test::options(MechanismKind::Output, ModelKind::LogisticRegression, 1.0, 1e-4);
    const auto report = test::orDie(mech::calibrate(o, {112, 4, 3}));
    const auto warning = mech::noiseSwampsModelWarning(o, report, 3);
    QVERIFY(warning);
    QVERIFY(warning->find("noise swamps the model") != std::string::npos);
    // At the λ it names, E‖b‖ meets the bound (E‖b‖ ∝ 1/λ): just above it, no warning.
    const double bound = *mech::minimizerNormBound(o.learner, 3);
    const double balance = std::pow(report.expectedNoiseNorm * o.learner.lambda, 2) / (bound * bound * o.learner.lambda);
    o.learner.lambda = balance * 1.01;
    const auto above = test::orDie(mech::calibrate(o, {112, 4, 3}));
    QVERIFY(above.expectedNoiseNorm < *mech::minimizerNormBound(o.learner, 3));
    QVERIFY(!mech::noiseSwampsModelWarning(o, above, 3));
    o.learner.lambda = balance * 0.99;
    QVERIFY(mech::noiseSwampsModelWarning(o, test::orDie(mech::calibrate(o, {112, 4, 3})), 3));
    // Only output perturbation adds its noise to θ itself.
    auto objective = test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, 1e-4);
    QVERIFY(!mech::noiseSwampsModelWarning(objective, test::orDie(mech::calibrate(objective, {112, 4, 3})), 3));
  }

  // Issue 32 item 4: objective and loss perturbation's noise moves the minimizer by at most
  // E‖b‖/(n·q); beyond every model's length it is named, with n, λ and ε from public numbers.
  void perturbationThatSwampsEveryModelIsNamed() {
    for (auto kind : {MechanismKind::Objective, MechanismKind::Loss}) {
      const ModelKind model = kind == MechanismKind::Loss ? ModelKind::Softmax : ModelKind::LogisticRegression;
      auto o = test::options(kind, model, 0.1, 1e-4);
      const mech::ProblemShape tiny{50, 30, 2}, large{1000000, 30, 2};
      const auto small = test::orDie(mech::calibrate(o, tiny));
      const auto warning = mech::perturbationSwampsModelWarning(o, small, tiny);
      QVERIFY2(warning && warning->find("noise swamps the model") != std::string::npos, mech::mechanismName(kind).c_str());
      // The shift it names is E‖b‖/(n·q), and q's terms are the calibration's.
      const double q = kind == MechanismKind::Objective ? 50 * (1e-4 + small.calibrated(mech::Calibrated::Delta))
                                                        : 50 * 1e-4 + small.calibrated(mech::Calibrated::Rho);
      QVERIFY(small.expectedNoiseNorm / q > *mech::minimizerNormBound(o.learner, 2));
      // A million rows: the shift falls as 1/n, no warning.
      QVERIFY(!mech::perturbationSwampsModelWarning(o, test::orDie(mech::calibrate(o, large)), large));
      // Output perturbation has its own warning, not this one.
      auto output = o;
      output.kind = MechanismKind::Output;
      QVERIFY(!mech::perturbationSwampsModelWarning(output, test::orDie(mech::calibrate(output, tiny)), tiny));
    }
  }

  // Issue 32 item 4 for LMGC (docs/algorithms.md §2.3): at Φ = 0 each row's loss is
  // ℓ₀ = (C − 1)·H_h(0); output perturbation's noise against √(2ℓ₀/λ₂), DP-LMGC's move E‖B‖/ρ
  // against √(2nℓ₀/ρ), each warning naming where the two meet.
  void lmgcNoiseThatSwampsEveryModelIsNamed() {
    auto o = test::options(MechanismKind::Output, ModelKind::Lmgc, 1.0, 1e-2);
    o.learner.huber = 0.5;
    QCOMPARE(mech::lmgcLossAtZero(o.learner, 3), 2.0);  // H_h(0) = 1 on the linear part
    LearnerSpec wide = o.learner;
    wide.huber = 2.0;
    QCOMPARE(mech::lmgcLossAtZero(wide, 3), 2.0 * 9.0 / 8.0);  // (1 + h)²/(4h)

    const mech::ProblemShape iris{112, 4, 3};
    o.lmgcStrongConvexity = 0.01;
    const auto swamped = test::orDie(mech::calibrate(o, iris));
    QVERIFY(mech::noiseSwampsModelWarning(o, swamped, 3));
    // E‖b‖ ∝ 1/λ₂ meets √(2ℓ₀/λ₂) at λ₂' = (E‖b‖·λ₂)²/(2ℓ₀).
    const double balance = std::pow(swamped.expectedNoiseNorm * 0.01, 2) / (2.0 * 2.0);
    o.lmgcStrongConvexity = balance * 1.01;
    QVERIFY(!mech::noiseSwampsModelWarning(o, test::orDie(mech::calibrate(o, iris)), 3));
    o.lmgcStrongConvexity = balance * 0.99;
    QVERIFY(mech::noiseSwampsModelWarning(o, test::orDie(mech::calibrate(o, iris)), 3));

    auto dp = test::options(MechanismKind::DpLmgc, ModelKind::Lmgc, 1.0, 1e-2);
    dp.learner.huber = 0.5;
    const auto report = test::orDie(mech::calibrate(dp, iris));
    const auto warning = mech::perturbationSwampsModelWarning(dp, report, iris);
    QVERIFY(warning && warning->find("n\u00b7\u03b5 above") != std::string::npos);
    // The move E‖B‖/ρ does not depend on ε; the bound² = 2nℓ₀/ρ grows as n·ε: they meet at
    // n·ε = nε·(move/bound)². Just above it in ε, no warning; just below, one.
    const double rho = report.calibrated(mech::Calibrated::Rho);
    const double move = report.expectedNoiseNorm / rho, bound = std::sqrt(2.0 * 112 * 2.0 / rho);
    const double meetingEpsilon = (move / bound) * (move / bound);
    for (const auto& [factor, warned] : {std::pair{1.01, false}, std::pair{0.99, true}}) {
      dp.epsilon = meetingEpsilon * factor;
      const auto at = test::orDie(mech::calibrate(dp, iris));
      QVERIFY(std::abs(at.expectedNoiseNorm / at.calibrated(mech::Calibrated::Rho) - move) < 1e-9 * move);
      QCOMPARE(mech::perturbationSwampsModelWarning(dp, at, iris).has_value(), warned);
    }
    // As published there is no ρ to bound the move with: no such warning (it has its own).
    dp.calibration = mech::Calibration::Published;
    dp.epsilon = 1.0;
    QVERIFY(!mech::perturbationSwampsModelWarning(dp, test::orDie(mech::calibrate(dp, iris)), iris));
  }

  // Core's pre-run warnings, the one list both front ends show: the swamping noise for the
  // training mechanism, a δ not below 1/n for every private plan (predictors and
  // multiparty pass no training options), none where nothing is wrong; and private tuning's
  // calibration is for candidate 1 on one of m + 1 parts.
  void preRunWarningsAndTheTunedProblem() {
    const mech::ProblemShape iris{112, 4, 3};
    auto o = test::options(MechanismKind::Output, ModelKind::LogisticRegression, 1.0, 1e-4);
    const auto swamped = mech::preRunWarnings(test::orDie(mech::calibrate(o, iris)), iris, &o);
    QCOMPARE(swamped.size(), std::size_t{1});
    QVERIFY(swamped.front().find("noise swamps the model") != std::string::npos);
    o.learner.lambda = 1.0;
    QVERIFY(mech::preRunWarnings(test::orDie(mech::calibrate(o, iris)), iris, &o).empty());
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 0.5;  // not below 1/112
    const auto doubtful = mech::preRunWarnings(test::orDie(mech::calibrate(o, iris)), iris, &o);
    QCOMPARE(doubtful.size(), std::size_t{1});
    QVERIFY(doubtful.front().find("1/n") != std::string::npos);
    QCOMPARE(mech::preRunWarnings(test::orDie(mech::calibrate(o, iris)), iris, nullptr), doubtful);
    const mech::CalibratedProblem tuned = mech::calibratedProblem(o, {0.5, 0.1, 0.01}, iris);
    QCOMPARE(tuned.shape.rows, Index{28});  // 112 / (3 + 1)
    QCOMPARE(tuned.options.learner.lambda, 0.5);
    QCOMPARE(mech::calibratedProblem(o, {}, iris).shape.rows, Index{112});
  }

  // docs/algorithms.md §3 B / issue 4: logistic (c = 1/4), n = 1000.
  void objectivePerturbationKnownAnswers() {
    auto o = test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0, 0.01);
    auto r = calibrated(o, {1000, 10, 2});
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_prime"), 0.950615, 1e-6);
    QCOMPARE(valueOf(r, "Delta"), 0.0);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), valueOf(r, "epsilon_prime") / 2, 1e-15);

    o.learner.lambda = 0.001;
    r = calibrated(o, {1000, 10, 2});
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_prime"), 0.553713, 1e-6);
    QCOMPARE(valueOf(r, "Delta"), 0.0);

    o.epsilon = 0.1;  // ε' would be negative: Δ > 0 and ε' = ε/2
    r = calibrated(o, {1000, 10, 2});
    DPSTUDIO_COMPARE_REL(valueOf(r, "Delta"), 0.0088755, 5e-6);
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_prime"), 0.05, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), 0.025, 1e-15);
    QCOMPARE(r.noiseDimension, Index(10));
  }

  void objectivePerturbationHuberAndOneVsRest() {
    auto o = test::options(MechanismKind::Objective, ModelKind::HuberSvm, 3.0, 0.01);
    o.learner.huber = 0.25;
    auto r = calibrated(o, {1000, 5, 3});
    const double c = 1.0 / (2 * 0.25), perClass = 1.0, ratio = c / (1000 * 0.01);
    QCOMPARE(valueOf(r, "c"), 2.0);
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_per_release"), perClass, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_prime"), perClass - std::log(1 + 2 * ratio + ratio * ratio), 1e-12);
  }

  void outputPerturbationKnownAnswers_data() {
    QTest::addColumn<ModelKind>("model");
    QTest::addColumn<int>("classes");
    QTest::addColumn<double>("K");
    QTest::addColumn<int>("dimension");  // of one draw, d = 4
    QTest::addColumn<int>("releases");
    QTest::newRow("logreg binary") << ModelKind::LogisticRegression << 2 << 1.0 << 4 << 1;
    QTest::newRow("huber binary") << ModelKind::HuberSvm << 2 << 1.0 << 4 << 1;
    QTest::newRow("logreg one-vs-rest") << ModelKind::LogisticRegression << 3 << 1.0 << 4 << 3;
    QTest::newRow("softmax") << ModelKind::Softmax << 3 << std::sqrt(2.0) << 12 << 1;
    QTest::newRow("lmgc") << ModelKind::Lmgc << 3 << std::sqrt(6.0) << 3 * 15 << 1;  // C(d+1)(d+2)/2
  }
  void outputPerturbationKnownAnswers() {
    QFETCH(ModelKind, model);
    QFETCH(int, classes);
    QFETCH(double, K);
    QFETCH(int, dimension);
    QFETCH(int, releases);
    const double n = 500, lambda = 0.02, lambda2 = 0.05, epsilon = 1.5;
    auto o = test::options(MechanismKind::Output, model, epsilon, lambda);
    o.lmgcStrongConvexity = lambda2;
    auto r = calibrated(o, {500, 4, classes});
    // Calibrated on Δ = 2K/(nλ) plus the a-priori distance to the exact minimizer, which
    // output_perturbation.cpp sets to 1e-4·Δ.
    const double Delta = 2 * K / (n * (model == ModelKind::Lmgc ? lambda2 : lambda)) * (1 + 1e-4);
    DPSTUDIO_COMPARE_REL(valueOf(r, "Delta"), Delta, 1e-14);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / releases / Delta, 1e-14);
    QCOMPARE(r.noiseDimension, Index(dimension));
    DPSTUDIO_COMPARE_REL(r.expectedNoiseNorm, dimension * Delta * releases / epsilon, 1e-14);
    if (releases > 1) DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_per_release"), epsilon / releases, 1e-15);

    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
    r = calibrated(o, {500, 4, classes});
    const double sigma = privacy::analyticGaussianSigma(epsilon / releases, 1e-5 / releases, Delta).value();
    DPSTUDIO_COMPARE_REL(valueOf(r, "sigma"), sigma, 1e-14);
  }

  // Regression (loss perturbation under substitution): the published β = ε/(2K) and
  // σ = (K/ε)√(…) cover add/remove only; one substitution moves the noise by 2K.
  void lossPerturbationKnownAnswers() {
    const double epsilon = 0.5, delta = 1e-6;
    auto o = test::options(MechanismKind::Loss, ModelKind::Softmax, epsilon);
    auto r = calibrated(o, {1000, 8, 4});
    const double K = std::sqrt(2.0), L = 0.5, rank = 4;  // softmax, C = 4
    DPSTUDIO_COMPARE_REL(valueOf(r, "rho"), 2 * L * rank / epsilon, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / (4 * K), 1e-15);
    QCOMPARE(r.noiseDimension, Index(32));
    // The privacy loss: Jacobian term r·L/ρ plus density term β·(2K) is at most ε.
    QVERIFY(rank * L / valueOf(r, "rho") + valueOf(r, "beta") * 2 * K <= epsilon * (1 + 1e-15));

    o.family = mech::NoiseFamily::Gaussian;
    o.delta = delta;
    r = calibrated(o, {1000, 8, 4});
    DPSTUDIO_COMPARE_REL(valueOf(r, "sigma"), (2 * K / epsilon) * std::sqrt(8 * std::log(2 / delta) + 4 * epsilon), 1e-14);

    o = test::options(MechanismKind::Loss, ModelKind::LogisticRegression, epsilon);
    r = calibrated(o, {1000, 8, 2});
    DPSTUDIO_COMPARE_REL(valueOf(r, "rho"), 2 * 0.25 * 1 / epsilon, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / 4, 1e-15);
  }

  void dpLmgcKnownAnswers() {
    const double epsilon = 2, h = 0.25;
    const int C = 3, d = 4;
    auto o = test::options(MechanismKind::DpLmgc, ModelKind::Lmgc, epsilon);
    o.learner.huber = h;
    auto r = calibrated(o, {200, d, C});
    DPSTUDIO_COMPARE_REL(valueOf(r, "rho"), C * (C - 1) / (h * epsilon), 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / (4 * std::sqrt(C * (C - 1.0))), 1e-15);
    QCOMPARE(r.noiseDimension, Index(C * (d + 1) * (d + 2) / 2));
    QVERIFY(r.warning.empty());

    o.calibration = mech::Calibration::Published;
    r = calibrated(o, {200, d, C});
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / 2, 1e-15);
    QCOMPARE(r.noiseDimension, Index((d + 1) * (d + 1)));
    QVERIFY(!r.warning.empty());
    QVERIFY(r.statement.find("does not carry a valid guarantee") != std::string::npos);
    QCOMPARE(r.calibration, std::optional<dpstudio::mech::Calibration>(dpstudio::mech::Calibration::Published));
  }

  // A mixture of M Gaussians per class (docs/algorithms.md §3 D, "Mixtures"): L = C/(2h) + ½,
  // r = (C − 1)·M, K unchanged, one noise matrix per component; the published construction
  // has no mixture and is refused.
  void dpLmgcMixtureKnownAnswers() {
    const double epsilon = 2, h = 0.25;
    const int C = 3, d = 4, M = 3;
    auto o = test::options(MechanismKind::DpLmgc, ModelKind::Lmgc, epsilon);
    o.learner.huber = h;
    o.learner.components = M;
    auto r = calibrated(o, {200, d, C});
    const double L = C / (2 * h) + 0.5, rank = (C - 1) * M;
    DPSTUDIO_COMPARE_REL(valueOf(r, "L"), L, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "r"), rank, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "rho"), 2 * L * rank / epsilon, 1e-15);
    DPSTUDIO_COMPARE_REL(valueOf(r, "beta"), epsilon / (4 * std::sqrt(C * (C - 1.0))), 1e-15);
    QCOMPARE(r.noiseDimension, Index(C * M * (d + 1) * (d + 2) / 2));

    o.calibration = mech::Calibration::Published;
    QVERIFY(!o.validate());

    // Output perturbation: the same K, the noise over every component's matrix.
    auto out = test::options(MechanismKind::Output, ModelKind::Lmgc, epsilon);
    out.learner.components = M;
    r = calibrated(out, {200, d, C});
    DPSTUDIO_COMPARE_REL(valueOf(r, "K"), std::sqrt(C * (C - 1.0)), 1e-15);
    QCOMPARE(r.noiseDimension, Index(C * M * (d + 1) * (d + 2) / 2));
  }

  // σ comes from the PLD accountant under substitution: conservative (its ε ≤ target) and
  // tight (a slightly smaller σ exceeds it), below RDP's σ; RDP's bound at that σ, larger
  // than the target, and the add/remove RDP ε are reported beside it.
  void dpSgdSigmaIsConservative() {
    auto o = test::options(MechanismKind::DpSgd, ModelKind::Softmax, 1.0);
    o.sgd.batchSize = 256;
    o.sgd.epochs = 5;
    o.sgd.stepEstimateShare = 0;  // the whole ε to the steps (the estimate's share: test_mechanism_sgd_step)
    const auto r = calibrated(o, {60000, 20, 10});
    const double sigma = valueOf(r, "noise_multiplier"), q = valueOf(r, "q");
    const auto steps = static_cast<long long>(valueOf(r, "steps"));
    QCOMPARE(steps, static_cast<long long>(std::ceil(5 / q)));
    auto pld = [&](double s) {
      return privacy::accountSampledGaussianPld({{q, s, steps}}, 1e-5, privacy::Adjacency::Substitution).value();
    };
    QVERIFY(pld(sigma).epsilon <= 1.0);
    QVERIFY(pld(sigma * (1 - 1e-5)).epsilon > 1.0);
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_accounted"), pld(sigma).epsilon, 1e-12);
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_error"), pld(sigma).errorBound, 1e-12);
    QVERIFY(valueOf(r, "epsilon_error") > 0 && valueOf(r, "epsilon_error") < 1e-3);
    QCOMPARE(valueOf(r, "pld_discretization"), 1e-4);
    const auto rdp = mech::accountSubstitution(q, sigma, steps, 1e-5).value();
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_rdp"), rdp.epsilon, 1e-12);
    QVERIFY(rdp.epsilon > 1.0);
    QVERIFY(sigma < mech::calibrateSubstitution(q, steps, 1e-5, 1.0).value().sigma);
    const auto addRemove = privacy::accountSampledGaussian({{q, sigma, steps}}, 1e-5).value();
    DPSTUDIO_COMPARE_REL(valueOf(r, "epsilon_add_remove"), addRemove.improved.epsilon, 1e-12);
    QVERIFY2(r.statement.find("by the PLD accountant") != std::string::npos, r.statement.c_str());

    o.sgd.noiseMultiplier = 2.0;  // given σ: the report's ε is what it buys
    const auto given = calibrated(o, {60000, 20, 10});
    DPSTUDIO_COMPARE_REL(given.epsilon, pld(2.0).epsilon, 1e-14);
    DPSTUDIO_COMPARE_REL(valueOf(given, "epsilon_rdp"), mech::accountSubstitution(q, 2.0, steps, 1e-5).value().epsilon,
                         1e-14);
  }

  // A noise multiplier so small that the PLD grid cannot hold its losses (σ = 0.002: losses
  // in the hundreds of thousands): the RDP bound stands in, and the report says so.
  void dpSgdFallsBackToRdpWhereThePldGridCannotGo() {
    auto o = test::options(MechanismKind::DpSgd, ModelKind::Softmax, 1.0);
    o.sgd.noiseMultiplier = 0.002;
    o.sgd.stepEstimateShare = 0;
    const auto r = calibrated(o, {1000, 5, 2});
    QCOMPARE(r.epsilon, valueOf(r, "epsilon_rdp"));
    QVERIFY(!r.value("epsilon_error"));
    QVERIFY2(r.statement.find("by the RDP accountant") != std::string::npos, r.statement.c_str());
  }

  // Without subsampling the substitution bound is exact: the Gaussian of sensitivity 2ν,
  // i.e. the add/remove curve at σ/2. With subsampling it is above the add/remove ε.
  void substitutionAccountant() {
    const auto exact = mech::accountSubstitution(1.0, 3.0, 10, 1e-5).value();
    const auto half = privacy::accountSampledGaussian({{1.0, 1.5, 10}}, 1e-5).value();
    DPSTUDIO_COMPARE_REL(exact.epsilon, half.improved.epsilon, 1e-12);
    const auto sampled = mech::accountSubstitution(0.01, 1.1, 1000, 1e-5).value();
    QVERIFY(sampled.epsilon > sampled.epsilonAddRemove);
    QVERIFY(sampled.epsilonClassic >= sampled.epsilon);
    QVERIFY(!mech::accountSubstitution(0.0, 1, 1, 1e-5));
    QCOMPARE(mech::calibrateSubstitution(0.01, 100, 1e-5, -1).error().field, std::string("target_epsilon"));

    // Several events add their curves order by order: a split run is the whole run, and
    // different events compose to more than either; a shared σ is calibrated for them.
    const auto whole = mech::accountSubstitution(0.01, 1.1, 1000, 1e-5).value();
    const auto split = mech::accountSubstitution({{0.01, 1.1, 400}, {0.01, 1.1, 600}}, 1e-5).value();
    DPSTUDIO_COMPARE_REL(split.epsilon, whole.epsilon, 1e-12);
    DPSTUDIO_COMPARE_REL(split.epsilonAddRemove, whole.epsilonAddRemove, 1e-12);
    const auto mixed = mech::accountSubstitution({{0.01, 1.1, 1000}, {1.0, 5.0, 3}}, 1e-5).value();
    QVERIFY(mixed.epsilon > whole.epsilon);
    const auto shared = mech::calibrateSubstitution({{0.01, 0, 1000}, {1.0, 0, 3}}, 1e-5, 2.0).value();
    QVERIFY(shared.account.epsilon <= 2.0);
    QVERIFY(mech::accountSubstitution({{0.01, shared.sigma * (1 - 1e-6), 1000}, {1.0, shared.sigma * (1 - 1e-6), 3}},
                                      1e-5).value().epsilon > 2.0);
    QVERIFY(mech::accountSubstitution({{0.01, 1, 10}, {0.01, -1, 10}}, 1e-5).error().message.find("event 2") !=
            std::string::npos);
  }

  void invalidOptionsAreRejectedBeforeAnyWork_data() {
    QTest::addColumn<Mutator>("mutate");
    QTest::addColumn<QString>("field");
    using O = mech::MechanismOptions;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("epsilon zero") << Mutator([](O& o) { o.epsilon = 0; }) << "epsilon";
    QTest::newRow("epsilon negative") << Mutator([](O& o) { o.epsilon = -1; }) << "epsilon";
    QTest::newRow("epsilon NaN") << Mutator([=](O& o) { o.epsilon = nan; }) << "epsilon";
    QTest::newRow("epsilon infinite") << Mutator([](O& o) { o.epsilon = HUGE_VAL; }) << "epsilon";
    QTest::newRow("delta one") << Mutator([](O& o) { o.delta = 1; }) << "delta";
    QTest::newRow("delta NaN") << Mutator([=](O& o) { o.delta = nan; }) << "delta";
    QTest::newRow("gaussian without delta")
        << Mutator([](O& o) { o.kind = MechanismKind::Output; o.family = mech::NoiseFamily::Gaussian; }) << "delta";
    QTest::newRow("dpsgd without delta")
        << Mutator([](O& o) { o.kind = MechanismKind::DpSgd; o.learner.kind = ModelKind::Softmax; o.delta = 0; })
        << "delta";
    QTest::newRow("objective on softmax") << Mutator([](O& o) { o.learner.kind = ModelKind::Softmax; }) << "mechanism";
    QTest::newRow("objective on lmgc") << Mutator([](O& o) { o.learner.kind = ModelKind::Lmgc; }) << "mechanism";
    QTest::newRow("dplmgc on logreg") << Mutator([](O& o) { o.kind = MechanismKind::DpLmgc; }) << "mechanism";
    QTest::newRow("published output")
        << Mutator([](O& o) { o.kind = MechanismKind::Output; o.calibration = mech::Calibration::Published; })
        << "calibration";
    QTest::newRow("published objective")
        << Mutator([](O& o) { o.calibration = mech::Calibration::Published; }) << "calibration";
    QTest::newRow("lambda zero") << Mutator([](O& o) { o.learner.lambda = 0; }) << "lambda";
  }
  void invalidOptionsAreRejectedBeforeAnyWork() {
    QFETCH(Mutator, mutate);
    QFETCH(QString, field);
    auto o = test::options(MechanismKind::Objective, ModelKind::LogisticRegression, 1.0);
    mutate(o);
    const auto data = test::blobs(2, true, 20);
    auto status = o.validate();
    QVERIFY(!status);
    // A model setting out of range is a usage error (exit 2), a privacy parameter or a
    // mechanism that cannot run with them a privacy error (exit 4): docs/cli.md.
    QCOMPARE(status.error().kind, field == "lambda" ? ErrorKind::Usage : ErrorKind::InvalidPrivacy);
    QCOMPARE(QString::fromStdString(status.error().field), field);
    QVERIFY(!mech::calibrate(o, {100, 3, 2}));

    // trainPrivately refuses with the same error and draws nothing from the source.
    privacy::ExperimentNoise noise(5), fresh(5);
    bool progressed = false;
    TrainControl control;
    control.progress = Progress([&](double) { progressed = true; });
    auto trained = mech::trainPrivately(o, data.train, noise, control);
    QVERIFY(!trained);
    QCOMPARE(QString::fromStdString(trained.error().field), field);
    QCOMPARE(noise.nextU64(), fresh.nextU64());
    QVERIFY(!progressed);
  }

  void rowsOutsideTheUnitBallAreRefused() {
    auto data = test::blobs(2, true, 20);
    data.train.X.row(3) *= 2.0;  // as if no norm bound had been declared
    for (auto kind : {MechanismKind::Output, MechanismKind::Objective, MechanismKind::Loss}) {
      privacy::ExperimentNoise noise(5), fresh(5);
      auto trained = mech::trainPrivately(test::options(kind, ModelKind::LogisticRegression, 1.0), data.train, noise);
      QVERIFY(!trained);
      QCOMPARE(trained.error().kind, ErrorKind::InvalidPrivacy);
      QCOMPARE(trained.error().field, std::string("norm-bound"));
      QCOMPARE(noise.nextU64(), fresh.nextU64());
    }
  }
};

QTEST_GUILESS_MAIN(TestMechanismCalibration)
#include "test_mechanism_calibration.moc"
