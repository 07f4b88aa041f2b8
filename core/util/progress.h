#pragma once
// Progress and cancellation without threads in the numerics: long work takes a
// Progress, reports the fraction done, and stops early when asked. The ui/ adapter turns
// these calls into Qt signals; the CLI passes an empty one.

#include <atomic>
#include <functional>
#include <memory>

namespace dpstudio {

// A flag any thread may raise; copies share the flag.
class StopToken {
 public:
  StopToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void requestStop() const { flag_->store(true, std::memory_order_relaxed); }
  bool stopRequested() const { return flag_->load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

class Progress {
 public:
  using Callback = std::function<void(double fraction)>;

  Progress() = default;
  explicit Progress(Callback callback, StopToken stop = {})
      : callback_(std::move(callback)), stop_(std::move(stop)) {}

  // fraction in [0, 1]; thread-safe as long as the callback is.
  void report(double fraction) const {
    if (callback_) callback_(fraction);
  }
  bool cancelled() const { return stop_.stopRequested(); }
  const StopToken& stopToken() const { return stop_; }

 private:
  Callback callback_;
  StopToken stop_;
};

}  // namespace dpstudio
