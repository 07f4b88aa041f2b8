// What a guarantee means as a membership test (core/privacy/tradeoff.h, issue 35): the (ε, δ)
// and μ-GDP trade-off curves against closed forms and against each other, and the attacker's
// posterior bound's known values and monotonicity.

#include <QTest>

#include <cmath>

#include <boost/math/distributions/normal.hpp>

#include "core/privacy/gaussian.h"
#include "core/privacy/tradeoff.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

double Phi(double x) { return boost::math::cdf(boost::math::normal(), x); }

// δ(ε) of μ-GDP (Dong, Roth & Su 2019, Cor. 2.13): Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2).
double gdpDelta(double mu, double epsilon) {
  return Phi(-epsilon / mu + mu / 2) - std::exp(epsilon) * Phi(-epsilon / mu - mu / 2);
}

}  // namespace

class TestTradeOff : public QObject {
  Q_OBJECT

 private slots:
  // β ≥ max(0, 1 − δ − e^ε·α, e^{−ε}(1 − δ − α)) at hand-computed points, and no NaN at the
  // extremes.
  void epsilonDeltaBoundaryKnownValues() {
    auto beta = [](double e, double d, double a) { return epsilonDeltaMinFalseNegative(e, d, a).value(); };
    QCOMPARE(beta(0, 0, 0.3), 0.7);  // ε = 0: no test beats guessing
    const double ln3 = std::log(3.0);
    QVERIFY(std::abs(beta(ln3, 0, 0.1) - 0.7) < 1e-12);      // the steep branch
    QVERIFY(std::abs(beta(ln3, 0, 0.5) - 0.5 / 3) < 1e-12);  // the shallow branch
    QVERIFY(std::abs(beta(ln3, 0.1, 0.1) - 0.6) < 1e-12);
    QCOMPARE(beta(ln3, 0.1, 0.0), 0.9);
    QCOMPARE(beta(1000, 0.2, 0.0), 0.8);  // e^ε = ∞ and α = 0: no NaN
    QCOMPARE(beta(1000, 0.0, 0.01), 0.0);
    QCOMPARE(beta(2, 0.0, 1.0), 0.0);
    QVERIFY(!epsilonDeltaMinFalseNegative(-1, 0, 0.5));
    QVERIFY(!epsilonDeltaMinFalseNegative(1, 1.5, 0.5));
    QVERIFY(!epsilonDeltaMinFalseNegative(1, 0, -0.1));
  }

  // A DP trade-off function is symmetric: f(f(α)) = α on [0, 1 − δ]; and decreasing.
  void epsilonDeltaBoundaryIsSymmetricAndDecreasing() {
    for (double epsilon : {0.1, 1.0, 3.0}) {
      const auto points = epsilonDeltaTradeOffCurve(epsilon, 0.05, 101).value();
      QCOMPARE(points.size(), std::size_t{101});
      for (std::size_t k = 1; k < points.size(); ++k) QVERIFY(points[k].falseNegative <= points[k - 1].falseNegative);
      for (double alpha : {0.0, 0.01, 0.2, 0.5, 0.9}) {
        const double beta = epsilonDeltaMinFalseNegative(epsilon, 0.05, alpha).value();
        QVERIFY(std::abs(epsilonDeltaMinFalseNegative(epsilon, 0.05, beta).value() - alpha) < 1e-12);
      }
    }
  }

  // The corners the audit's chart joins lie on the boundary, and between them it is linear.
  void cornersTraceTheBoundary() {
    for (double epsilon : {0.0, 0.5, 2.0, 1000.0}) {
      for (double delta : {0.0, 1e-3, 0.2}) {
        const auto corners = epsilonDeltaTradeOffCorners(epsilon, delta);
        QCOMPARE(corners.size(), std::size_t{4});
        // With e^ε = ∞ the kink is at α = 0: the boundary drops straight down the axis there.
        for (std::size_t k = 0; k < corners.size(); ++k)
          if (k != 1 || corners[k].falsePositive > 0)
            QVERIFY(std::abs(epsilonDeltaMinFalseNegative(epsilon, delta, corners[k].falsePositive).value() -
                             corners[k].falseNegative) < 1e-12);
        for (std::size_t k = 0; k + 1 < corners.size(); ++k) {
          const TradeOffPoint a = corners[k], b = corners[k + 1];
          if (b.falsePositive == a.falsePositive) continue;
          const double alpha = 0.5 * (a.falsePositive + b.falsePositive);
          QVERIFY(std::abs(epsilonDeltaMinFalseNegative(epsilon, delta, alpha).value() -
                           0.5 * (a.falseNegative + b.falseNegative)) < 1e-12);
        }
      }
    }
  }

  // μ-GDP: Φ(Φ⁻¹(1 − α) − μ) at known values; μ = 0 is guessing.
  void gaussianCurveKnownValues() {
    QVERIFY(std::abs(gaussianMinFalseNegative(0, 0.3).value() - 0.7) < 1e-12);
    // μ = 1, α = 0.05: Φ(1.644854 − 1) = Φ(0.644854) = 0.740489.
    QVERIFY(std::abs(gaussianMinFalseNegative(1, 0.05).value() - 0.7404890) < 1e-6);
    QCOMPARE(gaussianMinFalseNegative(2, 0.0).value(), 1.0);
    QCOMPARE(gaussianMinFalseNegative(2, 1.0).value(), 0.0);
    QVERIFY(!gaussianMinFalseNegative(-1, 0.5));
    QCOMPARE(gaussianMu(2.0, 1.0).value(), 0.5);
  }

