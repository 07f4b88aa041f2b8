#pragma once
// The experiment-mode random source: a seeded, portable engine whose draws are the same
// on every platform, standard library and thread count. std:: distributions are not
// portable (their algorithms are unspecified), so every distribution here is Boost.Random's
// or written out on the engine. Each trial of a sweep owns one Rng made from
// Rng::forTrial(masterSeed, trialIndex), so results do not depend on scheduling.

#include <cstdint>
#include <vector>

#include <boost/random/mersenne_twister.hpp>

namespace dpstudio {

// SplitMix64 finalizer: spreads nearby seeds (0, 1, 2 …) over the whole 64-bit space.
std::uint64_t mixSeed(std::uint64_t value);

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  // A child stream for trial `index` of a run seeded with `masterSeed`.
  static Rng forTrial(std::uint64_t masterSeed, std::uint64_t index);

  std::uint64_t nextU64() { return engine_(); }
  double uniform01();                         // in [0, 1), 53 random bits
  double uniform(double lo, double hi);       // in [lo, hi)
  std::uint64_t uniformIndex(std::uint64_t n);  // in [0, n), unbiased; n > 0
  double normal();                            // N(0, 1)
  double gamma(double shape, double scale);   // Gamma(shape, scale), mean shape·scale

  // Fisher–Yates with unbiased indices, so a shuffle replays everywhere.
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t i = items.size(); i > 1; --i) {
      const auto j = static_cast<std::size_t>(uniformIndex(i));
      std::swap(items[i - 1], items[j]);
    }
  }

  boost::random::mt19937_64& engine() { return engine_; }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace dpstudio
