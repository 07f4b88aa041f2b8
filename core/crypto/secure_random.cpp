#include "core/crypto/secure_random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace dpstudio::crypto {

void OsRandom::fill(unsigned char* out, std::size_t count) {
  std::size_t done = 0;
  while (done < count) {
    const ssize_t got = getrandom(out + done, count - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      std::fprintf(stderr, "dpstudio: getrandom failed (%s): refusing to continue without a CSPRNG\n",
                   std::strerror(errno));
      std::abort();
    }
    done += static_cast<std::size_t>(got);
  }
}

mpz_class randomBits(RandomBytes& random, unsigned bits) {
  if (bits == 0) return 0;
  std::vector<unsigned char> bytes((bits + 7) / 8);
  random.fill(bytes.data(), bytes.size());
  const unsigned extra = static_cast<unsigned>(bytes.size() * 8 - bits);
  bytes[0] &= static_cast<unsigned char>(0xFFu >> extra);  // big-endian: the top byte carries the excess
  mpz_class out;
  mpz_import(out.get_mpz_t(), bytes.size(), 1, 1, 1, 0, bytes.data());
  std::fill(bytes.begin(), bytes.end(), 0);
  return out;
}

mpz_class randomBelow(RandomBytes& random, const mpz_class& bound) {
  const unsigned bits = static_cast<unsigned>(mpz_sizeinbase(bound.get_mpz_t(), 2));
  for (;;) {  // each try succeeds with probability > 1/2
    mpz_class candidate = randomBits(random, bits);
    if (candidate < bound) return candidate;
  }
}

mpz_class randomUnit(RandomBytes& random, const mpz_class& n) {
  for (;;) {
    mpz_class candidate = randomBelow(random, n);
    if (candidate == 0) continue;
    mpz_class g;
    mpz_gcd(g.get_mpz_t(), candidate.get_mpz_t(), n.get_mpz_t());
    if (g == 1) return candidate;
  }
}

std::vector<std::size_t> randomPermutation(RandomBytes& random, std::size_t count) {
  std::vector<std::size_t> perm(count);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  for (std::size_t i = count; i > 1; --i) {
    const mpz_class j = randomBelow(random, mpz_class(static_cast<unsigned long>(i)));
    std::swap(perm[i - 1], perm[j.get_ui()]);
  }
  return perm;
}

}  // namespace dpstudio::crypto
