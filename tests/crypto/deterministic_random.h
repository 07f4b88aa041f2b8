#pragma once
// A seeded byte stream for tests that need reproducible "randomness" (known answers, forced
// coins). NOT a CSPRNG: the product uses crypto::OsRandom only.

#include <cstdint>
#include <random>

#include "core/crypto/secure_random.h"

namespace dpstudio::test {

class DeterministicRandom final : public crypto::RandomBytes {
 public:
  explicit DeterministicRandom(std::uint64_t seed) : engine_(seed) {}
  void fill(unsigned char* out, std::size_t count) override {
    for (std::size_t k = 0; k < count; ++k) out[k] = static_cast<unsigned char>(engine_() & 0xFFu);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace dpstudio::test
