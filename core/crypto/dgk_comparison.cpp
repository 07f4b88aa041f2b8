#include "core/crypto/dgk_comparison.h"

#include <algorithm>
#include <string>

#include "core/util/parallel.h"

namespace dpstudio::crypto {
namespace {

Error comparisonError(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "comparison"}; }

bool inRange(const mpz_class& v, unsigned bits) {
  return v >= 0 && mpz_sizeinbase(v.get_mpz_t(), 2) <= bits;
}

Status checkKeyFits(const PaillierPublicKey& key, unsigned bits) {
  // |c_i| ≤ 2 + 3(ℓ + 1) ≪ 2^(ℓ+4) < n: no c_i can be ≡ 0 (mod n) without being 0.
  if (key.bits() <= bits + 4) return comparisonError("the comparison key is too short for " + std::to_string(bits) + "-bit inputs");
  return Ok{};
}

}  // namespace

Result<std::vector<Ciphertext>> dgkKeyHolderBits(const PaillierPublicKey& key, const mpz_class& y, unsigned bits,
                                                 RandomBytes& random) {
  if (auto fits = checkKeyFits(key, bits); !fits) return fits.error();
  if (!inRange(y, bits)) return comparisonError("the key holder's comparison input is outside [0, 2^" + std::to_string(bits) + ")");
  const mpz_class shifted = 2 * y + 1;
  // Nonces drawn here on one thread (a RandomBytes need not be thread-safe); the
  // exponentiations r^n mod n², the cost, run in parallel.
  std::vector<mpz_class> nonces;
  for (unsigned i = 0; i <= bits; ++i) nonces.push_back(randomUnit(random, key.n));
  std::vector<Ciphertext> out(bits + 1);
  parallelFor(static_cast<Eigen::Index>(bits + 1), [&](Eigen::Index i) {
    const mpz_class bit = mpz_tstbit(shifted.get_mpz_t(), static_cast<mp_bitcnt_t>(i));
    out[static_cast<std::size_t>(i)] = rerandomizeWithNonce(key, Ciphertext{1 + bit * key.n}, nonces[static_cast<std::size_t>(i)]);
  });
  return out;
}

Result<DgkEvaluation> dgkEvaluate(const PaillierPublicKey& key, const mpz_class& x, unsigned bits,
                                  const std::vector<Ciphertext>& encryptedBits, RandomBytes& random) {
  if (auto fits = checkKeyFits(key, bits); !fits) return fits.error();
  if (!inRange(x, bits)) return comparisonError("the evaluator's comparison input is outside [0, 2^" + std::to_string(bits) + ")");
  if (encryptedBits.size() != bits + 1)
    return comparisonError("expected " + std::to_string(bits + 1) + " encrypted bits, received " +
                           std::to_string(encryptedBits.size()));
  for (const Ciphertext& c : encryptedBits)
    if (auto valid = checkCiphertext(key, c); !valid) return valid.error();

  const mpz_class shifted = 2 * x;
  unsigned char coin = 0;
  random.fill(&coin, 1);
  DgkEvaluation out;
  out.shareA = (coin & 1u) != 0;
  const long s = out.shareA ? -1 : 1;

  // From the top bit down, carrying Enc(Σ_{j>i} x'_j ⊕ y'_j): cheap products.
  std::vector<Ciphertext> values(bits + 1);
  Ciphertext differingAbove{1};  // Enc(0) with randomness 1: only ever combined, never sent
  for (unsigned k = bits + 1; k-- > 0;) {
    const long xBit = mpz_tstbit(shifted.get_mpz_t(), k);
    const Ciphertext minusY = negate(key, encryptedBits[k]);
    // c_k = (s + x'_k) − y'_k + 3·Σ_{j>k}(x'_j ⊕ y'_j)
    Ciphertext c = addPlain(key, minusY, mpz_class(s + xBit));
    c = add(key, c, multiplyPlain(key, differingAbove, 3));
    values[k] = c;
    // x'_k ⊕ y'_k = y'_k if x'_k = 0, 1 − y'_k if x'_k = 1.
    const Ciphertext xorBit = xBit == 0 ? encryptedBits[k] : addPlain(key, minusY, 1);
    differingAbove = add(key, differingAbove, xorBit);
  }
  // r·c_k with r a secret unit, then fresh randomness so that B cannot relate it to his
  // bits: the two exponentiations per value, in parallel (randomness drawn first).
  std::vector<mpz_class> blinds, nonces;
  for (std::size_t k = 0; k < values.size(); ++k) {
    blinds.push_back(randomUnit(random, key.n));
    nonces.push_back(randomUnit(random, key.n));
  }
  parallelFor(static_cast<Eigen::Index>(values.size()), [&](Eigen::Index i) {
    const auto k = static_cast<std::size_t>(i);
    values[k] = rerandomizeWithNonce(key, multiplyPlain(key, values[k], blinds[k]), nonces[k]);
  });
  const std::vector<std::size_t> order = randomPermutation(random, values.size());
  out.blinded.reserve(values.size());
  for (std::size_t k : order) out.blinded.push_back(values[k]);
  return out;
}

Result<bool> dgkKeyHolderZeroTest(const PaillierPrivateKey& key, unsigned bits, const std::vector<Ciphertext>& blinded) {
  if (blinded.size() != bits + 1)
    return comparisonError("expected " + std::to_string(bits + 1) + " blinded comparison values, received " +
                           std::to_string(blinded.size()));
  for (const Ciphertext& c : blinded)
    if (auto valid = checkCiphertext(key.publicKey, c); !valid) return valid.error();
  // Decrypt all of them (in parallel): the time does not depend on where the zero is.
  std::vector<char> isZero(blinded.size(), 0);
  parallelFor(static_cast<Eigen::Index>(blinded.size()), [&](Eigen::Index i) {
    auto m = decrypt(key, blinded[static_cast<std::size_t>(i)]);
    isZero[static_cast<std::size_t>(i)] = m.ok() && m.value() == 0 ? 1 : 0;
  });
  return std::find(isZero.begin(), isZero.end(), 1) != isZero.end();
}

}  // namespace dpstudio::crypto
