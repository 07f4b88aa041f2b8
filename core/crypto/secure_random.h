#pragma once
// Where the cryptographic randomness comes from. The product uses OsRandom only (the
// kernel's CSPRNG through getrandom(2)); the interface exists so that known-answer tests can
// inject fixed bytes. GMP's own randstate is never used: it is a PRNG that would have to be
// seeded, and a fixed or guessable seed would break every key and ciphertext.
//
// Thread-safety: OsRandom is stateless and may be shared; test doubles are not.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpstudio::crypto {

class RandomBytes {
 public:
  virtual ~RandomBytes() = default;
  virtual void fill(unsigned char* out, std::size_t count) = 0;
};

// getrandom(2) with flags 0: blocks only until the kernel pool is seeded; EINTR and short
// reads are retried. Any other failure prints the reason and aborts the process (as
// privacy::ReleaseNoise does): returning weak or constant bytes would silently break keys.
class OsRandom final : public RandomBytes {
 public:
  void fill(unsigned char* out, std::size_t count) override;
};

// Uniform in [0, 2^bits).
mpz_class randomBits(RandomBytes& random, unsigned bits);
// Uniform in [0, bound) by rejection sampling (bound > 0): no modulo bias.
mpz_class randomBelow(RandomBytes& random, const mpz_class& bound);
// Uniform in Z_n^* = {x in [1, n) : gcd(x, n) = 1}.
mpz_class randomUnit(RandomBytes& random, const mpz_class& n);
// A uniformly random permutation of 0..count-1 (Fisher–Yates with unbiased indices):
// perm[k] is the source index placed at position k.
std::vector<std::size_t> randomPermutation(RandomBytes& random, std::size_t count);

}  // namespace dpstudio::crypto
