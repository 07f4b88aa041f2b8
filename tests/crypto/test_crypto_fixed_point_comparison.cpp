// Fixed-point encoding (core/crypto/fixed_point.h) at its boundaries and its overflow
// refusals; the DGK secure comparison (dgk_comparison.h) over every ordering, the edges of
// the input range and both of the evaluator's coins; the strict message byte codec.

#include <QtTest>

#include <cmath>
#include <limits>

#include "core/crypto/byte_codec.h"
#include "core/crypto/dgk_comparison.h"
#include "core/crypto/fixed_point.h"
#include "tests/common/test_support.h"
#include "tests/crypto/deterministic_random.h"

using namespace dpstudio;
using namespace dpstudio::crypto;

namespace {

const PaillierPrivateKey& key512() {
  static const PaillierPrivateKey key = [] {
    test::DeterministicRandom random(2024);
    return test::orDie(generatePaillierKey(512, random, KeyStrength::TestOnlyShort));
  }();
  return key;
}

// A modulus of 2^100 + 1 (odd, as a Paillier n is): room for W·L·2^40 with L = 2^50, W = 2.
mpz_class smallModulus() {
  mpz_class n = 1;
  n <<= 100;
  return n + 1;
}

constexpr double kLimit = 1125899906842624.0;  // 2^50

bool comparisonResult(const PaillierPrivateKey& key, const mpz_class& x, const mpz_class& y, unsigned bits,
                      RandomBytes& random, bool* shareA = nullptr) {
  const auto encryptedBits = test::orDie(dgkKeyHolderBits(key.publicKey, y, bits, random));
  const DgkEvaluation evaluation = test::orDie(dgkEvaluate(key.publicKey, x, bits, encryptedBits, random));
  const bool shareB = test::orDie(dgkKeyHolderZeroTest(key, bits, evaluation.blinded));
  if (shareA) *shareA = evaluation.shareA;
  return evaluation.shareA != shareB;
}

}  // namespace

class TestCryptoFixedPointComparison : public QObject {
  Q_OBJECT
 private slots:
  void roundTrip_data() {
    QTest::addColumn<double>("x");
    QTest::newRow("zero") << 0.0;
    QTest::newRow("one resolution step") << std::ldexp(1.0, -40);
    QTest::newRow("minus one resolution step") << -std::ldexp(1.0, -40);
    QTest::newRow("below resolution rounds to 0 or 2^-40") << std::ldexp(1.0, -42);
    QTest::newRow("one third") << 1.0 / 3.0;
    QTest::newRow("minus pi") << -3.141592653589793;
    QTest::newRow("limit") << kLimit;
    QTest::newRow("minus limit") << -kLimit;
    QTest::newRow("just below limit") << std::nextafter(kLimit, 0.0);
    QTest::newRow("large noise") << -123456.789;
  }
  void roundTrip() {
    QFETCH(double, x);
    const FixedPoint codec = test::orDie(FixedPoint::create(smallModulus(), kLimit, 2));
    const mpz_class encoded = test::orDie(codec.encode(x));
    QVERIFY(encoded >= 0 && encoded < codec.modulus());
    const double decoded = test::orDie(codec.decode(encoded));
    QVERIFY2(std::abs(decoded - x) <= std::ldexp(1.0, -41) * (1 + 1e-12), QByteArray::number(decoded - x, 'g', 17));
  }

  void negativesAreEncodedAsNMinusMagnitude() {
    const FixedPoint codec = test::orDie(FixedPoint::create(smallModulus(), kLimit, 2));
    const mpz_class oneAndHalf = mpz_class(3) << 39;  // 1.5 · 2^40
    QCOMPARE(test::orDie(codec.encode(-1.5)), smallModulus() - oneAndHalf);
    QCOMPARE(test::orDie(codec.encode(1.5)), oneAndHalf);
  }

