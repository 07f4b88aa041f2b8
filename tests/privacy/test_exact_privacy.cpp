// The exact trade-off curves of core/privacy/exact_privacy.h against closed forms: a privacy
// profile's envelope against μ-GDP's curve, the PLD accountant's profile of unsampled
// Gaussian steps against μ-GDP of their composition, and the mechanisms' curves inside the
// (ε, δ) region they claim, touching it where their σ is calibrated exactly.
#include <QTest>

#include <algorithm>
#include <cmath>

#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/pre_run_warnings.h"
#include "core/prediction/prediction_options.h"
#include "core/privacy/exact_privacy.h"
#include "core/privacy/gaussian.h"

using namespace dpstudio;
using privacy::TradeOffPoint;

namespace {

constexpr int kPoints = 201;

// The largest |a − b| over the curve, and the largest amount by which `curve` exceeds `bound`.
struct Gap {
  double largest = 0;
  double above = -1;
};
template <typename Bound>
Gap compare(const std::vector<TradeOffPoint>& curve, const Bound& bound) {
  Gap gap;
  for (const TradeOffPoint& p : curve) {
    const double b = bound(p.falsePositive);
    gap.largest = std::max(gap.largest, std::abs(p.falseNegative - b));
    gap.above = std::max(gap.above, p.falseNegative - b);
  }
  return gap;
}

double gdp(double mu, double alpha) { return privacy::gaussianMinFalseNegative(mu, alpha).value(); }
double claimed(double epsilon, double delta, double alpha) {
  return privacy::epsilonDeltaMinFalseNegative(epsilon, delta, alpha).value();
}

// How close a curve comes to the (ε, δ) boundary where that boundary is away from 0 (at
// α → 1 − δ every curve meets it at β = 0, and at α = 0 the curves start within δ of it); negative if it crosses into the forbidden region.
double closestApproach(const std::vector<TradeOffPoint>& curve, double epsilon, double delta) {
  double closest = 1;
  for (const TradeOffPoint& p : curve) {
    const double bound = claimed(epsilon, delta, p.falsePositive);
    if (p.falsePositive >= 0.01 && bound > 0.02) closest = std::min(closest, p.falseNegative - bound);
  }
  return closest;
}

}  // namespace

class TestExactPrivacy : public QObject {
  Q_OBJECT

 private slots:
  void gaussianProfileEnvelopeIsTheGdpCurve() {
    // δ(ε) of the Gaussian mechanism with Δ/σ = μ at a fine grid: its lines' envelope is
    // μ-GDP's curve from below, within the grid's error.
    for (const double mu : {0.5, 1.0, 3.0}) {
      std::vector<double> epsilons, deltas;
      for (int k = 0; k <= 400; ++k) {
        epsilons.push_back(0.001 + 0.05 * k);
        deltas.push_back(privacy::gaussianDelta(1.0, epsilons.back(), mu).value());
      }
      auto curve = privacy::profileTradeOffCurve(epsilons, deltas, kPoints);
      QVERIFY(curve);
      const Gap gap = compare(curve.value(), [mu](double a) { return gdp(mu, a); });
      QVERIFY2(gap.above <= 1e-9, qPrintable(QString::number(gap.above)));
      QVERIFY2(gap.largest < 2e-3, qPrintable(QString::number(gap.largest)));
    }
    // One pair is that pair's boundary; mismatched or empty input is refused.
    auto one = privacy::profileTradeOffCurve({1.0}, {1e-3}, 11);
    QVERIFY(one);
    for (const TradeOffPoint& p : one.value()) QCOMPARE(p.falseNegative, claimed(1.0, 1e-3, p.falsePositive));
    QVERIFY(!privacy::profileTradeOffCurve({1.0, 2.0}, {1e-3}, 11));
    QVERIFY(!privacy::profileTradeOffCurve({}, {}, 11));
  }

  void pldProfileOfUnsampledStepsIsTheirGdp() {
    // q = 1: T Gaussian steps of σ under substitution (sensitivity 2) compose to μ = 2√T/σ.
    const double sigma = 4.0;
    const long long steps = 4;
    privacy::ExactPrivacy exact;
    exact.sampledGaussian = {privacy::SgmEvent{1.0, sigma, steps}};
    auto curve = privacy::exactTradeOffCurve(exact, kPoints);
    QVERIFY(curve && curve.value());
    const double mu = 2.0 * std::sqrt(static_cast<double>(steps)) / sigma;
    const Gap gap = compare(*curve.value(), [mu](double a) { return gdp(mu, a); });
    QVERIFY2(gap.above <= 1e-6, qPrintable(QString::number(gap.above)));
    QVERIFY2(gap.largest < 5e-3, qPrintable(QString::number(gap.largest)));
    // A pure ε₀ step before them moves every line by ε₀: the curve can only fall.
    exact.pureEpsilon = 0.5;
    auto shifted = privacy::exactTradeOffCurve(exact, kPoints);
    QVERIFY(shifted && shifted.value());
    for (std::size_t k = 0; k < shifted.value()->size(); ++k)
      QVERIFY((*shifted.value())[k].falseNegative <= (*curve.value())[k].falseNegative + 1e-12);
    QVERIFY(!privacy::exactTradeOffCurve({}, kPoints).value());  // nothing known beyond (ε, δ)
  }

