#pragma once
// Milliseconds a call, best of `runs` runs of `calls` calls (call k gets k): the benchmarks'
// one timing rule, so that their numbers compare.

#include <algorithm>
#include <chrono>
#include <functional>

namespace dpstudio::bench {

inline double millisecondsPerCall(const std::function<void(int)>& call, int calls, int runs = 3) {
  double best = 1e300;
  for (int run = 0; run < runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) call(k);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                              calls);
  }
  return best;
}

}  // namespace dpstudio::bench