  void sumsDecodeWithinTheDeclaredWeight() {
    const FixedPoint codec = test::orDie(FixedPoint::create(smallModulus(), kLimit, 2));
    const mpz_class a = test::orDie(codec.encode(-kLimit)), b = test::orDie(codec.encode(-kLimit));
    mpz_class sum = a + b;
    mpz_mod(sum.get_mpz_t(), sum.get_mpz_t(), codec.modulus().get_mpz_t());
    QCOMPARE(test::orDie(codec.decode(sum)), -2 * kLimit);
  }

  void overflowIsRefused() {
    const FixedPoint codec = test::orDie(FixedPoint::create(smallModulus(), kLimit, 2));
    QVERIFY(!codec.encode(std::nextafter(kLimit, 2 * kLimit)).ok());
    QVERIFY(!codec.encode(-2 * kLimit).ok());
    QVERIFY(!codec.encode(std::numeric_limits<double>::quiet_NaN()).ok());
    QVERIFY(!codec.encode(std::numeric_limits<double>::infinity()).ok());
    // Three values of the limit break the promise of weight 2: decode refuses the sum
    // instead of returning it (it would still have decoded, as 3L, below n/2).
    const mpz_class limit = test::orDie(codec.encode(kLimit));
    auto refused = codec.decode(3 * limit);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().message.find("overflow") != std::string::npos, refused.error().message.c_str());
    // A residue that wrapped past n/2 is refused too rather than read as a negative number.
    mpz_class wrapped = (smallModulus() / 2) + 1;
    QVERIFY(!codec.decode(wrapped).ok());
    QVERIFY(!codec.decode(smallModulus()).ok());
    QVERIFY(!codec.decode(-1).ok());
  }

  void codecRefusesAModulusTooSmall() {
    QVERIFY(!FixedPoint::create(smallModulus(), kLimit, 1024).ok());  // 2^50·2^40·2^10·2 > 2^100
    QVERIFY(FixedPoint::create(smallModulus(), kLimit, 256).ok());
    QVERIFY(!FixedPoint::create(smallModulus(), 0.0, 2).ok());
    QVERIFY(!FixedPoint::create(smallModulus(), kLimit, 0).ok());
  }

  void comparison_data() {
    QTest::addColumn<QString>("x");
    QTest::addColumn<QString>("y");
    QTest::newRow("0 vs 0") << "0" << "0";
    QTest::newRow("0 vs 1") << "0" << "1";
    QTest::newRow("1 vs 0") << "1" << "0";
    QTest::newRow("equal middle") << "40000" << "40000";
    QTest::newRow("max vs max") << "65535" << "65535";
    QTest::newRow("max vs 0") << "65535" << "0";
    QTest::newRow("0 vs max") << "0" << "65535";
    QTest::newRow("differ in lowest bit") << "32768" << "32769";
    QTest::newRow("differ in top bit") << "32767" << "32768";
    QTest::newRow("top bit greater") << "32768" << "32767";
  }
  void comparison() {
    QFETCH(QString, x);
    QFETCH(QString, y);
    const mpz_class xv(x.toStdString()), yv(y.toStdString());
    OsRandom random;
    bool sawCoin[2] = {false, false};
    // Both of the evaluator's coins must give the same answer: run until both were used.
    for (int run = 0; run < 40 && !(sawCoin[0] && sawCoin[1]); ++run) {
      bool coin = false;
      QCOMPARE(comparisonResult(key512(), xv, yv, 16, random, &coin), xv <= yv);
      sawCoin[coin ? 1 : 0] = true;
    }
    QVERIFY(sawCoin[0] && sawCoin[1]);
  }

  void comparisonOfWideRandomInputs() {
    OsRandom random;
    test::DeterministicRandom inputs(99);
    for (int trial = 0; trial < 6; ++trial) {
      const mpz_class x = randomBits(inputs, 140), y = trial % 3 == 0 ? x : randomBits(inputs, 140);
      QCOMPARE(comparisonResult(key512(), x, y, 140, random), x <= y);
    }
  }

  // The key holder sees at most one zero, and only units otherwise.
  void keyHolderSeesAtMostOneZero() {
    OsRandom random;
    const auto bits = test::orDie(dgkKeyHolderBits(key512().publicKey, 300, 16, random));
    const DgkEvaluation evaluation = test::orDie(dgkEvaluate(key512().publicKey, 200, 16, bits, random));
    int zeros = 0;
    for (const Ciphertext& c : evaluation.blinded) zeros += test::orDie(decrypt(key512(), c)) == 0 ? 1 : 0;
    QVERIFY(zeros <= 1);
  }

  void comparisonRefusesBadInputs() {
    OsRandom random;
    const PaillierPublicKey& pub = key512().publicKey;
    QVERIFY(!dgkKeyHolderBits(pub, mpz_class(1) << 16, 16, random).ok());
    QVERIFY(!dgkKeyHolderBits(pub, -1, 16, random).ok());
    QVERIFY(!dgkKeyHolderBits(pub, 1, 510, random).ok());  // c_i could wrap mod n
    auto bits = test::orDie(dgkKeyHolderBits(pub, 3, 16, random));
    QVERIFY(!dgkEvaluate(pub, mpz_class(1) << 16, 16, bits, random).ok());
    bits.pop_back();
    QVERIFY(!dgkEvaluate(pub, 1, 16, bits, random).ok());
    bits.push_back(Ciphertext{0});
    QVERIFY(!dgkEvaluate(pub, 1, 16, bits, random).ok());
    QVERIFY(!dgkKeyHolderZeroTest(key512(), 16, {}).ok());
  }

  void byteCodecRoundTripsAndIsStrict() {
    ByteWriter writer;
    writer.u8(7);
    writer.u32(0xDEADBEEF);
    writer.u64(0x0123456789ABCDEFull);
    writer.big(mpz_class("123456789012345678901234567890"));
    writer.big(0);
    writer.text("stage 1");
    const Bytes bytes = writer.bytes();
    {
      ByteReader reader(bytes);
      QCOMPARE(test::orDie(reader.u8("a")), std::uint8_t{7});
      QCOMPARE(test::orDie(reader.u32("b")), 0xDEADBEEFu);
      QCOMPARE(test::orDie(reader.u64("c")), 0x0123456789ABCDEFull);
      QCOMPARE(test::orDie(reader.big("d", 64)), mpz_class("123456789012345678901234567890"));
      QCOMPARE(test::orDie(reader.big("e", 64)), mpz_class(0));
      QCOMPARE(test::orDie(reader.text("f", 64)), std::string("stage 1"));
      QVERIFY(reader.finish().ok());
    }
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {  // every truncation is caught
      const Bytes truncated(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut));
      ByteReader reader(truncated);
      bool failed = !reader.u8("a").ok() || !reader.u32("b").ok() || !reader.u64("c").ok() ||
                    !reader.big("d", 64).ok() || !reader.big("e", 64).ok() || !reader.text("f", 64).ok();
      QVERIFY2(failed, QByteArray::number(qulonglong(cut)));
    }
    Bytes trailing = bytes;
    trailing.push_back(0);
    ByteReader reader(trailing);
    (void)reader.u8("a"), (void)reader.u32("b"), (void)reader.u64("c"), (void)reader.big("d", 64),
        (void)reader.big("e", 64), (void)reader.text("f", 64);
    QVERIFY(!reader.finish().ok());
    ByteReader greedy(bytes);
    (void)greedy.u8("a"), (void)greedy.u32("b"), (void)greedy.u64("c");
    QVERIFY(!greedy.big("d", 4).ok());  // longer than allowed
  }
};

QTEST_GUILESS_MAIN(TestCryptoFixedPointComparison)
#include "test_crypto_fixed_point_comparison.moc"
