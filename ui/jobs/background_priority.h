#pragma once
// The GUI thread first. A sweep or a large training keeps every core busy with its job
// thread and oneTBB's workers; under Linux's fair scheduler the GUI thread then waits its
// turn behind them, and the event loop stalls for a scheduler slice or more (the sweep stall
// benchmark, bench/bench_sweep_stall: up to 76 ms with a third process running). Every
// thread that does background work therefore runs at a lower priority (nice +5) than the
// GUI thread: it still gets whatever the GUI thread leaves, which is nearly everything.
//
// Only the calling thread's own priority changes (Linux gives each thread its own nice
// value); elsewhere these are no-ops. Results do not depend on priorities.

namespace dpstudio::ui {

// Lowers the calling thread's priority, once per thread; called by every job (job.h).
void lowerThisThreadsPriority();

// From now on, every oneTBB thread but the caller (the GUI thread) that enters the default
// arena runs at the lower priority too. Call once, on the GUI thread, before any job starts.
void lowerWorkerThreadsPriority();

}  // namespace dpstudio::ui
