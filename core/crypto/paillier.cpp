#include "core/crypto/paillier.h"

#include <string>

namespace dpstudio::crypto {
namespace {

Error keyError(const std::string& message) { return Error{ErrorKind::InvalidPrivacy, message, {}, 0, "key_bits"}; }

mpz_class mod(const mpz_class& a, const mpz_class& m) { return reduceMod(a, m); }

// base^exponent mod modulus with a secret exponent (and possibly secret modulus):
// mpz_powm_sec needs exponent > 0 and an odd modulus, which every caller here has.
mpz_class powSecret(const mpz_class& base, const mpz_class& exponent, const mpz_class& modulus) {
  mpz_class out;
  mpz_powm_sec(out.get_mpz_t(), base.get_mpz_t(), exponent.get_mpz_t(), modulus.get_mpz_t());
  return out;
}

// L_p(x) = (x − 1)/p, exact for x ≡ 1 (mod p).
mpz_class lFunction(const mpz_class& x, const mpz_class& p) {
  mpz_class out = x - 1;
  mpz_divexact(out.get_mpz_t(), out.get_mpz_t(), p.get_mpz_t());
  return out;
}

mpz_class inverse(const mpz_class& a, const mpz_class& m) {
  mpz_class out;
  mpz_invert(out.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());
  return out;
}

unsigned bitLength(const mpz_class& x) { return static_cast<unsigned>(mpz_sizeinbase(x.get_mpz_t(), 2)); }

// A prime of exactly `bits` bits with its two top bits set.
mpz_class randomPrime(unsigned bits, RandomBytes& random) {
  for (;;) {
    mpz_class start = randomBits(random, bits);
    mpz_setbit(start.get_mpz_t(), bits - 1);
    mpz_setbit(start.get_mpz_t(), bits - 2);
    mpz_class p;
    mpz_nextprime(p.get_mpz_t(), start.get_mpz_t());
    if (bitLength(p) == bits && mpz_probab_prime_p(p.get_mpz_t(), kPrimalityRounds) > 0) return p;
  }
}

}  // namespace

mpz_class reduceMod(const mpz_class& v, const mpz_class& m) {
  mpz_class out;
  mpz_mod(out.get_mpz_t(), v.get_mpz_t(), m.get_mpz_t());
  return out;
}

Status checkKeySize(unsigned bits, KeyStrength strength) {
  const unsigned minimum = strength == KeyStrength::Production ? kMinimumKeyBits : kMinimumTestKeyBits;
  if (bits < minimum)
    return keyError("Paillier keys must have at least " + std::to_string(minimum) + " bits" +
                    (strength == KeyStrength::Production ? "" : " (even in tests)") + ", found " +
                    std::to_string(bits));
  if (bits % 2 != 0) return keyError("Paillier key sizes must be even, found " + std::to_string(bits));
  return Ok{};
}

Result<PaillierPrivateKey> paillierKeyFromPrimes(const mpz_class& p, const mpz_class& q, KeyStrength strength) {
  if (p == q) return keyError("the Paillier primes p and q must differ");
  if (mpz_probab_prime_p(p.get_mpz_t(), kPrimalityRounds) == 0 || mpz_probab_prime_p(q.get_mpz_t(), kPrimalityRounds) == 0)
    return keyError("p and q must be prime");
  PaillierPrivateKey key;
  key.p = p;
  key.q = q;
  key.publicKey.n = p * q;
  key.publicKey.nSquared = key.publicKey.n * key.publicKey.n;
  // With a known-answer key the size check is the caller's (a 77-bit n is refused even as
  // TestOnlyShort), except that tiny textbook keys are the very point of a KAT: only the
  // Production rule is enforced here.
  if (strength == KeyStrength::Production)
    if (auto size = checkKeySize(key.publicKey.bits(), strength); !size) return size.error();
  mpz_class phi = (p - 1) * (q - 1), g;
  mpz_gcd(g.get_mpz_t(), key.publicKey.n.get_mpz_t(), phi.get_mpz_t());
  if (g != 1) return keyError("gcd(n, (p−1)(q−1)) must be 1 for Paillier with g = n + 1");
  key.pSquared = p * p;
  key.qSquared = q * q;
  const mpz_class generator = key.publicKey.n + 1;
  key.hp = inverse(lFunction(powSecret(mod(generator, key.pSquared), p - 1, key.pSquared), p), p);
  key.hq = inverse(lFunction(powSecret(mod(generator, key.qSquared), q - 1, key.qSquared), q), q);
  key.qInverseModP = inverse(q, p);
  return key;
}

Result<PaillierPrivateKey> generatePaillierKey(unsigned bits, RandomBytes& random, KeyStrength strength) {
  if (auto size = checkKeySize(bits, strength); !size) return size.error();
  const unsigned half = bits / 2;
  // Fermat's method factors n quickly when |p − q| is small; two independent random primes
  // are this far apart except with probability ~2^-99, so the loop practically never repeats.
  const unsigned minimumGapBits = half > 200 ? half - 100 : half / 2;
  for (;;) {
    const mpz_class p = randomPrime(half, random);
    const mpz_class q = randomPrime(half, random);
    mpz_class gap = p - q;
    mpz_abs(gap.get_mpz_t(), gap.get_mpz_t());
    if (bitLength(gap) <= minimumGapBits) continue;
    auto key = paillierKeyFromPrimes(p, q, strength);
    if (!key) continue;  // gcd(n, φ) ≠ 1: impossible for equal-length primes, kept as a guard
    if (key.value().publicKey.bits() != bits) continue;
    return key;
  }
}

Result<Ciphertext> encryptWithNonce(const PaillierPublicKey& key, const mpz_class& m, const mpz_class& r) {
  if (m < 0 || m >= key.n) return Error{ErrorKind::Internal, "a Paillier plaintext must be in [0, n)", {}, 0, "plaintext"};
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), r.get_mpz_t(), key.n.get_mpz_t());
  if (r <= 0 || r >= key.n || g != 1)
    return Error{ErrorKind::Internal, "a Paillier nonce must be in Z_n^*", {}, 0, "nonce"};
  // (1 + n)^m = 1 + m·n (mod n²): no exponentiation for the message part. The nonce is
  // secret but the exponent n is public, so plain mpz_powm is fine here.
  mpz_class rn;
  mpz_powm(rn.get_mpz_t(), r.get_mpz_t(), key.n.get_mpz_t(), key.nSquared.get_mpz_t());
  return Ciphertext{mod((1 + m * key.n) * rn, key.nSquared)};
}

