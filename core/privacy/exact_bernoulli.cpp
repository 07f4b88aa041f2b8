#include "core/privacy/exact_bernoulli.h"

#include <bit>
#include <cmath>
#include <limits>

namespace dpstudio::privacy {

bool RandomBits::next() {
  if (left_ == 0) {
    word_ = source_.nextU64();
    left_ = 64;
  }
  --left_;
  return ((word_ >> left_) & 1u) != 0;
}

bool bernoulliDyadic(RandomBits& bits, std::uint64_t m, std::uint64_t k, int s) {
  if (m == 0) return false;
  // p = q·2⁻ˢ with q = m/k = whole + remainder/k. The digit of p at 2⁻ʲ is the digit of q
  // at 2^(s−j): a bit of `whole` while s − j ≥ 0, then the fractional digits of remainder/k
  // in order (long division). U < p is decided at the first random bit that differs.
  const std::uint64_t whole = m / k;
  std::uint64_t remainder = m % k;
  const int wholeBits = std::bit_width(whole);
  if (wholeBits > s) return true;  // p ≥ 1
  for (int j = 1;; ++j) {
    const int t = s - j;
    bool digit = false;
    if (t >= 0) {
      digit = t < wholeBits && ((whole >> t) & 1u) != 0;
    } else {
      if (remainder == 0) return false;  // p's expansion ended and U matched it so far: U ≥ p
      // remainder < k ≤ 2⁶³ would overflow on doubling only for k > 2⁶³; k is a small count.
      remainder *= 2;
      digit = remainder >= k;
      if (digit) remainder -= k;
    }
    const bool bit = bits.next();
    if (bit != digit) return digit;  // bit 0 under digit 1: U < p
  }
}

namespace {

// exp(−γ) for γ ∈ [0, 1], γ a double: CKS Alg. 1 with γ = m·2⁻ˢ exactly.
bool bernoulliExpMinusUnit(RandomBits& bits, double gamma) {
  std::uint64_t m = 0;
  int s = 0;
  if (gamma > 0.0) {
    int exponent = 0;
    const double fraction = std::frexp(gamma, &exponent);  // γ = f·2^e, f ∈ [0.5, 1)
    m = static_cast<std::uint64_t>(std::ldexp(fraction, 53));  // exact: 53 significant bits
    s = 53 - exponent;
  }
  std::uint64_t k = 1;
  while (bernoulliDyadic(bits, m, k, s)) ++k;
  return k % 2 == 1;
}

}  // namespace

bool bernoulliExpMinus(RandomBits& bits, double gamma) {
  if (!(gamma >= 0.0)) return false;
  if (std::isinf(gamma)) return false;
  const double whole = std::floor(gamma);
  // exp(−⌊γ⌋) as ⌊γ⌋ independent exp(−1) successes; each fails with probability 0.63, so the
  // loop ends after ~1.6 draws whatever ⌊γ⌋ is (a count beyond 2⁶⁴ is never reached).
  const std::uint64_t rounds = whole >= 0x1.0p64 ? std::numeric_limits<std::uint64_t>::max()
                                                  : static_cast<std::uint64_t>(whole);
  for (std::uint64_t i = 0; i < rounds; ++i)
    if (!bernoulliExpMinusUnit(bits, 1.0)) return false;
  return bernoulliExpMinusUnit(bits, gamma - whole);  // exact: a double minus its floor
}

}  // namespace dpstudio::privacy
