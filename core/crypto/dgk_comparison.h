#pragma once
// Secure comparison of two private integers held by two different participants: the DGK
// protocol (Damgård, Geisler & Krøigaard 2007, "Efficient and secure comparison for on-line
// auctions"), with the key holder's bits encrypted under Paillier instead of the DGK
// cryptosystem (the zero test below works for any additively homomorphic scheme whose
// plaintext space has no small zero divisors; Z_n with n = pq does not).
//
// The evaluator A holds x, the key holder B holds y and the Paillier secret key; both are in
// [0, 2^ℓ). The output t = [x ≤ y] is XOR-shared: A gets δ_A, B gets δ_B.
//   1. B sends Enc(y'_i) for the ℓ+1 bits of y' = 2y + 1 (keyHolderBits).
//   2. A uses x' = 2x (x' ≠ y' always, so "<" and ">" exhaust the cases), a random
//      δ_A ∈ {0, 1}, s = 1 − 2δ_A, and computes for every bit position i
//          c_i = s + x'_i − y'_i + 3·Σ_{j>i} (x'_j ⊕ y'_j)
//      under encryption (x'_j ⊕ y'_j is Enc(y'_j) or Enc(1 − y'_j) since A knows x'_j).
//      c_i = 0 exactly at the first differing bit from the top if there x'_i − y'_i = −s,
//      i.e. some c_i is 0 iff x' < y' (δ_A = 0) or x' > y' (δ_A = 1). A multiplies each
//      Enc(c_i) by a random unit r_i (a secret exponent: mpz_powm_sec), re-randomizes, and
//      shuffles them (evaluate).
//   3. B decrypts: δ_B = 1 iff one of them is 0 (keyHolderZeroTest). Then
//      δ_A ⊕ δ_B = [x' < y'] = [x ≤ y].
// B sees only uniformly random units and possibly one zero at a random position; A sees
// only ciphertexts. Whoever should learn t is sent the other share.

#include <cstddef>
#include <vector>

#include "core/crypto/paillier.h"

namespace dpstudio::crypto {

struct DgkEvaluation {
  std::vector<Ciphertext> blinded;  // ℓ + 1 ciphertexts, shuffled
  bool shareA = false;              // δ_A, A's share of [x ≤ y]
};

// Step 1 (B): Enc of the ℓ + 1 bits of 2y + 1, least significant first. Refuses y outside
// [0, 2^ℓ) or a key whose n is not larger than 2^(ℓ+4) (c_i must not wrap).
Result<std::vector<Ciphertext>> dgkKeyHolderBits(const PaillierPublicKey& key, const mpz_class& y, unsigned bits,
                                                 RandomBytes& random);

// Step 2 (A): refuses x outside [0, 2^ℓ) and a bit vector of the wrong length or with a
// value that is not a ciphertext of `key`.
Result<DgkEvaluation> dgkEvaluate(const PaillierPublicKey& key, const mpz_class& x, unsigned bits,
                                  const std::vector<Ciphertext>& encryptedBits, RandomBytes& random);

// Step 3 (B): δ_B = 1 iff one of the blinded values decrypts to 0. Refuses the wrong count.
Result<bool> dgkKeyHolderZeroTest(const PaillierPrivateKey& key, unsigned bits, const std::vector<Ciphertext>& blinded);

}  // namespace dpstudio::crypto
