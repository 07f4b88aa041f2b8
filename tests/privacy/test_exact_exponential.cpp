// The exact exponential-mechanism sampler (issue 13 part 1, bug 5): its Bernoulli
// comparisons are exact, its draws follow exp(β·u)/Σ, and a candidate of relative weight
// 2⁻⁶⁰ can be returned — which the float inverse-CDF sampler it replaces could never do.

#include <QTest>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "core/privacy/exact_bernoulli.h"
#include "core/privacy/noise.h"
#include "core/privacy/noise_source.h"
#include "tests/common/test_support.h"
#include "tests/privacy/statistics.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

// A source that replays a scripted bit string (64 bits a word, most significant first, then
// zeros) and scripted uniform indices: the sampler's internal decisions become inspectable.
class ScriptedSource final : public NoiseSource {
 public:
  ScriptedSource(const std::string& bitString, std::vector<std::uint64_t> indices)
      : indices_(std::move(indices)) {
    for (std::size_t i = 0; i < bitString.size(); i += 64) {
      std::uint64_t word = 0;
      for (std::size_t b = 0; b < 64; ++b) {
        word <<= 1;
        if (i + b < bitString.size() && bitString[i + b] == '1') word |= 1u;
      }
      words_.push_back(word);
    }
  }
  std::uint64_t nextU64() override {
    ++wordsRead;
    return wordsRead <= words_.size() ? words_[wordsRead - 1] : 0;
  }
  double uniform01() override { qFatal("not scripted"); }
  double normal() override { qFatal("not scripted"); }
  double gamma(double, double) override { qFatal("not scripted"); }
  std::uint64_t uniformIndex(std::uint64_t n) override {
    if (nextIndex_ >= indices_.size()) qFatal("the script has no more indices");
    const std::uint64_t index = indices_[nextIndex_++];
    if (index >= n) qFatal("scripted index out of range");
    return index;
  }
  const NoiseProvenance& provenance() const override { return provenance_; }
  std::size_t wordsRead = 0;

 private:
  std::vector<std::uint64_t> words_;
  std::vector<std::uint64_t> indices_;
  std::size_t nextIndex_ = 0;
  NoiseProvenance provenance_;
};

template <class T>
T orDie(Result<T> result) {
  if (!result) qFatal("%s", result.error().toString().c_str());
  return std::move(result).value();
}

std::string bitsOf(std::uint64_t value, int length) {
  std::string text;
  for (int b = length - 1; b >= 0; --b) text += ((value >> b) & 1u) != 0 ? '1' : '0';
  return text;
}

}  // namespace

class TestExactExponential : public QObject {
  Q_OBJECT

 private slots:
  // Over all 2^L prefixes of L random bits, the prefixes decided "true" have total mass
  // ≤ p and those decided or undecided ≥ p: the comparison realizes p = (m/k)·2⁻ˢ exactly.
  void bernoulliDyadicIsExact_data() {
    QTest::addColumn<quint64>("m");
    QTest::addColumn<quint64>("k");
    QTest::addColumn<int>("s");
    QTest::newRow("5/12") << quint64(5) << quint64(3) << 2;
    QTest::newRow("1/3") << quint64(1) << quint64(3) << 0;
    QTest::newRow("3/8") << quint64(3) << quint64(1) << 3;
    QTest::newRow("7/(5*2^4)") << quint64(7) << quint64(5) << 4;
  }
  void bernoulliDyadicIsExact() {
    QFETCH(quint64, m);
    QFETCH(quint64, k);
    QFETCH(int, s);
    const int length = 14;
    const double p = static_cast<double>(m) / static_cast<double>(k) / std::ldexp(1.0, s);
    long decidedTrue = 0, undecided = 0;
    for (std::uint64_t prefix = 0; prefix < (1u << length); ++prefix) {
      // Tail of ones after the prefix, then of zeros: a decision that reads past the prefix
      // would differ between the two, so it counts as undecided.
      ScriptedSource ones(bitsOf(prefix, length) + std::string(128, '1'), {});
      ScriptedSource zeros(bitsOf(prefix, length) + std::string(128, '0'), {});
      RandomBits a(ones), b(zeros);
      const bool x = bernoulliDyadic(a, m, k, s), y = bernoulliDyadic(b, m, k, s);
      if (x != y) ++undecided;
      else if (x) ++decidedTrue;
    }
    const double cell = std::ldexp(1.0, -length);
    QVERIFY(decidedTrue * cell <= p);
    QVERIFY((decidedTrue + undecided) * cell >= p);
    QVERIFY(undecided <= 2);  // at most the cells around p's expansion
  }

