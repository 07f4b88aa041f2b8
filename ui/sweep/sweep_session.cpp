#include "ui/sweep/sweep_session.h"

#include <QElapsedTimer>

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
  run.spec = full;
  run.layout = experiment::layoutOf(full);
  if (!input.title.empty()) run.layout.title = input.title;
  run.loading = input.request.has_value();
  if (!add || runs_.empty() || runs_.front().layout.axis != run.layout.axis) runs_.clear();
  runs_.push_back(std::move(run));
  inbox_ = std::make_shared<Inbox>();
  recompute();

  auto inbox = inbox_;
  auto work = [input = std::move(input), inbox](const Progress& progress) -> Result<experiment::SweepResult> {
    // Loading a preset's files is the first 5 % of the job's progress; the trials the rest.
    const double loadShare = input.request ? 0.05 : 0.0;
    const QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    auto prepared = [&]() -> Result<PreparedData> {
      if (input.request)
        return prepareData(*input.request, Progress([progress, loadShare](double f) { progress.report(loadShare * f); },
                                                    progress.stopToken()));
      std::optional<Dataset> separateTest;
      if (input.test) separateTest = *input.test;
      return prepareLoaded(*input.dataset, std::move(separateTest), input.preparation);
    }();
    if (!prepared) return prepared.error();
    if (progress.cancelled()) return Error::cancelled();
    experiment::SweepSpec spec = input.spec;
    {
      std::lock_guard lock(inbox->mutex);
      if (input.request) {
        spec.dataset = experiment::dataIdentity(prepared.value());
        inbox->dataset = spec.dataset;
        inbox->loadSeconds = static_cast<double>(clock.elapsed()) / 1000.0;
      }
      inbox->mostCommonClass = experiment::layoutOf(spec, &prepared.value()).mostCommonClass;
    }
    experiment::SweepControl control;
    control.threads = input.threads;
    control.measureBoundedQuantities = true;  // the bounds panel draws them (cheap: bounded series only)
    control.progress = Progress([progress, loadShare](double f) { progress.report(loadShare + (1 - loadShare) * f); },
                                progress.stopToken());
    control.onTrial = [inbox](const experiment::TrialRecord& trial) {
      std::lock_guard lock(inbox->mutex);
      inbox->trials.push_back(trial);
    };
    return experiment::runSweep(spec, prepared.value(), control);
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
  return runs_.empty() ? experiment::TrialTable{} : tableOf(runs_.back());
}

std::vector<experiment::TrialTable> SweepSession::tables() const {
  std::vector<experiment::TrialTable> out;
  out.reserve(runs_.size());
  for (const Run& run : runs_) out.push_back(tableOf(run));
  return out;
}

void SweepSession::restore(std::vector<experiment::TrialTable> tables) {
  clear();
  for (experiment::TrialTable& table : tables) {
    Run run;
    run.layout = std::move(table.layout);
    run.trials = std::move(table.trials);
    run.cancelled = !table.complete;
    run.restored = true;
    runs_.push_back(std::move(run));
  }
  recompute();
}

experiment::TrialTable SweepSession::tableOf(const Run& run) {
  experiment::TrialTable table;
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

bool SweepSession::isLoading() const { return isRunning() && !runs_.empty() && runs_.back().loading; }

void SweepSession::drain() {
  std::vector<experiment::TrialRecord> arrived;
  std::optional<std::string> dataset;
  std::optional<std::optional<double>> mostCommonClass;
  double loadSeconds = 0;
  {
    std::lock_guard lock(inbox_->mutex);
    arrived.swap(inbox_->trials);
    dataset.swap(inbox_->dataset);
    mostCommonClass.swap(inbox_->mostCommonClass);
    loadSeconds = inbox_->loadSeconds;
  }
  if (dataset && !runs_.empty()) {
    // The loaded data's identity completes the fingerprint (as the CLI's table has it).
    Run& run = runs_.back();
    run.spec.dataset = *dataset;
    const std::string title = run.layout.title;
    const std::optional<double> known = run.layout.mostCommonClass;
    run.layout = experiment::layoutOf(run.spec);
    run.layout.title = title;
    run.layout.mostCommonClass = known;
    run.loading = false;
    run.loadSeconds = loadSeconds;
    emit dataLoaded();
  }
  if (mostCommonClass && !runs_.empty()) {
    runs_.back().layout.mostCommonClass = *mostCommonClass;
    if (arrived.empty()) recompute();
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
  if (!runs_.empty()) runs_.back().loading = false;
  recompute();
  QString message;
  bool error = false;
  if (state == JobHandle::State::Succeeded) {
    message = tr("Sweep finished: %1 trials in %2 s.")
                  .arg(job->value().trials.size())
                  .arg(job->value().seconds, 0, 'f', 1);
    if (!runs_.empty() && runs_.back().loadSeconds > 0)
      message += tr(" The data loaded in %1 s.").arg(runs_.back().loadSeconds, 0, 'f', 1);
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

namespace dpstudio::ui {

std::vector<experiment::BoundedQuantity> SweepSession::boundedQuantities() const {
  std::vector<experiment::BoundedQuantity> out;
  for (const Run& run : runs_)
    if (!run.restored)
      for (experiment::BoundedQuantity q : experiment::boundedQuantities(run.spec))
      if (std::find(out.begin(), out.end(), q) == out.end()) out.push_back(q);
  std::sort(out.begin(), out.end());
  return out;
}

QString SweepSession::whyNoBounds() const {
  if (runs_.empty()) return tr("Start a sweep of DP-LMGC or multiparty aggregation to see the published bounds.");
  if (runs_.back().restored)
    return tr("These sweeps were restored from a session that ended without closing: their published bounds need "
              "the sweeps' settings. Run the sweep again to see them.");
  return QString::fromStdString(experiment::whyNoBounds(runs_.back().spec));
}

experiment::BoundFigure SweepSession::boundFigure(experiment::BoundedQuantity quantity, double delta) const {
  std::vector<experiment::BoundFigure> figures;
  for (const Run& run : runs_)
    if (!run.restored) figures.push_back(experiment::boundFigure(run.spec, run.trials, quantity, delta));
  return experiment::overlayBoundFigures(figures);
}

}  // namespace dpstudio::ui
