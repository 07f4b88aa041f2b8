// Basic and advanced composition, the per-use budget search, and the per-answer helpers
// of private prediction (docs/algorithms.md §1.3, §3 F–G).

#include <QTest>

#include <cmath>

#include "core/privacy/composition.h"
#include "core/privacy/gaussian.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

class TestComposition : public QObject {
  Q_OBJECT

 private slots:
  void basicCompositionSums() {
    auto total = basicComposition({{0.5, 1e-6}, {1.0, 0.0}, {0.25, 2e-6}});
    QVERIFY(total);
    QCOMPARE(total.value().epsilon, 1.75);
    DPSTUDIO_COMPARE_REL(total.value().delta, 3e-6, 1e-15);
    QCOMPARE(basicComposition({}).value().epsilon, 0.0);
    QCOMPARE(basicComposition({{-1.0, 0.0}}).error().field, std::string("epsilon"));
    QCOMPARE(basicComposition({{1.0, 1.0}}).error().field, std::string("delta"));
  }

  void advancedCompositionKnownAnswer() {
    // ε* = 0.1, B = 100, δ' = 1e-5, δ* = 1e-7, by hand:
    //   √(2·100·ln(1e5)) = √(2302.5850929940457) = 47.98525912188081, × 0.1 = 4.798525912188081
    //   100·0.1·(e^0.1 − 1)/2 = 10·0.10517091807564762/2 = 0.5258545903782381
    //   ε = 5.324380502566319;  δ = 100·1e-7 + 1e-5 = 2e-5.
    auto total = advancedComposition({0.1, 1e-7}, 100, 1e-5);
    QVERIFY(total);
    DPSTUDIO_COMPARE_REL(total.value().epsilon, 5.324380502566319, 1e-13);
    DPSTUDIO_COMPARE_REL(total.value().delta, 2e-5, 1e-13);
  }

  void perUseRecomposesWithinBudget_data() {
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<int>("uses");
    QTest::addColumn<double>("deltaPrimeFraction");
    for (double epsilon : {0.1, 1.0, 8.0})
      for (int uses : {1, 10, 1000, 100000})
        for (double fraction : {1e-6, 0.5, 1.0})
          QTest::newRow(qPrintable(QString("eps %1 B %2 delta' %3 delta")
                                       .arg(epsilon).arg(uses).arg(fraction)))
              << epsilon << 1e-5 << uses << fraction;
  }

  void perUseRecomposesWithinBudget() {
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(int, uses);
    QFETCH(double, deltaPrimeFraction);
    const double deltaPrime = delta * deltaPrimeFraction;
    auto perUse = advancedPerUse({epsilon, delta}, uses, deltaPrime);
    QVERIFY(perUse);
    QVERIFY(perUse.value().epsilon > 0);
    auto total = advancedComposition(perUse.value(), uses, deltaPrime);
    QVERIFY(total);
    QVERIFY2(total.value().epsilon <= epsilon,
             qPrintable(QString::number(total.value().epsilon, 'g', 17)));
    QVERIFY(total.value().delta <= delta);
    // ... and it is tight: the bisection leaves nothing on the table.
    DPSTUDIO_COMPARE_REL(total.value().epsilon, epsilon, 1e-12);
  }

  void asPublishedPerUseOverspends() {
    // Regression for paper 003 eq. 51: it solves the quadratic with ε*²/2 in place of
    // ε*(e^{ε*} − 1)/2, so its ε* composes to MORE than the target.
    const double deltaPrime = 1e-6;
    auto published = advancedPerUse({1.0, 1e-5}, 10, deltaPrime, PerUseSolve::AsPublished);
    const double l = std::log(1.0 / deltaPrime);
    DPSTUDIO_COMPARE_REL(published.value().epsilon,
                         std::sqrt(2.0 / 10) * (std::sqrt(l + 1.0) - std::sqrt(l)), 1e-13);
    auto recomposed = advancedComposition(published.value(), 10, deltaPrime);
    QVERIFY(recomposed.value().epsilon > 1.0);
    auto exact = advancedPerUse({1.0, 1e-5}, 10, deltaPrime);
    QVERIFY(exact.value().epsilon < published.value().epsilon);
  }

