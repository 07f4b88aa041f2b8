#include "core/util/parallel.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

// oneTBB's work-stealing pool: one set of worker threads for the whole process, and nested
// parallelism (a sweep's trials in parallel, each evaluating an objective in parallel)
// without oversubscription — a waiting parallel_for runs other tasks instead of blocking.
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

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
  static std::mutex mutex;
  static std::unique_ptr<tbb::global_control> limit;
  const int count = threads < 1 ? hardwareThreads() : threads;
  std::lock_guard lock(mutex);
  threadSetting().store(count, std::memory_order_relaxed);
  limit.reset();  // one global_control at a time: the new limit replaces the old one
  limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                static_cast<std::size_t>(count));
}

void parallelFor(Eigen::Index chunks, const std::function<void(Eigen::Index)>& body) {
  if (workerThreads() <= 1 || chunks <= 1) {
    for (Eigen::Index c = 0; c < chunks; ++c) body(c);
    return;
  }
  // Grain 1: chunks are already the unit of work; which thread runs a chunk never changes
  // what it computes, so the result is the same for any schedule.
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, chunks, 1), [&](const tbb::blocked_range<Eigen::Index>& range) {
    for (Eigen::Index c = range.begin(); c != range.end(); ++c) body(c);
  });
}

}  // namespace dpstudio
