#include "ui/jobs/job.h"

#include <algorithm>
#include <utility>

namespace dpstudio::ui {
namespace detail {

JobChannel::JobChannel(JobHandle* receiver, int maxUpdatesPerSecond)
    : receiver_(receiver),
      minIntervalNs_(maxUpdatesPerSecond > 0 ? 1'000'000'000LL / maxUpdatesPerSecond : 0) {
  clock_.start();
}

void JobChannel::reportProgress(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  std::lock_guard lock(mutex_);
  if (!receiver_) return;
  const qint64 now = clock_.nsecsElapsed();
  // Throttle: a GUI repaints at most every few tens of milliseconds, and a worker that
  // reports every row would otherwise flood the event queue.
  const bool due = lastReportNs_ < 0 || now - lastReportNs_ >= minIntervalNs_;
  const bool reachedEnd = fraction >= 1.0 && lastFraction_ < 1.0;
  if (!due && !reachedEnd) return;
  if (fraction == lastFraction_) return;
  lastReportNs_ = now;
  lastFraction_ = fraction;
  pending_.fraction = fraction;
  wakeReceiverLocked();
}

void JobChannel::post(std::function<void(JobHandle*)> deliver) {
  std::lock_guard lock(mutex_);
  if (!receiver_) return;
  pending_.delivery = std::move(deliver);
  wakeReceiverLocked();
}

void JobChannel::wakeReceiverLocked() {
  if (wakePosted_) return;  // one wake-up drains everything left before it runs
  wakePosted_ = true;
  // Posting under the lock: a handle being destroyed waits for the lock in detach(), and
  // its QObject destructor then discards this event along with any other posted to it.
  QMetaObject::invokeMethod(receiver_, "drainChannel", Qt::QueuedConnection);
}

JobChannel::Pending JobChannel::take() {
  std::lock_guard lock(mutex_);
  wakePosted_ = false;
  return std::exchange(pending_, Pending{});
}

void JobChannel::detach() {
  std::lock_guard lock(mutex_);
  receiver_ = nullptr;
}

}  // namespace detail

JobHandle::JobHandle(QString title, int maxUpdatesPerSecond, QObject* parent)
    : QObject(parent),
      title_(std::move(title)),
      channel_(std::make_shared<detail::JobChannel>(this, maxUpdatesPerSecond)) {
  timer_.start();
}

JobHandle::~JobHandle() {
  stop_.requestStop();
  channel_->detach();
}

QString JobHandle::errorText() const { return QString::fromStdString(error_.toString()); }

qint64 JobHandle::elapsedMs() const { return elapsedMs_ >= 0 ? elapsedMs_ : timer_.elapsed(); }

void JobHandle::cancel() {
  if (isRunning()) stop_.requestStop();
}

Progress JobHandle::makeProgress() const {
  return Progress([channel = channel_](double fraction) { channel->reportProgress(fraction); },
                  stop_);
}

void JobHandle::drainChannel() {
  auto pending = channel_->take();
  if (pending.fraction) setProgress(*pending.fraction);
  if (pending.delivery) pending.delivery(this);
}

void JobHandle::setProgress(double fraction) {
  if (!isRunning() || fraction == progress_) return;
  progress_ = fraction;
  emit progressChanged(fraction);
}

void JobHandle::complete(bool ok, const Error* error) {
  if (!isRunning()) return;
  elapsedMs_ = timer_.elapsed();
  if (stop_.stopRequested() || (!ok && error && error->kind == ErrorKind::Cancelled)) {
    state_ = State::Cancelled;
    emit cancelled();
  } else if (!ok) {
    state_ = State::Failed;
    if (error) error_ = *error;
    emit failed(errorText());
  } else {
    setProgress(1.0);
    state_ = State::Succeeded;
    emit succeeded();
  }
  emit finished(state_);
}

}  // namespace dpstudio::ui
