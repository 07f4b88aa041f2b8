#include "core/util/parallel.h"

#include <atomic>
#include <thread>
#include <vector>

namespace dpstudio {
namespace {

int hardwareThreads() { return std::max(1u, std::thread::hardware_concurrency()); }

std::atomic<int>& threadSetting() {
  static std::atomic<int> setting{hardwareThreads()};
  return setting;
}

thread_local int threadOverride = 0;  // 0: use the global setting

}  // namespace

int workerThreads() {
  return threadOverride > 0 ? threadOverride : threadSetting().load(std::memory_order_relaxed);
}

ScopedWorkerThreads::ScopedWorkerThreads(int threads) : previous_(threadOverride) {
  threadOverride = std::max(1, threads);
}

ScopedWorkerThreads::~ScopedWorkerThreads() { threadOverride = previous_; }

void setWorkerThreads(int threads) {
  threadSetting().store(threads < 1 ? hardwareThreads() : threads, std::memory_order_relaxed);
}

void parallelFor(Eigen::Index chunks, const std::function<void(Eigen::Index)>& body) {
  const int threads = static_cast<int>(std::min<Eigen::Index>(workerThreads(), chunks));
  if (threads <= 1) {
    for (Eigen::Index c = 0; c < chunks; ++c) body(c);
    return;
  }
  std::atomic<Eigen::Index> next{0};
  auto worker = [&] {
    for (Eigen::Index c = next++; c < chunks; c = next++) body(c);
  };
  std::vector<std::jthread> pool;
  pool.reserve(static_cast<std::size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
}

}  // namespace dpstudio