  // μ-GDP implies (ε, δ(ε))-DP for every ε: its curve lies on or above that boundary and
  // touches it (the (ε, δ(ε)) lines are its supporting lines, Dong, Roth & Su Prop. 2.12).
  void gaussianCurveTouchesItsEpsilonDeltaBoundaries() {
    for (double mu : {0.5, 1.0, 2.0}) {
      for (double epsilon : {0.25, 1.0, 2.0}) {
        const double delta = gdpDelta(mu, epsilon);
        double closest = 1;
        for (int k = 1; k < 4000; ++k) {
          const double alpha = k / 4000.0;
          const double gap = gaussianMinFalseNegative(mu, alpha).value() -
                             epsilonDeltaMinFalseNegative(epsilon, delta, alpha).value();
          QVERIFY2(gap >= -1e-9, qPrintable(QStringLiteral("μ %1, ε %2, α %3: %4").arg(mu).arg(epsilon).arg(alpha).arg(gap)));
          closest = std::min(closest, gap);
        }
        QVERIFY2(closest < 1e-3, qPrintable(QString::number(closest)));
      }
    }
  }

  // The product's analytic Gaussian σ for (ε, δ) is exactly μ-GDP's δ(ε) at μ = Δ/σ: the
  // exact curve the view draws belongs to the noise the mechanism draws.
  void analyticGaussianSigmaIsTheGdpCurvesDelta() {
    for (double epsilon : {0.5, 1.0, 4.0}) {
      const double sigma = analyticGaussianSigma(epsilon, 1e-5, 2.0).value();
      const double mu = gaussianMu(sigma, 2.0).value();
      QVERIFY2(std::abs(gdpDelta(mu, epsilon) - 1e-5) < 1e-9, qPrintable(QString::number(gdpDelta(mu, epsilon))));
    }
  }

  // e^ε·p / (e^ε·p + 1 − p): a 1 % prior at ε = 1 becomes at most 2.7 %; monotone in p and ε;
  // a test's own bound stays below it with δ = 0, approaching it as α → 0, and with δ > 0
  // rises towards 1.
  void posteriorBoundKnownValuesAndShape() {
    QVERIFY(std::abs(posteriorBound(0.01, 1).value() - std::exp(1.0) * 0.01 / (std::exp(1.0) * 0.01 + 0.99)) < 1e-15);
    QVERIFY(std::abs(posteriorBound(0.01, 1).value() - 0.0267235) < 1e-6);
    QCOMPARE(posteriorBound(0.5, 0).value(), 0.5);
    QCOMPARE(posteriorBound(0.0, 5).value(), 0.0);
    QVERIFY(posteriorBound(0.3, 1000).value() <= 1.0);
    double previous = 0;
    for (double prior : {0.001, 0.01, 0.1, 0.5, 0.9}) {
      const double bound = posteriorBound(prior, 1).value();
      QVERIFY(bound > previous && bound >= prior);
      previous = bound;
    }
    QVERIFY(posteriorBound(0.1, 2).value() > posteriorBound(0.1, 1).value());
    const double any = posteriorBound(0.05, 1).value();
    for (double alpha : {0.5, 0.1, 0.01, 1e-4}) QVERIFY(posteriorBoundAt(0.05, 1, 0, alpha).value() <= any + 1e-15);
    QVERIFY(std::abs(posteriorBoundAt(0.05, 1, 0, 1e-6).value() - any) < 1e-9);
    QVERIFY(posteriorBoundAt(0.05, 1, 1e-3, 1e-7).value() > 0.99);
    QVERIFY(!posteriorBoundAt(0.05, 1, 1e-3, 0.0));
    QVERIFY(!posteriorBound(1.5, 1));
  }

  // The summary the CLI prints is made of the functions above.
  void meaningIsMadeOfTheBounds() {
    const GuaranteeMeaning pure = meaningOf(1, 0).value();
    QCOMPARE(pure.testFalsePositive, 0.0);
    QCOMPARE(pure.posteriors.size(), std::size_t{3});
    for (const auto& p : pure.posteriors) QCOMPARE(p.atMost, posteriorBound(p.prior, 1).value());
    QVERIFY2(pure.sentence.find("at most 2.7 %") != std::string::npos, pure.sentence.c_str());
    const GuaranteeMeaning approximate = meaningOf(1, 1e-5).value();
    QCOMPARE(approximate.testFalsePositive, 0.01);
    for (const auto& p : approximate.posteriors)
      QCOMPARE(p.atMost, posteriorBoundAt(p.prior, 1, 1e-5, 0.01).value());
    QVERIFY(!meaningOf(-1, 0));
  }
};

QTEST_MAIN(TestTradeOff)
#include "test_tradeoff.moc"
