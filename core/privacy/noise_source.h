#pragma once
// Where privacy noise comes from (docs/algorithms.md §1.2 "Randomness"). Two sources, chosen per run
// and recorded with every result:
//
//  - experiment: a seeded, portable engine (dpstudio::Rng, Boost.Random distributions over
//    mt19937_64), so a sweep replays bit for bit on any machine and thread count. Each trial
//    owns its source, made from (master seed, trial index). Not for models that are
//    released: anyone who knows the seed can subtract the noise.
//  - release: the operating system's CSPRNG through getrandom(2), with the same samplers
//    (Boost.Random distributions) driven by its bytes. Unseedable by design. Released
//    parameters must also be rounded to a grid (release_granularity.h).
//
// A source is NOT thread-safe: give each thread or trial its own. Sources can be neither
// copied nor moved, because a copy would hand out the same noise twice.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/random/rng.h"
#include "core/util/result.h"

namespace dpstudio::privacy {

enum class NoiseKind { Experiment, Release };

// What produced a result's noise, for reports and bundles.
struct NoiseProvenance {
  NoiseKind kind = NoiseKind::Experiment;
  std::uint64_t seed = 0;              // experiment: the (master) seed; release: unused
  std::optional<std::uint64_t> trial;  // experiment: the trial index, when made per trial

  std::string kindName() const;  // "experiment" or "release"
  // "experiment (seed 42)", "experiment (seed 42, trial 3)", "release (OS CSPRNG, getrandom)".
  std::string describe() const;
};

// "experiment" or "release" (case-sensitive), as on the command line.
std::optional<NoiseKind> parseNoiseKind(const std::string& name);

class NoiseSource {
 public:
  virtual ~NoiseSource() = default;
  NoiseSource(const NoiseSource&) = delete;
  NoiseSource& operator=(const NoiseSource&) = delete;

  virtual std::uint64_t nextU64() = 0;                     // 64 uniform bits
  virtual double uniform01() = 0;                          // in [0, 1), 53 random bits
  virtual double normal() = 0;                             // N(0, 1)
  virtual double gamma(double shape, double scale) = 0;     // shape, scale > 0; mean shape·scale
  virtual std::uint64_t uniformIndex(std::uint64_t n) = 0;  // in [0, n), unbiased; n > 0
  virtual const NoiseProvenance& provenance() const = 0;

  NoiseKind kind() const { return provenance().kind; }

 protected:
  NoiseSource() = default;
};

class ExperimentNoise final : public NoiseSource {
 public:
  explicit ExperimentNoise(std::uint64_t seed);
  // The stream of trial `index` of a run seeded with `masterSeed` (Rng::forTrial).
  ExperimentNoise(std::uint64_t masterSeed, std::uint64_t trialIndex);

  std::uint64_t nextU64() override { return rng_.nextU64(); }
  double uniform01() override { return rng_.uniform01(); }
  double normal() override { return rng_.normal(); }
  double gamma(double shape, double scale) override { return rng_.gamma(shape, scale); }
  std::uint64_t uniformIndex(std::uint64_t n) override { return rng_.uniformIndex(n); }
  const NoiseProvenance& provenance() const override { return provenance_; }

 private:
  Rng rng_;
  NoiseProvenance provenance_;
};

class ReleaseNoise final : public NoiseSource {
 public:
  // Checks that getrandom(2) works (kernel ≥ 3.17, not blocked by a sandbox) and returns an
  // Internal error naming the errno otherwise. There is no fallback to a weaker source.
  static Result<std::unique_ptr<ReleaseNoise>> create();
  ~ReleaseNoise() override;  // wipes the unread buffered bytes

  // A getrandom failure after create() succeeded (practically impossible: with flags 0 the
  // call only blocks until the kernel pool is seeded, and EINTR and short reads are retried)
  // prints the reason to stderr and aborts the process, as libsodium does: a draw cannot
  // return an error, and returning weaker or constant bits would silently break privacy.
  std::uint64_t nextU64() override;
  double uniform01() override;
  double normal() override;
  double gamma(double shape, double scale) override;
  std::uint64_t uniformIndex(std::uint64_t n) override;
  const NoiseProvenance& provenance() const override { return provenance_; }

 private:
  ReleaseNoise();
  void refill();

  static constexpr int kBufferWords = 32;  // 256 bytes: one getrandom call, never short
  std::uint64_t buffer_[kBufferWords] = {};
  int next_ = kBufferWords;
  NoiseProvenance provenance_;
};

// The source for a run: experiment(seed) or release (seed ignored).
Result<std::unique_ptr<NoiseSource>> makeNoiseSource(NoiseKind kind, std::uint64_t seed);

}  // namespace dpstudio::privacy
