// How long the GUI thread goes without running its event loop while a large sweep streams
// into the privacy–utility chart (issue 11: never more than 50 ms). A 10 ms probe timer on
// the GUI thread records the longest gap between its ticks from Start to the last trial.
//
//   QT_QPA_PLATFORM=offscreen build/release/bench/bench_sweep_stall [DATASET] [REPEATS]
//
// Defaults: builtin:digits (1797 rows, 64 features, 10 classes; softmax is not needed: the
// dock's logistic regression trains one-vs-rest), 200 repetitions of output, objective and
// loss perturbation and the non-private reference over 5 values of ε: 4000 trials.
// Prints one JSON line: trials, seconds, chart refreshes, longest and mean gap in ms.

#include <QApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include "ui/dataset/dataset_controller.h"
#include "ui/jobs/background_priority.h"
#include "ui/main_window.h"
#include "ui/plot/scatter_view.h"
#include "ui/sweep/sweep_form.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("dpstudio-bench"));
  QApplication::setApplicationName(QStringLiteral("bench_sweep_stall"));
  const QString spec = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("builtin:digits");
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 200;
  // As the GUI's main does (background_priority.h); DPSTUDIO_BENCH_SAME_PRIORITY=1 measures
  // without it, for comparison.
  if (qEnvironmentVariableIntValue("DPSTUDIO_BENCH_SAME_PRIORITY") == 0) dpstudio::ui::lowerWorkerThreadsPriority();

  dpstudio::ui::MainWindow window;
  window.setErrorDialogsEnabled(false);
  window.resize(1400, 900);
  window.show();
  dpstudio::ui::SweepView* view = window.sweepView();

  QElapsedTimer clock;
  qint64 longest = 0, ticks = 0, measuredMs = 0;
  QTimer probe;
  probe.setInterval(10);
  QObject::connect(&probe, &QTimer::timeout, [&] {
    const qint64 gap = clock.restart();
    longest = std::max(longest, gap);
    measuredMs += gap;
    ++ticks;
  });
  QElapsedTimer total;
  QObject::connect(window.controller(), &dpstudio::ui::DatasetController::opened, &window, [&] {
    view->form()->setRepeats(repeats);
    view->refreshBase();
    window.sweep();
    total.start();
    clock.start();
    probe.start();
  }, Qt::SingleShotConnection);
  QObject::connect(view->session(), &dpstudio::ui::SweepSession::finished, &app, [&](const QString& message, bool) {
    probe.stop();
    const double seconds = static_cast<double>(total.elapsed()) / 1000.0;
    std::printf("{\"dataset\": \"%s\", \"trials\": %lld, \"seconds\": %.2f, \"chart_refreshes\": %d, "
                "\"longest_gap_ms\": %lld, \"mean_gap_ms\": %.1f, \"message\": \"%s\"}\n",
                qPrintable(spec), view->session()->finishedTrials(), seconds, view->session()->refreshCount(),
                longest, ticks ? static_cast<double>(measuredMs) / static_cast<double>(ticks) : 0.0,
                qPrintable(message));
    QTimer::singleShot(0, &app, &QApplication::quit);
  });
  window.openDataset(spec);
  return app.exec();
}
