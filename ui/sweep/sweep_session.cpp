#include "ui/sweep/sweep_session.h"

#include <algorithm>

namespace dpstudio::ui {

SweepSession::SweepSession(QObject* parent) : QObject(parent), inbox_(std::make_shared<Inbox>()) {
  refresh_.setInterval(100);
  connect(&refresh_, &QTimer::timeout, this, &SweepSession::drain);
}

SweepSession::~SweepSession() {
  if (job_) job_->cancel();
}

void SweepSession::start(SweepInput input, bool add) {
  if (job_) {
    // The old job's late trials must not land in the new run.
    job_->cancel();
    disconnect(job_, nullptr, this, nullptr);
    job_->deleteLater();
    job_.clear();
    drain();
    if (!runs_.empty()) runs_.back().cancelled = true;
  }
  const experiment::SweepSpec full = experiment::withReferenceSeries(input.spec);
  Run run;
  run.layout = experiment::layoutOf(full);
  if (!add || runs_.empty() || runs_.front().layout.axis != run.layout.axis) runs_.clear();
  runs_.push_back(std::move(run));
  inbox_ = std::make_shared<Inbox>();
  recompute();

  auto inbox = inbox_;
  auto work = [input = std::move(input), inbox](const Progress& progress) -> Result<experiment::SweepResult> {
    std::optional<Dataset> separateTest;
    if (input.test) separateTest = *input.test;
    auto prepared = prepareLoaded(*input.dataset, std::move(separateTest), input.preparation);
    if (!prepared) return prepared.error();
    if (progress.cancelled()) return Error::cancelled();
    experiment::SweepControl control;
    control.threads = input.threads;
    control.progress = progress;
    control.onTrial = [inbox](const experiment::TrialRecord& trial) {
      std::lock_guard lock(inbox->mutex);
      inbox->trials.push_back(trial);
    };
    return experiment::runSweep(input.spec, prepared.value(), control);
  };
  job_ = startJob<experiment::SweepResult>(tr("Sweep"), std::move(work), this);
  connect(job_, &JobHandle::finished, this, &SweepSession::jobEnded);
  refresh_.start();
  emit started(job_);
  emit runningChanged(true);
}

void SweepSession::cancel() {
  if (job_) job_->cancel();
}

void SweepSession::clear() {
  cancel();
  runs_.clear();
  recompute();
}

long long SweepSession::finishedTrials() const {
  long long count = 0;
  for (const Run& run : runs_) count += static_cast<long long>(run.trials.size());
  return count;
}

long long SweepSession::totalTrials() const {
  long long count = 0;
  for (const Run& run : runs_) count += run.layout.totalTrials;
  return count;
}

experiment::TrialTable SweepSession::lastTable() const {
  experiment::TrialTable table;
  if (runs_.empty()) return table;
  const Run& run = runs_.back();
  table.layout = run.layout;
  table.trials = run.trials;
  // The engine's order (expandTrials), as the CLI writes it, whatever order they finished in.
  std::sort(table.trials.begin(), table.trials.end(),
            [](const auto& a, const auto& b) {
              return std::tie(a.id.valueIndex, a.id.repeat, a.id.series) <
                     std::tie(b.id.valueIndex, b.id.repeat, b.id.series);
            });
  table.complete = static_cast<long long>(run.trials.size()) == run.layout.totalTrials;
  return table;
}

void SweepSession::drain() {
  std::vector<experiment::TrialRecord> arrived;
  {
    std::lock_guard lock(inbox_->mutex);
    arrived.swap(inbox_->trials);
  }
  if (arrived.empty() || runs_.empty()) return;
  auto& trials = runs_.back().trials;
  trials.insert(trials.end(), arrived.begin(), arrived.end());
  recompute();
}

void SweepSession::recompute() {
  std::vector<experiment::Curve> curves;
  curves.reserve(runs_.size());
  for (const Run& run : runs_) {
    experiment::Curve curve = experiment::summarize(run.layout, run.trials);
    if (run.cancelled)
      curve.note = "Cancelled after " + std::to_string(run.trials.size()) + " of " +
                   std::to_string(run.layout.totalTrials) + " trials. " + curve.note;
    curves.push_back(std::move(curve));
  }
  curve_ = experiment::overlayCurves(curves);
  ++refreshes_;
  emit curveChanged();
}

void SweepSession::jobEnded(JobHandle::State state) {
  refresh_.stop();
  auto* job = job_.data();
  job_.clear();
  if (state == JobHandle::State::Cancelled && !runs_.empty()) runs_.back().cancelled = true;
  drain();
  // A sweep refused before its first trial (a value the data cannot take) leaves no trace.
  if (state == JobHandle::State::Failed && !runs_.empty() && runs_.back().trials.empty()) runs_.pop_back();
  recompute();
  QString message;
  bool error = false;
  if (state == JobHandle::State::Succeeded) {
    message = tr("Sweep finished: %1 trials in %2 s.")
                  .arg(job->value().trials.size())
                  .arg(job->value().seconds, 0, 'f', 1);
  } else if (state == JobHandle::State::Cancelled) {
    message = tr("Sweep cancelled: the %1 finished trials are kept.").arg(runs_.empty() ? 0 : runs_.back().trials.size());
  } else {
    message = tr("The sweep failed: %1").arg(job->errorText());
    error = true;
  }
  job->deleteLater();
  emit runningChanged(false);
  emit finished(message, error);
}

}  // namespace dpstudio::ui