  void gaussianPerAnswerPicksTheSmallerSigma_data() {
    QTest::addColumn<int>("answers");
    QTest::addColumn<QString>("rule");
    QTest::newRow("one answer: basic") << 1 << "basic";
    QTest::newRow("ten answers: basic") << 10 << "basic";
    QTest::newRow("ten thousand answers: advanced") << 10000 << "advanced";
  }

  void gaussianPerAnswerPicksTheSmallerSigma() {
    QFETCH(int, answers);
    QFETCH(QString, rule);
    const PrivacyCost total{1.0, 1e-5};
    auto result = gaussianPerAnswer(total, answers, 2.0);
    QVERIFY(result);
    const GaussianPerAnswer& r = result.value();
    QCOMPARE(QString::fromStdString(r.rule), rule);
    QCOMPARE(r.sigma, std::min(r.sigmaBasic, r.sigmaAdvanced));
    DPSTUDIO_COMPARE_REL(r.sigmaBasic, analyticGaussianSigma(1.0 / answers, 1e-5 / answers, 2.0).value(),
                         1e-12);
    // The chosen σ is the analytic σ of the per-answer budget, and that budget recomposes
    // to at most the total.
    DPSTUDIO_COMPARE_REL(r.sigma, analyticGaussianSigma(r.perAnswer.epsilon, r.perAnswer.delta, 2.0).value(),
                         1e-12);
    if (r.rule == "advanced") {
      auto recomposed = advancedComposition(r.perAnswer, answers, r.deltaPrime);
      QVERIFY(recomposed.value().epsilon <= total.epsilon);
      QVERIFY(recomposed.value().delta <= total.delta);
    } else {
      QVERIFY(r.perAnswer.epsilon * answers <= total.epsilon * (1 + 1e-15));
    }
  }

  void epsilonPerAnswer_data() {
    QTest::addColumn<double>("delta");
    QTest::addColumn<int>("answers");
    QTest::addColumn<QString>("rule");
    QTest::newRow("pure DP: basic") << 0.0 << 1000 << "basic";
    QTest::newRow("few answers: basic") << 1e-5 << 5 << "basic";
    QTest::newRow("many answers: advanced") << 1e-5 << 1000 << "advanced";
  }

  void epsilonPerAnswer() {
    QFETCH(double, delta);
    QFETCH(int, answers);
    QFETCH(QString, rule);
    auto result = privacy::epsilonPerAnswer({1.0, delta}, answers);
    QVERIFY(result);
    QCOMPARE(QString::fromStdString(result.value().rule), rule);
    QCOMPARE(result.value().epsilonBasic, 1.0 / answers);
    QCOMPARE(result.value().epsilon,
             std::max(result.value().epsilonBasic, result.value().epsilonAdvanced));
    if (delta > 0) {
      // Advanced with δ' = δ, δ* = 0, recomposes to ≤ (ε, δ).
      auto recomposed = advancedComposition({result.value().epsilonAdvanced, 0.0}, answers, delta);
      QVERIFY(recomposed.value().epsilon <= 1.0);
    }
  }

  void invalidParameters() {
    QCOMPARE(advancedPerUse({1.0, 1e-5}, 0, 1e-6).error().field, std::string("uses"));
    QCOMPARE(advancedPerUse({1.0, 1e-5}, 10, 2e-5).error().field, std::string("delta_prime"));
    QCOMPARE(advancedPerUse({0.0, 1e-5}, 10, 1e-6).error().field, std::string("epsilon"));
    QCOMPARE(advancedPerUse({1.0, 0.0}, 10, 1e-6).error().field, std::string("delta"));
    QCOMPARE(gaussianPerAnswer({1.0, 0.0}, 10, 1.0).error().field, std::string("delta"));
    QCOMPARE(gaussianPerAnswer({1.0, 1e-5}, 10, 0.0).error().field, std::string("sensitivity"));
    QCOMPARE(privacy::epsilonPerAnswer({1.0, 1e-5}, 0).error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(advancedComposition({0.1, 0.0}, 10, 0.0).error().field, std::string("delta_prime"));
  }
};

QTEST_GUILESS_MAIN(TestComposition)
#include "test_composition.moc"
