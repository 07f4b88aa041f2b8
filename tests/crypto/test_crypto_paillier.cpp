// Paillier (core/crypto/paillier.h): known answers with textbook keys and fixed nonces
// (computed independently from the definition c = (1 + m·n)·r^n mod n²), the homomorphisms,
// freshness of the randomness, key generation and the 2048-bit rule, ciphertext validation.

#include <QtTest>

#include "core/crypto/paillier.h"
#include "tests/common/test_support.h"
#include "tests/crypto/deterministic_random.h"

using namespace dpstudio;
using namespace dpstudio::crypto;

namespace {

mpz_class big(const char* decimal) { return mpz_class(decimal, 10); }

const PaillierPrivateKey& testKey512() {
  static const PaillierPrivateKey key = [] {
    test::DeterministicRandom random(512);
    return test::orDie(generatePaillierKey(512, random, KeyStrength::TestOnlyShort));
  }();
  return key;
}

}  // namespace

class TestCryptoPaillier : public QObject {
  Q_OBJECT
 private slots:
  void knownAnswer_data() {
    QTest::addColumn<QString>("p");
    QTest::addColumn<QString>("q");
    QTest::addColumn<QString>("m");
    QTest::addColumn<QString>("r");
    QTest::addColumn<QString>("c");
    QTest::newRow("textbook p=7 q=11") << "7" << "11" << "42" << "23" << "3840";
    QTest::newRow("mersenne 2^31-1, 2^61-1")
        << "2147483647" << "2305843009213693951" << "123456789123456789" << "987654321987654321"
        << "1036114263589712596462605453363466699098774466048048030";
  }
  void knownAnswer() {
    QFETCH(QString, p);
    QFETCH(QString, q);
    QFETCH(QString, m);
    QFETCH(QString, r);
    QFETCH(QString, c);
    const auto key = test::orDie(paillierKeyFromPrimes(big(p.toLatin1()), big(q.toLatin1()), KeyStrength::TestOnlyShort));
    const Ciphertext encrypted = test::orDie(encryptWithNonce(key.publicKey, big(m.toLatin1()), big(r.toLatin1())));
    QCOMPARE(encrypted.value.get_str(), c.toStdString());
    QCOMPARE(test::orDie(decrypt(key, encrypted)).get_str(), m.toStdString());
  }

  void homomorphisms() {
    const PaillierPrivateKey& key = testKey512();
    const PaillierPublicKey& pub = key.publicKey;
    OsRandom random;
    test::DeterministicRandom values(7);
    for (int trial = 0; trial < 5; ++trial) {
      const mpz_class a = randomBelow(values, pub.n), b = randomBelow(values, pub.n), k = randomBelow(values, pub.n);
      const Ciphertext ca = test::orDie(encrypt(pub, a, random)), cb = test::orDie(encrypt(pub, b, random));
      auto modN = [&](const mpz_class& v) {
        mpz_class out;
        mpz_mod(out.get_mpz_t(), v.get_mpz_t(), pub.n.get_mpz_t());
        return out;
      };
      QCOMPARE(test::orDie(decrypt(key, add(pub, ca, cb))), modN(a + b));
      QCOMPARE(test::orDie(decrypt(key, addPlain(pub, ca, k))), modN(a + k));
      QCOMPARE(test::orDie(decrypt(key, addPlain(pub, ca, -k))), modN(a - k));
      QCOMPARE(test::orDie(decrypt(key, multiplyPlain(pub, ca, k))), modN(a * k));
      QCOMPARE(test::orDie(decrypt(key, multiplyPlain(pub, ca, -3))), modN(-3 * a));
      QCOMPARE(test::orDie(decrypt(key, multiplyPlain(pub, ca, 0))), mpz_class(0));
      QCOMPARE(test::orDie(decrypt(key, negate(pub, ca))), modN(-a));
      QCOMPARE(test::orDie(decrypt(key, add(pub, ca, negate(pub, ca)))), mpz_class(0));
      const Ciphertext fresh = rerandomize(pub, ca, random);
      QVERIFY(fresh.value != ca.value);
      QCOMPARE(test::orDie(decrypt(key, fresh)), a);
    }
  }

