#include "core/random/rng.h"

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace dpstudio {

std::uint64_t mixSeed(std::uint64_t value) {
  value += 0x9E3779B97F4A7C15ULL;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

Rng::Rng(std::uint64_t seed) : engine_(mixSeed(seed)) {}

Rng Rng::forTrial(std::uint64_t masterSeed, std::uint64_t index) {
  return Rng(mixSeed(masterSeed) ^ mixSeed(index + 0x632BE59BD9B4E019ULL));
}

double Rng::uniform01() {
  return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

std::uint64_t Rng::uniformIndex(std::uint64_t n) {
  boost::random::uniform_int_distribution<std::uint64_t> dist(0, n - 1);
  return dist(engine_);
}

double Rng::normal() {
  boost::random::normal_distribution<double> dist(0.0, 1.0);
  return dist(engine_);
}

double Rng::gamma(double shape, double scale) {
  boost::random::gamma_distribution<double> dist(shape, scale);
  return dist(engine_);
}

}  // namespace dpstudio
