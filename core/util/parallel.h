#pragma once
// Deterministic data parallelism. Work is cut into a fixed number of chunks that does not
// depend on the thread count, each chunk writes its own partial result, and the caller
// combines partials in chunk order — so a sum over rows gives the same bits with 1 thread
// or 8. (Eigen's own OpenMP GEMM picks block sizes from the thread count, which would not.)

#include <functional>

#include <Eigen/Core>

namespace dpstudio {

// Threads used by parallelFor; default: the hardware's concurrency. Sweeps set 1 inside
// each trial and run trials in parallel instead.
int workerThreads();
void setWorkerThreads(int threads);  // < 1 resets to the hardware default

// Within its scope, parallelFor on this thread uses `threads` threads (a sweep trial: 1).
class ScopedWorkerThreads {
 public:
  explicit ScopedWorkerThreads(int threads);
  ~ScopedWorkerThreads();
  ScopedWorkerThreads(const ScopedWorkerThreads&) = delete;
  ScopedWorkerThreads& operator=(const ScopedWorkerThreads&) = delete;

 private:
  int previous_;
};

// Calls body(chunk) for chunk in [0, chunks), spread over workerThreads() threads.
void parallelFor(Eigen::Index chunks, const std::function<void(Eigen::Index chunk)>& body);

// Row ranges of a fixed size, so the partition of n rows depends only on n.
struct RowChunks {
  static constexpr Eigen::Index kRows = 2048;
  Eigen::Index n;
  Eigen::Index count() const { return n == 0 ? 0 : (n + kRows - 1) / kRows; }
  Eigen::Index begin(Eigen::Index chunk) const { return chunk * kRows; }
  Eigen::Index size(Eigen::Index chunk) const { return std::min(kRows, n - chunk * kRows); }
};

}  // namespace dpstudio