  void encryptionUsesFreshRandomness() {
    const PaillierPublicKey& pub = testKey512().publicKey;
    OsRandom random;
    const Ciphertext first = test::orDie(encrypt(pub, 5, random));
    const Ciphertext second = test::orDie(encrypt(pub, 5, random));
    QVERIFY(first.value != second.value);
    // Enc(5; r = 1) would be 1 + 5n: a fresh r is never 1 in practice.
    QVERIFY(first.value != 1 + 5 * pub.n);
  }

  void generatedKeyHasTheRequestedShape() {
    const PaillierPrivateKey& key = testKey512();
    QCOMPARE(key.publicKey.bits(), 512u);
    QCOMPARE(mpz_sizeinbase(key.p.get_mpz_t(), 2), std::size_t{256});
    QCOMPARE(mpz_sizeinbase(key.q.get_mpz_t(), 2), std::size_t{256});
    QVERIFY(key.p != key.q);
    QVERIFY(mpz_probab_prime_p(key.p.get_mpz_t(), 30) > 0);
    QVERIFY(mpz_probab_prime_p(key.q.get_mpz_t(), 30) > 0);
    QCOMPARE(key.publicKey.n, key.p * key.q);
    QCOMPARE(key.publicKey.nSquared, key.publicKey.n * key.publicKey.n);
  }

  // The product's rule: a release never runs on a key below 2048 bits.
  void productionRefusesKeysBelow2048Bits() {
    OsRandom random;
    auto refused = generatePaillierKey(1024, random);  // KeyStrength::Production is the default
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().kind, ErrorKind::InvalidPrivacy);
    QVERIFY2(refused.error().message.find("2048") != std::string::npos, refused.error().message.c_str());
    QVERIFY(!generatePaillierKey(2046, random).ok());
    QVERIFY(!paillierKeyFromPrimes(7, 11, KeyStrength::Production).ok());
    QVERIFY(!generatePaillierKey(128, random, KeyStrength::TestOnlyShort).ok());
    QVERIFY(!generatePaillierKey(513, random, KeyStrength::TestOnlyShort).ok());
  }

  void production2048BitKeyWorks() {
    OsRandom random;
    const auto key = test::orDie(generatePaillierKey(2048, random));
    QCOMPARE(key.publicKey.bits(), 2048u);
    const mpz_class m = key.publicKey.n - 12345;  // a "negative" plaintext
    QCOMPARE(test::orDie(decrypt(key, test::orDie(encrypt(key.publicKey, m, random)))), m);
  }

  void badPrimesAndPlaintextsAreRefused() {
    QVERIFY(!paillierKeyFromPrimes(7, 7, KeyStrength::TestOnlyShort).ok());
    QVERIFY(!paillierKeyFromPrimes(7, 15, KeyStrength::TestOnlyShort).ok());
    const PaillierPublicKey& pub = testKey512().publicKey;
    OsRandom random;
    QVERIFY(!encrypt(pub, pub.n, random).ok());
    QVERIFY(!encrypt(pub, -1, random).ok());
    QVERIFY(!encryptWithNonce(pub, 1, testKey512().p).ok());  // not a unit mod n
  }

  void malformedCiphertextsAreRefused() {
    const PaillierPrivateKey& key = testKey512();
    QVERIFY(!decrypt(key, Ciphertext{0}).ok());
    QVERIFY(!decrypt(key, Ciphertext{key.publicKey.nSquared}).ok());
    QVERIFY(!decrypt(key, Ciphertext{key.publicKey.nSquared + 1}).ok());
    QVERIFY(!decrypt(key, Ciphertext{key.p * 3}).ok());  // shares the factor p with n
  }
};

QTEST_GUILESS_MAIN(TestCryptoPaillier)
#include "test_crypto_paillier.moc"
