#pragma once
// The sweeps shown in the privacy–utility view: it starts a sweep of core's engine
// (core/experiment/sweep.h) on a worker thread, collects the trials as they finish, and
// offers the chart a new summary at most every `refreshMs` (default 100 ms) — the engine may
// finish thousands of trials a second, and a chart redrawn per trial would freeze the GUI.
//
// The view shows one or several sweeps of the same axis ("Add to the chart"); a sweep of
// another axis, or one started with replace, starts a new chart. Cancel keeps every finished
// trial; the summary of a cancelled sweep says how many of its trials finished.
//
// A sweep is an experiment on the user's data, not a release: nothing here touches the
// privacy ledger.
//
// Thread-safety: every member is for the GUI thread. The engine's per-trial callback runs on
// worker threads and only appends to a mutex-guarded inbox that the refresh timer drains.

#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/experiment/bound_figure.h"
#include "core/experiment/sweep.h"
#include "core/experiment/trial_table.h"
#include "core/sources/prepare.h"
#include "ui/jobs/job.h"

namespace dpstudio::ui {

// What a sweep needs besides the plans: the data as the Training dock would prepare them, or
// data to load (a paper preset's files or built-in set).
struct SweepInput {
  std::shared_ptr<const Dataset> dataset;
  std::shared_ptr<const Dataset> test;  // a separate test file, or empty to split
  SplitAndPreprocess preparation;
  // Set: load and prepare these data on the worker instead (MNIST's 60 000 rows take seconds);
  // `dataset`, `test` and `preparation` are then unused, and the spec's dataset becomes the
  // loaded data's identity (experiment::dataIdentity), as the CLI's is.
  std::optional<DataRequest> request;
  std::string title;           // the data's name in the chart's title; empty: spec.dataset
  experiment::SweepSpec spec;  // without the reference series (the engine adds them)
  int threads = 0;             // 0: every core
};

class SweepSession : public QObject {
  Q_OBJECT

 public:
  explicit SweepSession(QObject* parent = nullptr);
  ~SweepSession() override;

  // Starts a sweep (cancelling one that runs). add: draw it beside the sweeps shown when
  // its axis is theirs; otherwise it replaces them.
  void start(SweepInput input, bool add);
  void cancel();
  // Forgets every sweep shown (cancelling one that runs).
  void clear();

  bool isRunning() const { return !job_.isNull(); }
  int sweepCount() const { return static_cast<int>(runs_.size()); }
  // Trials finished and expected, over the sweeps shown.
  long long finishedTrials() const;
  long long totalTrials() const;
  // The figure of every sweep shown (experiment::overlayCurves of their summaries).
  const experiment::Curve& curve() const { return curve_; }
  // The trial table of the sweep shown last, as the CLI's --out writes it (empty without one).
  experiment::TrialTable lastTable() const;
  // Every sweep shown, in order (what the session autosave keeps).
  std::vector<experiment::TrialTable> tables() const;
  // Shows these sweeps (saved by an earlier session) instead of the ones shown, cancelling a
  // running sweep. Their curves come back; their published bounds do not (those need the
  // sweep's settings, which a table does not hold).
  void restore(std::vector<experiment::TrialTable> tables);
  bool showsRestored() const { return !runs_.empty() && runs_.back().restored; }
  // While a sweep's data are still being loaded (SweepInput::request).
  bool isLoading() const;
  // How long the last sweep's data took to load, in seconds (0 without a request).
  double loadSeconds() const { return runs_.empty() ? 0.0 : runs_.back().loadSeconds; }

  // The published bounds (core/experiment/bound_figure.h) for the sweeps shown: the
  // quantities some series has a bound on, why there are none, and the figure of one.
  // Every trial measures what its bounds bound (SweepControl::measureBoundedQuantities).
  std::vector<experiment::BoundedQuantity> boundedQuantities() const;
  QString whyNoBounds() const;
  experiment::BoundFigure boundFigure(experiment::BoundedQuantity quantity, double delta) const;

  void setRefreshInterval(int ms) { refresh_.setInterval(ms); }
  // How often the curve was recomputed: the number of chart updates (for tests).
  int refreshCount() const { return refreshes_; }

 signals:
  void started(dpstudio::ui::JobHandle* job);
  void curveChanged();
  // The data of a sweep with SweepInput::request are loaded (after loadSeconds()).
  void dataLoaded();
  void runningChanged(bool running);
  // A sweep ended: ok, cancelled (finished trials kept) or failed (its message).
  void finished(const QString& message, bool error);

 private:
  struct Run {
    experiment::SweepSpec spec;  // with the reference series, as the engine runs it
    experiment::SweepLayout layout;
    std::vector<experiment::TrialRecord> trials;
    bool cancelled = false;
    bool loading = false;  // its data are still being loaded
    double loadSeconds = 0;
    bool restored = false;  // from a saved table: layout and trials only, no spec
  };
  static experiment::TrialTable tableOf(const Run& run);
  struct Inbox {
    std::mutex mutex;
    std::vector<experiment::TrialRecord> trials;
    std::optional<std::string> dataset;  // the loaded data's identity, once
    double loadSeconds = 0;
    // SweepLayout::mostCommonClass of the prepared data, once (the outer optional: arrived).
    std::optional<std::optional<double>> mostCommonClass;
  };

  void drain();
  void recompute();
  void jobEnded(JobHandle::State state);

  std::vector<Run> runs_;
  experiment::Curve curve_;
  std::shared_ptr<Inbox> inbox_;
  QPointer<Job<experiment::SweepResult>> job_;
  QTimer refresh_;
  int refreshes_ = 0;
};

}  // namespace dpstudio::ui
