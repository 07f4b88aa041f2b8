#pragma once
// Exact Bernoulli draws for the exponential mechanism (docs/algorithms.md §1.2 "Randomness": "the
// exponential mechanism in floating point needs the same care: it is sampled exactly").
//
// Why: the float sampler (one uniform U·Σ against cumulative weights) can only resolve
// probabilities down to ~2⁻⁵³ of the total: a candidate whose weight is below that is never
// returned, although the mechanism's proof gives it a positive probability. That is a
// cutoff, i.e. an unstated δ. Here nothing is rounded into a probability: every decision is
// a comparison of fresh random bits against the exact binary expansion of a rational
// number, so a candidate of relative weight 2⁻⁶⁰ (or 2⁻¹⁰⁰⁰) is returned with exactly that
// probability.
//
// Method (Canonne, Kamath & Steinke 2020, "The discrete Gaussian for differential privacy",
// Alg. 1): Bernoulli(exp(−γ)) for γ ∈ [0, 1] is "draw A_k ~ Bernoulli(γ/k) for k = 1, 2, …
// until one is 0; succeed iff that k is odd"; for γ > 1 it is ⌊γ⌋ successes of
// Bernoulli(exp(−1)) followed by Bernoulli(exp(−(γ − ⌊γ⌋))). Every Bernoulli(γ/k) uses the
// fact that a double γ is an exact dyadic rational m·2⁻ˢ: γ/k = (m/k)·2⁻ˢ, whose binary
// digits come from integer long division, compared lazily against random bits (2 bits
// expected per draw). The bits come from the run's NoiseSource (experiment: the seeded
// portable engine, so draws replay from the seed; release: the OS CSPRNG).

#include <cstdint>

#include "core/privacy/noise_source.h"

namespace dpstudio::privacy {

// Fair bits from a NoiseSource, 64 per word, most significant bit first. Bits left in the
// current word are dropped with the reader (each word is handed out once anyway).
class RandomBits {
 public:
  explicit RandomBits(NoiseSource& source) : source_(source) {}
  bool next();

 private:
  NoiseSource& source_;
  std::uint64_t word_ = 0;
  int left_ = 0;
};

// True with probability exactly (m/k)·2⁻ˢ (clamped to 1); k ≥ 1, s ≥ 0.
bool bernoulliDyadic(RandomBits& bits, std::uint64_t m, std::uint64_t k, int s);

// True with probability exactly exp(−γ) for the double γ ≥ 0 (γ = +∞ gives false).
// NaN or negative γ is a programming error: it returns false.
bool bernoulliExpMinus(RandomBits& bits, double gamma);

}  // namespace dpstudio::privacy
