#pragma once
// The Paillier cryptosystem (Paillier 1999; paper 004 ref. [11]) with g = n + 1:
//   Enc(m; r) = (1 + m·n)·r^n mod n²,   m ∈ Z_n, r ∈ Z_n^* fresh for every ciphertext,
//   Dec(c)    = m, computed by CRT over p² and q² (Paillier §7) with the secret exponents
//               p−1 and q−1 under mpz_powm_sec (constant time in the exponent and modulus).
// Homomorphisms: Enc(a)·Enc(b) = Enc(a + b), Enc(a)^k = Enc(k·a), Enc(a)^(−1) = Enc(−a)
// (all mod n). Plaintexts are residues mod n; signed and real values go through
// fixed_point.h, which refuses what would wrap.
//
// Key sizes: the product refuses moduli below kMinimumKeyBits (2048, NIST SP 800-57's
// 112-bit level). KeyStrength::TestOnlyShort lets the test suites use 256–1024-bit keys for
// speed; nothing outside tests may pass it.
//
// Thread-safety: keys and ciphertexts are values; every function is reentrant.

#include <gmpxx.h>

#include "core/crypto/secure_random.h"
#include "core/util/result.h"

namespace dpstudio::crypto {

inline constexpr unsigned kMinimumKeyBits = 2048;
inline constexpr unsigned kMinimumTestKeyBits = 256;
// Miller–Rabin rounds on top of GMP's BPSW test: error probability ≤ 4^-40 per prime.
inline constexpr int kPrimalityRounds = 40;

enum class KeyStrength {
  Production,     // n ≥ 2048 bits
  TestOnlyShort,  // n ≥ 256 bits: for test speed only, never for a release
};

struct PaillierPublicKey {
  mpz_class n;         // the modulus pq
  mpz_class nSquared;  // n², the ciphertext modulus
  unsigned bits() const { return static_cast<unsigned>(mpz_sizeinbase(n.get_mpz_t(), 2)); }
  bool operator==(const PaillierPublicKey& other) const { return n == other.n; }
};

struct PaillierPrivateKey {
  PaillierPublicKey publicKey;
  mpz_class p, q;                  // the secret primes, p ≠ q, same length
  mpz_class pSquared, qSquared;
  mpz_class hp, hq;                // L_p(g^(p−1) mod p²)^(−1) mod p, and the same for q
  mpz_class qInverseModP;          // for the CRT recombination
};

struct Ciphertext {
  mpz_class value;  // in Z_{n²}^*
  bool operator==(const Ciphertext& other) const { return value == other.value; }
};

// A fresh key pair of exactly `bits` bits (even, ≥ 2048; ≥ 256 with TestOnlyShort): primes
// p, q of bits/2 bits with their two top bits set (so pq has exactly `bits` bits), found by
// mpz_nextprime from CSPRNG starting points and confirmed by mpz_probab_prime_p;
// |p − q| ≥ 2^(bits/2 − 100) (Fermat's factoring needs them close); gcd(n, (p−1)(q−1)) = 1.
// Errors (InvalidPrivacy, field "key_bits") name the refused size.
Result<PaillierPrivateKey> generatePaillierKey(unsigned bits, RandomBytes& random,
                                               KeyStrength strength = KeyStrength::Production);

// The key of given primes (known-answer tests): checks primality, p ≠ q and
// gcd(n, (p−1)(q−1)) = 1; with Production also the 2048-bit minimum (TestOnlyShort accepts
// textbook-sized primes, which is the point of a known-answer test).
Result<PaillierPrivateKey> paillierKeyFromPrimes(const mpz_class& p, const mpz_class& q, KeyStrength strength);

// Is `bits` allowed for `strength`? (Error text names the minimum.)
Status checkKeySize(unsigned bits, KeyStrength strength);

// Enc(m) with fresh randomness from `random`. m must be in [0, n).
Result<Ciphertext> encrypt(const PaillierPublicKey& key, const mpz_class& m, RandomBytes& random);
// Enc(m; r) with the caller's r ∈ Z_n^* (known-answer tests; never reuse an r).
Result<Ciphertext> encryptWithNonce(const PaillierPublicKey& key, const mpz_class& m, const mpz_class& r);
// Checks that c is a ciphertext of this key (0 < c < n², gcd(c, n) = 1): every ciphertext
// that arrives in a message passes here first.
Status checkCiphertext(const PaillierPublicKey& key, const Ciphertext& c);
// m ∈ [0, n); refuses what checkCiphertext refuses.
Result<mpz_class> decrypt(const PaillierPrivateKey& key, const Ciphertext& c);

Ciphertext add(const PaillierPublicKey& key, const Ciphertext& a, const Ciphertext& b);
// v mod m in [0, m) for any sign of v (GMP's mpz_mod).
mpz_class reduceMod(const mpz_class& v, const mpz_class& m);

// Enc(a + k) from Enc(a) and a public or own integer k (any sign; reduced mod n). Cheap:
// one multiplication by (1 + k·n).
Ciphertext addPlain(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& k);
// Enc(k·a) for an integer k (any sign, reduced mod n), through mpz_powm_sec: k may be
// secret. k ≡ 0 gives Enc(0) with randomness 1: re-randomize before sending it.
Ciphertext multiplyPlain(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& k);
Ciphertext negate(const PaillierPublicKey& key, const Ciphertext& a);
// The same plaintext under fresh randomness: c·r^n mod n².
Ciphertext rerandomize(const PaillierPublicKey& key, const Ciphertext& a, RandomBytes& random);
// The same with the caller's r ∈ Z_n^* (drawn beforehand, so that the exponentiations can run
// in parallel while the randomness is drawn on one thread).
Ciphertext rerandomizeWithNonce(const PaillierPublicKey& key, const Ciphertext& a, const mpz_class& r);

}  // namespace dpstudio::crypto