Result<Ciphertext> encrypt(const PaillierPublicKey& key, const mpz_class& m, RandomBytes& random) {
  return encryptWithNonce(key, m, randomUnit(random, key.n));
}

Status checkCiphertext(const PaillierPublicKey& key, const Ciphertext& c) {
  if (c.value <= 0 || c.value >= key.nSquared)
    return Error{ErrorKind::Internal, "not a ciphertext of this key: outside (0, n²)", {}, 0, "ciphertext"};
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), c.value.get_mpz_t(), key.n.get_mpz_t());
  if (g != 1) return Error{ErrorKind::Internal, "not a ciphertext of this key: shares a factor with n", {}, 0, "ciphertext"};
  return Ok{};
}

Result<mpz_class> decrypt(const PaillierPrivateKey& key, const Ciphertext& c) {
  if (auto valid = checkCiphertext(key.publicKey, c); !valid) return valid.error();
  const mpz_class mp = mod(lFunction(powSecret(mod(c.value, key.pSquared), key.p - 1, key.pSquared), key.p) * key.hp, key.p);
  const mpz_class mq = mod(lFunction(powSecret(mod(c.value, key.qSquared), key.q - 1, key.qSquared), key.q) * key.hq, key.q);
  // m = mq + q·((mp − mq)·q^(−1) mod p), in [0, n).
  return mpz_class(mq + key.q * mod((mp - mq) * key.qInverseModP, key.p));
}

Ciphertext add(const PaillierPublicKey& key, const Ciphertext& a, const Ciphertext& b) {
  return Ciphertext{mod(a.value * b.value, key.nSquared)};
}

Ciphertext addPlain(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& k) {
  return Ciphertext{mod(a.value * (1 + mod(k, key.n) * key.n), key.nSquared)};
}

Ciphertext multiplyPlain(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& k) {
  const mpz_class exponent = mod(k, key.n);
  if (exponent == 0) return Ciphertext{1};
  return Ciphertext{powSecret(a.value, exponent, key.nSquared)};
}

Ciphertext negate(const PaillierPublicKey& key, const Ciphertext& a) {
  return Ciphertext{inverse(a.value, key.nSquared)};
}

Ciphertext rerandomize(const PaillierPublicKey& key, const Ciphertext& a, RandomBytes& random) {
  return rerandomizeWithNonce(key, a, randomUnit(random, key.n));
}

Ciphertext rerandomizeWithNonce(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& r) {
  mpz_class rn;
  mpz_powm(rn.get_mpz_t(), r.get_mpz_t(), key.n.get_mpz_t(), key.nSquared.get_mpz_t());
  return Ciphertext{mod(a.value * rn, key.nSquared)};
}

}  // namespace dpstudio::crypto