  // 200 000 draws of Bernoulli(exp(−γ)) each within 5 standard deviations of exp(−γ).
  void bernoulliExpMinusMatchesExpMinusGamma() {
    ExperimentNoise noise(20261124);
    for (double gamma : {0.0, 0.3, 1.0, 2.5, 7.0}) {
      RandomBits bits(noise);
      const int draws = 200000;
      long hits = 0;
      for (int i = 0; i < draws; ++i) hits += bernoulliExpMinus(bits, gamma) ? 1 : 0;
      const double p = std::exp(-gamma);
      const double sd = std::sqrt(draws * p * (1 - p));
      qInfo("gamma %.1f: %ld of %d, expected %.1f", gamma, hits, draws, draws * p);
      QVERIFY(std::abs(hits - draws * p) <= 5 * sd + 1e-9);
    }
    RandomBits bits(noise);
    QVERIFY(!bernoulliExpMinus(bits, std::numeric_limits<double>::infinity()));
  }

  // χ² of 100 000 draws against the exact probabilities, on a small case with a
  // non-integer β and a spread of utilities (the smallest weight is e^-7 of the largest).
  void exactExponentialMechanismFitsChiSquared() {
    const double beta = 0.7;
    const Eigen::Vector4d utility(0.0, 1.0, 2.5, 10.0);
    const Eigen::VectorXd exact = orDie(exponentialMechanismProbabilities(beta, utility));
    ExperimentNoise noise(7);
    std::vector<long> counts(4, 0);
    const int draws = 100000;
    for (int i = 0; i < draws; ++i)
      ++counts[static_cast<std::size_t>(orDie(sampleExponentialMechanism(noise, beta, utility)))];
    const auto fit = test::chiSquared(counts, {exact[0], exact[1], exact[2], exact[3]});
    qInfo("counts %ld %ld %ld %ld, chi2 %.3f, p %.3f", counts[0], counts[1], counts[2], counts[3], fit.statistic,
          fit.pValue);
    QVERIFY2(fit.pValue > 1e-3, qPrintable(QString::number(fit.pValue)));
  }

  void exactExponentialMechanismReplaysFromTheSeed() {
    const Eigen::Vector3d utility(3.0, 1.0, 2.0);
    ExperimentNoise a(99), b(99);
    for (int i = 0; i < 500; ++i)
      QCOMPARE(orDie(sampleExponentialMechanism(a, 1.3, utility)),
               orDie(sampleExponentialMechanism(b, 1.3, utility)));
  }

  // Utilities (0, −60) with β = ln 2: candidate 1 has relative weight 2⁻⁶⁰. The float
  // sampler this replaces drew U ∈ [0, 1) and returned the first y with U·Σ < Σ_{≤y} w:
  // Σ = fl(1 + 2⁻⁶⁰) = 1, so U·Σ < 1 = w_0 for every one of its 2⁵³ values of U and
  // candidate 1 was never returned (a cutoff, i.e. an unstated δ). The exact sampler
  // proposes candidate 1 and accepts it with probability exp(−γ), γ = 60·ln 2 (41.59):
  // 41 successes of Bernoulli(e⁻¹) — each the bit path "0","1" (A₁ = 1 surely, A₂ ~ Bern(1/2)
  // = 1 on bit 0, A₃ ~ Bern(1/3) = 0 on bit 1: K = 3, odd) — then Bernoulli(e^−0.5888)
  // on the path "0" (A₁ ~ Bern(0.589) = 1), "00" (A₂ ~ Bern(0.294) = 1), "1"
  // (A₃ ~ Bern(0.196) = 0): K = 3, odd. That path has positive probability, so the tiny
  // candidate is returnable; its probability is reported exactly and is nonzero.
  void exponentialMechanismReturnsACandidateOfWeight2ToTheMinus60() {
    const double beta = std::numbers::ln2;
    const Eigen::Vector2d utility(0.0, -60.0);
    const Eigen::VectorXd exact = orDie(exponentialMechanismProbabilities(beta, utility));
    QVERIFY(exact[1] > 0.0);
    DPSTUDIO_COMPARE_REL(exact[1], std::ldexp(1.0, -60), 1e-12);

    std::string path;
    for (int i = 0; i < 41; ++i) path += "01";
    path += "0001";
    ScriptedSource accepted(path, {1});
    QCOMPARE(orDie(sampleExponentialMechanism(accepted, beta, utility)), Eigen::Index{1});

    // A different bit on the path rejects the proposal; the next proposal (candidate 0,
    // utility maximal) is accepted without reading bits.
    std::string rejectedPath = path;
    rejectedPath[1] = '0';  // the first Bernoulli(e⁻¹) ends at K = 2: a failure
    ScriptedSource rejected(rejectedPath, {1, 0});
    QCOMPARE(orDie(sampleExponentialMechanism(rejected, beta, utility)), Eigen::Index{0});
  }
};

QTEST_GUILESS_MAIN(TestExactExponential)
#include "test_exact_exponential.moc"
