#include "ui/jobs/background_priority.h"

#include <oneapi/tbb/task_scheduler_observer.h>

#include <thread>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace dpstudio::ui {
namespace {

constexpr int kBackgroundNice = 5;

class WorkerPriorityObserver : public tbb::task_scheduler_observer {
 public:
  WorkerPriorityObserver() : gui_(std::this_thread::get_id()) { observe(true); }
  void on_scheduler_entry(bool) override {
    if (std::this_thread::get_id() != gui_) lowerThisThreadsPriority();
  }

 private:
  std::thread::id gui_;
};

}  // namespace

void lowerThisThreadsPriority() {
#ifdef __linux__
  thread_local bool lowered = false;
  if (lowered) return;
  lowered = true;
  // PRIO_PROCESS with a thread id sets that thread's nice value alone (Linux, setpriority(2)).
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  const int current = ::getpriority(PRIO_PROCESS, tid);
  if (current < kBackgroundNice) ::setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

void lowerWorkerThreadsPriority() {
  static WorkerPriorityObserver observer;  // lives as long as the process
}

}  // namespace dpstudio::ui
