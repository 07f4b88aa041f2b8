#pragma once
// The adapter between core's plain progress/stop-token jobs and the Qt event loop.
//
// A core job is a function `Result<T>(const dpstudio::Progress&)`. startJob() runs it on a
// QThreadPool with the inputs it captured (copies, or shared pointers to immutable data:
// the worker never touches GUI-thread state) and returns a Job<T>, a QObject that lives on
// the calling (GUI) thread and reports there through signals:
//
//   progressChanged(fraction)   throttled to at most maxUpdatesPerSecond (default 30)
//   succeeded() | failed(message) | cancelled()   exactly one of them, then
//   finished(state)
//
// The value arrives on the GUI thread inside the Job (value()/takeValue()), never across a
// thread by reference. cancel() raises the job's StopToken; a job whose stop was requested
// ends "Cancelled" even if the work ran to completion, so a cancelled result is never used.
// Cancelled is a termination, not an error: failed() is not emitted for it.
//
// Ownership: the Job is a child of the parent given to startJob(); delete it (deleteLater)
// after finished(). Deleting it while the worker runs requests a stop and detaches it, so
// the late result is dropped. Thread-safety: every member is for the GUI thread only.

#include <QElapsedTimer>
#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "core/util/progress.h"
#include "core/util/result.h"
#include "ui/jobs/background_priority.h"

namespace dpstudio::ui {

class JobHandle;

namespace detail {

// Shared by a JobHandle and its worker. The worker leaves progress and the result here, under
// this channel's mutex, and wakes the handle with an empty queued call of its drain slot; the
// GUI thread then takes them under the same mutex. Nothing the worker built travels through
// Qt's event queue, so the hand-off is a plain mutex a race detector can see (ThreadSanitizer
// cannot see inside Debian's uninstrumented Qt, and reported every posted functor as a race).
// The handle detaches on destruction, after which reports go nowhere.
class JobChannel {
 public:
  JobChannel(JobHandle* receiver, int maxUpdatesPerSecond);

  // Worker side (any thread).
  void reportProgress(double fraction);
  void post(std::function<void(JobHandle*)> deliver);

  // GUI side.
  struct Pending {
    std::optional<double> fraction;               // the latest progress not yet shown
    std::function<void(JobHandle*)> delivery;    // the result, once the worker is done
  };
  Pending take();
  void detach();

 private:
  void wakeReceiverLocked();

  std::mutex mutex_;
  JobHandle* receiver_;
  qint64 minIntervalNs_;
  QElapsedTimer clock_;
  qint64 lastReportNs_ = -1;
  double lastFraction_ = -1.0;
  Pending pending_;
  bool wakePosted_ = false;
};

}  // namespace detail

class JobHandle : public QObject {
  Q_OBJECT

 public:
  enum class State { Running, Succeeded, Failed, Cancelled };
  Q_ENUM(State)

  ~JobHandle() override;

  const QString& title() const { return title_; }
  State state() const { return state_; }
  bool isRunning() const { return state_ == State::Running; }
  double progress() const { return progress_; }   // last reported fraction in [0, 1]
  const Error& error() const { return error_; }   // meaningful when state() == Failed
  QString errorText() const;                      // error().toString() as a QString
  qint64 elapsedMs() const;                       // running time so far, or in total
  bool stopRequested() const { return stop_.stopRequested(); }

 public slots:
  // Asks the worker to stop (GUI thread). Idempotent; no effect once finished.
  void cancel();

 signals:
  void progressChanged(double fraction);
  void succeeded();
  void failed(const QString& message);
  void cancelled();
  void finished(dpstudio::ui::JobHandle::State state);

 protected:
  JobHandle(QString title, int maxUpdatesPerSecond, QObject* parent);

  const std::shared_ptr<detail::JobChannel>& channel() const { return channel_; }
  Progress makeProgress() const;
  // Called on the GUI thread once the worker is done; ok/error describe its Result.
  void complete(bool ok, const Error* error);

 private:
  friend class detail::JobChannel;
  void setProgress(double fraction);

 private slots:
  void drainChannel();  // queued by the channel; runs what the worker left there

 private:

  QString title_;
  StopToken stop_;
  std::shared_ptr<detail::JobChannel> channel_;
  State state_ = State::Running;
  double progress_ = 0.0;
  Error error_;
  QElapsedTimer timer_;
  qint64 elapsedMs_ = -1;
};

template <class T>
class Job;

template <class T>
using JobFunction = std::function<Result<T>(const Progress&)>;

struct JobOptions {
  QThreadPool* pool = nullptr;  // nullptr: QThreadPool::globalInstance()
  int maxUpdatesPerSecond = 30;
};

template <class T>
Job<T>* startJob(const QString& title, JobFunction<T> work, QObject* parent = nullptr,
                 const JobOptions& options = {});

template <class T>
class Job final : public JobHandle {
 public:
  bool hasValue() const { return result_ && result_->ok(); }
  // The value of a job that succeeded (state() == Succeeded).
  const T& value() const { return result_->value(); }
  T takeValue() { return std::move(*result_).value(); }

 private:
  Job(const QString& title, int maxUpdatesPerSecond, QObject* parent)
      : JobHandle(title, maxUpdatesPerSecond, parent) {}

  void deliver(Result<T>&& result) {
    result_.emplace(std::move(result));
    complete(result_->ok(), result_->ok() ? nullptr : &result_->error());
  }

  static Result<T> runGuarded(const JobFunction<T>& work, const Progress& progress) {
    // Nothing throws across a thread: a stray exception becomes an Internal error.
    try {
      return work(progress);
    } catch (const std::exception& e) {
      return Error{ErrorKind::Internal, std::string("unexpected failure: ") + e.what(), {}, 0, {}};
    } catch (...) {
      return Error{ErrorKind::Internal, "unexpected failure", {}, 0, {}};
    }
  }

  friend Job<T>* startJob<T>(const QString&, JobFunction<T>, QObject*, const JobOptions&);

  std::optional<Result<T>> result_;
};

template <class T>
Job<T>* startJob(const QString& title, JobFunction<T> work, QObject* parent,
                 const JobOptions& options) {
  auto* job = new Job<T>(title, options.maxUpdatesPerSecond, parent);
  QThreadPool* pool = options.pool ? options.pool : QThreadPool::globalInstance();
  pool->start([channel = job->channel(), progress = job->makeProgress(),
               work = std::move(work)]() {
    lowerThisThreadsPriority();  // the GUI thread first (background_priority.h)
    auto result = std::make_shared<Result<T>>(Job<T>::runGuarded(work, progress));
    channel->post([result](JobHandle* handle) {
      static_cast<Job<T>*>(handle)->deliver(std::move(*result));
    });
  });
  return job;
}

}  // namespace dpstudio::ui
