#include "core/privacy/noise_source.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_int_distribution.hpp>

namespace dpstudio::privacy {
namespace {

// Fills `size` bytes from getrandom(2), retrying EINTR and short reads. Returns 0 on
// success, else the errno of the failure.
int fillFromOs(unsigned char* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = getrandom(out + done, size - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<std::size_t>(got);
  }
  return 0;
}

// A UniformRandomBitGenerator over a NoiseSource, so Boost.Random's distributions (the same
// algorithms the experiment source uses) can run on the OS bytes.
struct SourceBits {
  using result_type = std::uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() { return source->nextU64(); }
  NoiseSource* source;
};

}  // namespace

std::string NoiseProvenance::kindName() const {
  return kind == NoiseKind::Experiment ? "experiment" : "release";
}

std::string NoiseProvenance::describe() const {
  if (kind == NoiseKind::Release) return "release (OS CSPRNG, getrandom)";
  std::string text = "experiment (seed " + std::to_string(seed);
  if (trial) text += ", trial " + std::to_string(*trial);
  return text + ")";
}

std::optional<NoiseKind> parseNoiseKind(const std::string& name) {
  if (name == "experiment") return NoiseKind::Experiment;
  if (name == "release") return NoiseKind::Release;
  return std::nullopt;
}

ExperimentNoise::ExperimentNoise(std::uint64_t seed)
    : rng_(seed), provenance_{NoiseKind::Experiment, seed, std::nullopt} {}

ExperimentNoise::ExperimentNoise(std::uint64_t masterSeed, std::uint64_t trialIndex)
    : rng_(Rng::forTrial(masterSeed, trialIndex)),
      provenance_{NoiseKind::Experiment, masterSeed, trialIndex} {}

ReleaseNoise::ReleaseNoise() : provenance_{NoiseKind::Release, 0, std::nullopt} {}

ReleaseNoise::~ReleaseNoise() {
  // Unused bytes would be the noise of a later release; do not leave them in freed memory.
  volatile unsigned char* bytes = reinterpret_cast<volatile unsigned char*>(buffer_);
  for (std::size_t i = 0; i < sizeof buffer_; ++i) bytes[i] = 0;
}

Result<std::unique_ptr<ReleaseNoise>> ReleaseNoise::create() {
  std::unique_ptr<ReleaseNoise> source(new ReleaseNoise());
  const int error = fillFromOs(reinterpret_cast<unsigned char*>(source->buffer_),
                               sizeof source->buffer_);
  if (error != 0)
    return Error{ErrorKind::Internal,
                 std::string("the OS random source (getrandom) is unavailable: ") +
                     std::strerror(error) + "; release-mode noise cannot be drawn",
                 {}, 0, "noise"};
  source->next_ = 0;
  return source;
}

void ReleaseNoise::refill() {
  const int error = fillFromOs(reinterpret_cast<unsigned char*>(buffer_), sizeof buffer_);
  if (error != 0) {
    std::fprintf(stderr, "dpstudio: fatal: getrandom failed while drawing release noise: %s\n",
                 std::strerror(error));
    std::abort();
  }
  next_ = 0;
}

std::uint64_t ReleaseNoise::nextU64() {
  if (next_ == kBufferWords) refill();
  const std::uint64_t value = buffer_[next_];
  buffer_[next_++] = 0;  // each buffered word is handed out once
  return value;
}

double ReleaseNoise::uniform01() {
  return static_cast<double>(nextU64() >> 11) * 0x1.0p-53;
}

double ReleaseNoise::normal() {
  SourceBits bits{this};
  return boost::random::normal_distribution<double>(0.0, 1.0)(bits);
}

double ReleaseNoise::gamma(double shape, double scale) {
  SourceBits bits{this};
  return boost::random::gamma_distribution<double>(shape, scale)(bits);
}

std::uint64_t ReleaseNoise::uniformIndex(std::uint64_t n) {
  SourceBits bits{this};
  return boost::random::uniform_int_distribution<std::uint64_t>(0, n - 1)(bits);
}

Result<std::unique_ptr<NoiseSource>> makeNoiseSource(NoiseKind kind, std::uint64_t seed) {
  if (kind == NoiseKind::Experiment) return std::unique_ptr<NoiseSource>(new ExperimentNoise(seed));
  auto release = ReleaseNoise::create();
  if (!release) return release.error();
  return std::unique_ptr<NoiseSource>(std::move(release).value());
}

}  // namespace dpstudio::privacy
