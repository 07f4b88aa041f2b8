// Calibration known answers for private prediction and multiparty aggregation (docs/algorithms.md
// §3 F, G, I), each computed by hand in the test, and the validation of the options.

#include <QList>
#include <QTest>

#include <cmath>

#include "core/prediction/multiparty_options.h"
#include "core/prediction/prediction_options.h"
#include "core/privacy/composition.h"
#include "core/privacy/gaussian.h"
#include "core/privacy/validation.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"

using namespace dpstudio;
using predict::PredictionKind;

namespace {

mech::MechanismReport calibrated(const predict::PredictionOptions& o, Index n, Index d, Index C) {
  return test::orDie(predict::calibratePrediction(o, {n, d, C}));
}

// The per-answer ε* of advanced composition with δ' = δ, δ* = 0, by bisection on the exact
// formula √(2B ln(1/δ))ε* + Bε*(e^{ε*} − 1)/2 = ε — written here independently of core.
double advancedPerAnswerByHand(double epsilon, double delta, double B) {
  double lo = 0, hi = epsilon;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    const double composed = std::sqrt(2 * B * std::log(1 / delta)) * mid + B * mid * std::expm1(mid) / 2;
    (composed <= epsilon ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

class TestPredictionCalibration : public QObject {
  Q_OBJECT

 private slots:
  // F, δ = 0: β = nλε/(2KB).
  void predictionSensitivityBeta_data() {
    QTest::addColumn<int>("model");
    QTest::addColumn<int>("classes");
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("lambda");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("budget");
    QTest::addColumn<double>("K");
    QTest::addColumn<int>("dimension");
    QTest::newRow("softmax C=3") << int(ModelKind::Softmax) << 3 << 1000.0 << 0.01 << 2.0 << 50.0 << std::sqrt(2.0) << 3;
    QTest::newRow("binary logreg") << int(ModelKind::LogisticRegression) << 2 << 500.0 << 0.1 << 1.0 << 10.0 << 1.0 << 1;
    QTest::newRow("huber one-vs-rest C=4") << int(ModelKind::HuberSvm) << 4 << 2000.0 << 1e-3 << 5.0 << 100.0 << 2.0 << 4;
  }
  void predictionSensitivityBeta() {
    QFETCH(int, model);
    QFETCH(int, classes);
    QFETCH(double, n);
    QFETCH(double, lambda);
    QFETCH(double, epsilon);
    QFETCH(double, budget);
    QFETCH(double, K);
    QFETCH(int, dimension);
    const auto o = test::sensitivityOptions(ModelKind(model), epsilon, static_cast<long long>(budget), lambda);
    const auto r = calibrated(o, static_cast<Index>(n), 5, classes);
    // Δ = 2K/(nλ) plus 1e-4 of it for the distance to the exact minimizer that the gradient
    // tolerance τ allows: ‖θ − θ*‖ ≤ τ/λ per problem (one-vs-rest: C problems, √C of them).
    const double exactDelta = 2 * K / (n * lambda);
    const double beta = n * lambda * epsilon / (2 * K * budget) / (1 + 1e-4);
    DPSTUDIO_COMPARE_REL(*r.value("beta"), beta, 1e-14);
    DPSTUDIO_COMPARE_REL(*r.value("Delta"), exactDelta * (1 + 1e-4), 1e-14);
    const double problems = (ModelKind(model) != ModelKind::Softmax && classes > 2) ? classes : 1;
    DPSTUDIO_COMPARE_REL(*r.value("gradient_tolerance"), 1e-4 * exactDelta / std::sqrt(problems) * lambda / 2, 1e-13);
    DPSTUDIO_COMPARE_REL(*r.value("epsilon_per_answer"), epsilon / budget, 1e-15);
    QCOMPARE(r.noiseDimension, Index(dimension));
    DPSTUDIO_COMPARE_REL(r.expectedNoiseNorm, dimension / beta, 1e-14);
    QCOMPARE(r.mechanism, std::string("prediction"));
    QVERIFY(r.warning.empty());
    QVERIFY(r.statement.find("answer " + std::to_string(static_cast<long long>(budget) + 1) + " is refused") !=
            std::string::npos);
  }

  // Softmax, n = 1000, λ = 0.01, ε = 2, B = 50: β = 20/(100√2)/(1 + 1e-4) = 0.1414072155...
  void predictionSensitivityBetaWorkedExample() {
    const auto r = calibrated(test::sensitivityOptions(ModelKind::Softmax, 2.0, 50, 0.01), 1000, 10, 3);
    DPSTUDIO_COMPARE_REL(*r.value("beta"), 0.14142135623730950488 / 1.0001, 1e-14);
  }

  // F, δ > 0: σ = min(σ(ε/B, δ/B, Δ), min over δ' of σ(ε*, δ*, Δ)), the rule that won named.
  void predictionSensitivityGaussian() {
    auto o = test::sensitivityOptions(ModelKind::Softmax, 1.0, 100, 0.01);
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
    const auto r = calibrated(o, 60000, 100, 10);
    const double Delta = 2 * std::sqrt(2.0) / (60000 * 0.01) * (1 + 1e-4);
    const double basic = test::orDie(privacy::analyticGaussianSigma(1.0 / 100, 1e-5 / 100, Delta));
    DPSTUDIO_COMPARE_REL(*r.value("sigma_basic"), basic, 1e-14);
    QCOMPARE(*r.value("sigma"), std::min(*r.value("sigma_basic"), *r.value("sigma_advanced")));
    const auto expected = test::orDie(privacy::gaussianPerAnswer({1.0, 1e-5}, 100, Delta));
    DPSTUDIO_COMPARE_REL(*r.value("sigma"), expected.sigma, 1e-15);
    // B = 100 is where advanced composition wins (paper 003 Fig. 3): ε* > ε/B.
    QCOMPARE(expected.rule, std::string("advanced"));
    QVERIFY(*r.value("epsilon_per_answer") > 0.01);
    QVERIFY(r.statement.rfind("(1, 1e-05)-DP", 0) == 0);
  }

  // F as published with Gaussian noise and advanced composition: eq. 51 overspends, and the
  // report says by how much.
  void predictionSensitivityPublishedGaussianWarns() {
    auto o = test::sensitivityOptions(ModelKind::Softmax, 1.0, 100, 0.01);
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
    o.calibration = mech::Calibration::Published;
    const auto r = calibrated(o, 60000, 100, 10);
    QVERIFY(r.value("epsilon_actual").has_value());
    QVERIFY(*r.value("epsilon_actual") > 1.0);
    QVERIFY(r.warning.find("eq. 51") != std::string::npos);
    QVERIFY(r.statement.rfind("as published, NOT", 0) == 0);
  }

  // The advanced-composition per-answer ε* for ε = 1, δ = 1e-5, B = 100: published (eq. 51)
  // 0.0204058512880671, exact root 0.0204015786390898 (both by 30-digit arithmetic), and
  // the independent bisection above agrees.
  void advancedCompositionPerAnswer() {
    const double L = std::log(1e5);
    const double published = std::sqrt(2.0 / 100) * (std::sqrt(L + 1) - std::sqrt(L));
    DPSTUDIO_COMPARE_REL(published, 0.0204058512880670877, 1e-12);
    DPSTUDIO_COMPARE_REL(advancedPerAnswerByHand(1, 1e-5, 100), 0.0204015786390897877, 1e-12);
    const auto exact = test::orDie(privacy::epsilonPerAnswer({1.0, 1e-5}, 100));
    DPSTUDIO_COMPARE_REL(exact.epsilon, 0.0204015786390897877, 1e-12);
    QCOMPARE(exact.rule, std::string("advanced"));
    const auto asPublished = test::orDie(privacy::epsilonPerAnswer({1.0, 1e-5}, 100, privacy::PerUseSolve::AsPublished));
    DPSTUDIO_COMPARE_REL(asPublished.epsilon, published, 1e-13);
  }

  // G: corrected β = ε*/2, published β = ε/B or Thm 8's max.
  void subsampleBeta_data() {
    QTest::addColumn<int>("calibration");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<double>("budget");
    QTest::addColumn<double>("beta");
    QTest::addColumn<QString>("rule");
    const double L5 = std::log(1e5);
    QTest::newRow("corrected delta=0") << int(mech::Calibration::Corrected) << 1.0 << 0.0 << 100.0 << 1.0 / 200 << "basic";
    QTest::newRow("published delta=0") << int(mech::Calibration::Published) << 1.0 << 0.0 << 100.0 << 1.0 / 100 << "basic";
    QTest::newRow("corrected delta>0, advanced wins")
        << int(mech::Calibration::Corrected) << 1.0 << 1e-5 << 100.0 << 0.0204015786390897877 / 2 << "advanced";
    QTest::newRow("published delta>0, Thm 8")
        << int(mech::Calibration::Published) << 1.0 << 1e-5 << 100.0
        << std::sqrt(2.0 / 100) * (std::sqrt(L5 + 1) - std::sqrt(L5)) << "advanced";
    // ε = 3, δ = 1e-6, B = 20: ε/B = 0.15 beats the advanced 0.12099657394930837.
    QTest::newRow("corrected delta>0, basic wins") << int(mech::Calibration::Corrected) << 3.0 << 1e-6 << 20.0 << 0.075 << "basic";
    QTest::newRow("published delta>0, eps/B wins") << int(mech::Calibration::Published) << 3.0 << 1e-6 << 20.0 << 0.15 << "basic";
  }
  void subsampleBeta() {
    QFETCH(int, calibration);
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(double, budget);
    QFETCH(double, beta);
    QFETCH(QString, rule);
    auto o = test::subsampleOptions(ModelKind::Softmax, epsilon, static_cast<long long>(budget), 256);
    o.delta = delta;
    o.calibration = mech::Calibration(calibration);
    const auto r = calibrated(o, 60000, 100, 10);
    DPSTUDIO_COMPARE_REL(*r.value("beta"), beta, 1e-11);
    QCOMPARE(*r.value("teachers"), 256.0);
    QCOMPARE(*r.value("part_rows"), double(60000 / 256));
    const bool published = o.calibration == mech::Calibration::Published;
    QCOMPARE(!r.warning.empty(), published);
    if (published) {
      // What really holds: each answer is 2β-DP; with δ = 0, 2ε in total.
      if (delta == 0) DPSTUDIO_COMPARE_REL(*r.value("epsilon_actual"), 2 * epsilon, 1e-14);
      QVERIFY(*r.value("epsilon_actual") > epsilon);
      QVERIFY(r.warning.find("2β") != std::string::npos);
    } else {
      QVERIFY(r.statement.find(rule.toStdString() + " composition") != std::string::npos);
    }
  }

  // Issue 32 item 4: subsample-and-aggregate is warned about from its calibration alone —
  // teachers with fewer rows than features, and votes the noise outweighs (a unanimous vote
  // returned with probability e^{βT}/(e^{βT} + C − 1) below 0.9).
  void subsampleWarnsWhenItsAnswersAreNoise() {
    // MNIST-sized, T = 256, B = 100, ε = 1: β = 0.005, βT = 1.28 → a unanimous vote of ten
    // classes comes back with probability 1/(1 + 9e^{−1.28}) ≈ 0.28; 234 rows ≥ 100 features.
    auto o = test::subsampleOptions(ModelKind::Softmax, 1.0, 100, 256);
    const auto noisy = calibrated(o, 60000, 100, 10);
    const auto warnings = predict::predictionWarnings(o, noisy, {60000, 100, 10});
    QCOMPARE(warnings.size(), std::size_t{1});
    QVERIFY2(warnings[0].find("mostly noise") != std::string::npos, warnings[0].c_str());
    QVERIFY2(warnings[0].find(privacy::formatNumber(1.0 / (1.0 + 9.0 * std::exp(-0.005 * 256)))) != std::string::npos,
             warnings[0].c_str());
    // ε = 100, B = 1: β = 50, every vote decides; 60 rows per teacher for 100 features does not.
    auto loud = test::subsampleOptions(ModelKind::Softmax, 100.0, 1, 1000);
    const auto few = predict::predictionWarnings(loud, calibrated(loud, 60000, 100, 10), {60000, 100, 10});
    QCOMPARE(few.size(), std::size_t{1});
    QVERIFY2(few[0].find("fewer than the 100 features") != std::string::npos, few[0].c_str());
    // Prediction sensitivity on MNIST's size: E‖b‖ ≈ 4.7 < √(2 ln 10/λ) ≈ 21.5, no warning.
    const auto mnist = test::sensitivityOptions(ModelKind::Softmax, 1.0, 100);
    QVERIFY(predict::predictionWarnings(mnist, calibrated(mnist, 60000, 100, 10), {60000, 100, 10}).empty());
  }

  // F warns when its noise outweighs every score vector a model can give: E‖b‖ > √(2ℓ(0)/λ),
  // and names the λ where the two meet — just above it the warning goes, just below it stays.
  void sensitivityWarnsWhenItsNoiseOutweighsEveryScore() {
    const mech::ProblemShape shape{4800, 36, 6};
    auto o = test::sensitivityOptions(ModelKind::Softmax, 1.0, 100, 1e-4);
    const auto report = calibrated(o, shape.rows, shape.features, shape.classes);
    const double bound = std::sqrt(2.0 * std::log(6.0) / 1e-4);
    QVERIFY(report.expectedNoiseNorm > 10 * bound);
    const auto warnings = predict::predictionWarnings(o, report, shape);
    QCOMPARE(warnings.size(), std::size_t{1});
    QVERIFY2(warnings[0].find("mostly noise") != std::string::npos, warnings[0].c_str());
    QVERIFY2(warnings[0].find(privacy::formatNumber(bound)) != std::string::npos, warnings[0].c_str());
    // E‖b‖·λ is constant in λ, so the noise meets the bound at λ' = (E‖b‖·λ)²/(2 ln 6).
    const double balance = std::pow(report.expectedNoiseNorm * 1e-4, 2) / (2.0 * std::log(6.0));
    QVERIFY2(warnings[0].find(privacy::formatNumber(balance)) != std::string::npos, warnings[0].c_str());
    o.learner.lambda = balance * 1.01;
    QVERIFY(predict::predictionWarnings(o, calibrated(o, shape.rows, shape.features, shape.classes), shape).empty());
    o.learner.lambda = balance * 0.99;
    QCOMPARE(predict::predictionWarnings(o, calibrated(o, shape.rows, shape.features, shape.classes), shape).size(),
             std::size_t{1});
    // Gaussian noise at δ > 0 is judged the same way (its E‖b‖ also scales as 1/λ).
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-6;
    o.learner.lambda = 1e-4;
    QCOMPARE(predict::predictionWarnings(o, calibrated(o, shape.rows, shape.features, shape.classes), shape).size(),
             std::size_t{1});
  }

  // I warns when its noise is longer than any party's model: ‖ŵ_j‖ ≤ √(ln 2/λ) (logistic,
  // λ‖w‖²), and names the λ where the two meet.
  void multipartyWarnsWhenItsNoiseOutweighsEveryModel() {
    multiparty::MultipartyOptions o;
    o.parties = 5;
    o.lambda = 1e-4;
    o.epsilon = 0.5;
    const auto report = test::orDie(multiparty::calibrateMultiparty(o, 200, 30));
    const double bound = std::sqrt(std::log(2.0) / 1e-4);
    QVERIFY(report.expectedNoiseNorm > bound);
    const auto warnings = multiparty::multipartyWarnings(o, report);
    QCOMPARE(warnings.size(), std::size_t{1});
    QVERIFY2(warnings[0].find(privacy::formatNumber(bound)) != std::string::npos, warnings[0].c_str());
    const double balance = std::pow(report.expectedNoiseNorm * 1e-4, 2) / std::log(2.0);
    QVERIFY2(warnings[0].find(privacy::formatNumber(balance)) != std::string::npos, warnings[0].c_str());
    o.lambda = balance * 1.01;
    QVERIFY(multiparty::multipartyWarnings(o, test::orDie(multiparty::calibrateMultiparty(o, 200, 30))).empty());
    o.lambda = balance * 0.99;
    QCOMPARE(multiparty::multipartyWarnings(o, test::orDie(multiparty::calibrateMultiparty(o, 200, 30))).size(),
             std::size_t{1});
    // Paper 004's own setting (λ = 1, parties of ~6 500 rows) is far from it.
    o.lambda = 1.0;
    QVERIFY(multiparty::multipartyWarnings(o, test::orDie(multiparty::calibrateMultiparty(o, 6512, 123))).empty());
  }

  // I: Δ = (1/(K·n₍₁₎·λ))·(1 + 1e-4), β = ε/Δ; as published b = 2/(n₍₁₎ελ); Theorem 4.2's (K−1)/(n₍₁₎λ).
  void multipartyCalibration() {
    multiparty::MultipartyOptions o;
    o.parties = 5;
    o.lambda = 0.5;
    o.epsilon = 0.2;
    const auto r = test::orDie(multiparty::calibrateMultiparty(o, 6512, 123));
    // The local models are within τ = 1e-4/n₍₁₎ of their minimizers (2λ-strongly convex):
    // Δ grows by 2τ/(2λ·K) = 1e-4 of itself.
    DPSTUDIO_COMPARE_REL(*r.value("gradient_tolerance"), 1e-4 / 6512, 1e-13);
    DPSTUDIO_COMPARE_REL(*r.value("Delta"), 1.0 / (5 * 6512 * 0.5) * (1 + 1e-4), 1e-14);
    DPSTUDIO_COMPARE_REL(*r.value("beta"), 0.2 * 5 * 6512 * 0.5 / (1 + 1e-4), 1e-14);
    DPSTUDIO_COMPARE_REL(*r.value("theorem_4_2_bound"), 4.0 / (6512 * 0.5), 1e-15);
    QVERIFY(r.noise == dpstudio::mech::NoiseLaw::L2Laplace);
    QVERIFY(r.warning.empty());
    o.calibration = mech::Calibration::Published;
    const auto p = test::orDie(multiparty::calibrateMultiparty(o, 6512, 123));
    DPSTUDIO_COMPARE_REL(*p.value("laplace_scale"), 2.0 / (6512 * 0.2 * 0.5), 1e-15);
    // What can be proven: ε√d(1 + 1e-4)/(2K) = 0.2·√123·1.0001/10 > 0.2.
    DPSTUDIO_COMPARE_REL(*p.value("epsilon_provable"), 0.2 * std::sqrt(123.0) * (1 + 1e-4) / 10, 1e-14);
    QVERIFY(p.warning.find("ℓ1") != std::string::npos);
    QVERIFY(p.statement.rfind("as published, NOT", 0) == 0);
  }

  // Issue 13 bug 4: the as-published ε that can be proven must include the (1 + 1e-4) slack
  // of the exact-minimizer tolerance, as the corrected Δ does. Known answer: K = 5,
  // n₍₁₎ = 6512, λ = 0.5, ε = 0.2, d = 123: 0.2·√123·1.0001/10 = 0.22183291…
  void multipartyEpsilonProvableIncludesTheMinimizerSlack() {
    multiparty::MultipartyOptions o;
    o.parties = 5;
    o.lambda = 0.5;
    o.epsilon = 0.2;
    o.calibration = mech::Calibration::Published;
    const auto p = test::orDie(multiparty::calibrateMultiparty(o, 6512, 123));
    DPSTUDIO_COMPARE_REL(*p.value("epsilon_provable"), 0.22183291, 1e-8);
    // The same ℓ1 bound from the corrected calibration's Δ₂: √d·Δ₂/b.
    o.calibration = mech::Calibration::Corrected;
    const auto c = test::orDie(multiparty::calibrateMultiparty(o, 6512, 123));
    DPSTUDIO_COMPARE_REL(*p.value("epsilon_provable"), std::sqrt(123.0) * *c.value("Delta") / *p.value("laplace_scale"),
                         1e-14);
  }

  // Paper 004's three splits of a9a's 32 561 training rows.
  void partySizesOfPaper004_data() {
    QTest::addColumn<QList<double>>("fractions");
    QTest::addColumn<QList<qint64>>("sizes");
    QTest::newRow("even") << QList<double>{} << QList<qint64>{6513, 6512, 6512, 6512, 6512};
    QTest::newRow("15/20/20/20/25") << QList<double>{0.15, 0.2, 0.2, 0.2, 0.25}
                                    << QList<qint64>{4884, 6512, 6512, 6512, 8141};
    QTest::newRow("10/20/20/20/30") << QList<double>{0.1, 0.2, 0.2, 0.2, 0.3}
                                    << QList<qint64>{3256, 6512, 6512, 6512, 9769};
  }
  void partySizesOfPaper004() {
    QFETCH(QList<double>, fractions);
    QFETCH(QList<qint64>, sizes);
    multiparty::MultipartyOptions o;
    o.parties = 5;
    o.fractions.assign(fractions.begin(), fractions.end());
    const auto got = test::orDie(multiparty::partySizes(32561, o));
    QCOMPARE(QList<qint64>(got.begin(), got.end()), sizes);
  }

  void validationNamesTheParameter_data() {
    QTest::addColumn<QString>("field");
    QTest::newRow("lmgc has no prediction sensitivity") << "model";
    QTest::newRow("gaussian needs delta") << "delta";
    QTest::newRow("budget") << "budget";
    QTest::newRow("teachers exceed rows") << "teachers";
    QTest::newRow("fractions must sum to 1") << "party-split";
  }
  void validationNamesTheParameter() {
    QFETCH(QString, field);
    const std::string tag = QTest::currentDataTag();
    Error error;
    if (tag.rfind("lmgc", 0) == 0) {
      error = predict::calibratePrediction(test::sensitivityOptions(ModelKind::Lmgc, 1, 10), {100, 2, 2}).error();
    } else if (tag.rfind("gaussian", 0) == 0) {
      auto o = test::sensitivityOptions(ModelKind::Softmax, 1, 10);
      o.family = mech::NoiseFamily::Gaussian;
      error = predict::calibratePrediction(o, {100, 2, 2}).error();
    } else if (tag == "budget") {
      error = predict::calibratePrediction(test::sensitivityOptions(ModelKind::Softmax, 1, 0), {100, 2, 2}).error();
    } else if (tag.rfind("teachers", 0) == 0) {
      error = predict::calibratePrediction(test::subsampleOptions(ModelKind::Softmax, 1, 10, 300), {100, 2, 2}).error();
    } else {
      multiparty::MultipartyOptions o;
      o.fractions = {0.5, 0.4};
      error = multiparty::partySizes(100, o).error();
    }
    QCOMPARE(QString::fromStdString(error.field), field);
    QCOMPARE(error.kind, ErrorKind::InvalidPrivacy);
  }
};

QTEST_GUILESS_MAIN(TestPredictionCalibration)
#include "test_prediction_calibration.moc"