  void gaussianOutputPerturbationTouchesItsClaim() {
    // One release, σ the analytic Gaussian's for (ε, δ): μ-GDP's curve lies in the claimed
    // region and touches its boundary (δ(ε) = δ exactly). One-vs-rest's C releases at ε/C
    // each compose to a curve strictly inside (basic composition is loose).
    mech::MechanismOptions o;
    o.kind = mech::MechanismKind::Output;
    o.learner = LearnerSpec{ModelKind::LogisticRegression, 1e-2, 0.5};
    o.family = mech::NoiseFamily::Gaussian;
    o.epsilon = 1.0;
    o.delta = 1e-5;
    auto report = mech::calibrate(o, {1000, 10, 2});
    QVERIFY(report && report.value().exactPrivacy && report.value().exactPrivacy->gaussianMu);
    const double mu = *report.value().exactPrivacy->gaussianMu;
    QCOMPARE(mu, report.value().calibrated(mech::Calibrated::Delta) / report.value().noiseScale());
    auto curve = privacy::exactTradeOffCurve(*report.value().exactPrivacy, kPoints).value();
    const double closest = closestApproach(*curve, 1.0, 1e-5);
    QVERIFY2(closest >= -1e-9, qPrintable(QString::number(closest)));
    // It touches the claim's steep line where its slope is −e^ε (at α < 1 % here): μ-GDP's
    // δ at the claimed ε is the claimed δ.
    QVERIFY(std::abs(privacy::gaussianDelta(1.0, 1.0, mu).value() / 1e-5 - 1) < 1e-6);

    auto oneVsRest = mech::calibrate(o, {1000, 10, 4});
    QVERIFY(oneVsRest && oneVsRest.value().exactPrivacy);
    QCOMPARE(*oneVsRest.value().exactPrivacy->gaussianMu,
             2.0 * oneVsRest.value().calibrated(mech::Calibrated::Delta) / oneVsRest.value().noiseScale());
    auto inside = privacy::exactTradeOffCurve(*oneVsRest.value().exactPrivacy, kPoints).value();
    double least = 1;
    for (const TradeOffPoint& p : *inside) {
      if (p.falsePositive > 0.05 && p.falsePositive < 0.5) least = std::min(least, p.falseNegative - claimed(1.0, 1e-5, p.falsePositive));
    }
    QVERIFY2(least > 0.01, qPrintable(QString::number(least)));

    // Laplace noise: nothing beyond (ε, 0).
    o.family = mech::NoiseFamily::L2Laplace;
    o.delta = 0;
    QVERIFY(!mech::calibrate(o, {1000, 10, 2}).value().exactPrivacy);
    // Private tuning's calibration: its release is also the exponential mechanism's choice.
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
    auto tuned = mech::calibrateProblem(o, {1e-3, 1e-2}, {1000, 10, 2}, privacy::NoiseKind::Experiment);
    QVERIFY(tuned && !tuned.value().exactPrivacy);
  }

  void dpSgdCurveLiesInsideItsClaim() {
    mech::MechanismOptions o;
    o.kind = mech::MechanismKind::DpSgd;
    o.learner = LearnerSpec{ModelKind::Softmax, 1e-4, 0.5};
    o.epsilon = 1.0;
    o.delta = 1e-5;
    o.sgd.epochs = 5;
    auto report = mech::calibrate(o, {5000, 10, 3});
    QVERIFY(report && report.value().exactPrivacy && report.value().exactPrivacy->sampledGaussian.size() == 1);
    const privacy::SgmEvent& steps = report.value().exactPrivacy->sampledGaussian.front();
    QCOMPARE(steps.sigma, report.value().calibrated(mech::Calibrated::NoiseMultiplier));
    QCOMPARE(static_cast<double>(steps.steps), report.value().calibrated(mech::Calibrated::Steps));
    QVERIFY(report.value().exactPrivacy->pureEpsilon > 0);  // the step's estimate
    auto curve = privacy::exactTradeOffCurve(*report.value().exactPrivacy, kPoints);
    QVERIFY(curve && curve.value());
    // Inside the (ε, δ) region it claims, and near its boundary somewhere (σ is calibrated to
    // ε at δ by the same accountant): within the basic composition's and the grid's slack.
    const double closest = closestApproach(*curve.value(), 1.0, 1e-5);
    QVERIFY2(closest >= -1e-6, qPrintable(QString::number(closest)));
    QVERIFY2(closest < 0.02, qPrintable(QString::number(closest)));
  }

  void predictionSensitivityComposesItsAnswers() {
    predict::PredictionOptions o;
    o.kind = predict::PredictionKind::Sensitivity;
    o.learner = LearnerSpec{ModelKind::LogisticRegression, 1e-2, 0.5};
    o.family = mech::NoiseFamily::Gaussian;
    o.epsilon = 1.0;
    o.delta = 1e-5;
    o.budget = 16;
    auto report = predict::calibratePrediction(o, {1000, 10, 2});
    QVERIFY(report && report.value().exactPrivacy && report.value().exactPrivacy->gaussianMu);
    QCOMPARE(*report.value().exactPrivacy->gaussianMu,
             4.0 * report.value().calibrated(mech::Calibrated::Delta) / report.value().noiseScale());
    auto curve = privacy::exactTradeOffCurve(*report.value().exactPrivacy, kPoints).value();
    for (const TradeOffPoint& p : *curve) QVERIFY(p.falseNegative >= claimed(1.0, 1e-5, p.falsePositive) - 1e-9);
  }
};

QTEST_GUILESS_MAIN(TestExactPrivacy)
#include "test_exact_privacy.moc"
