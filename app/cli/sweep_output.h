#pragma once
// What `sweep` and `sweep-merge` print and write: the summary (JSON or text), the trial
// table (--out) and the curve (--plot). Nothing is written when anything fails first: the
// table and the plot are each written atomically, the plot after the table.

#include <string>
#include <vector>

#include "app/cli/cli_common.h"
#include "core/experiment/trial_table.h"

namespace dpstudio::cli {

struct SweepOutput {
  experiment::TrialTable table;
  double seconds = 0;               // wall-clock time of the run
  bool secondsAreTrialSum = false;  // sweep-merge: the shards' trial times added up
  experiment::SweepWork work;       // the shared work done (a run, not a merge)
  bool hasWork = false;
  std::vector<std::string> warnings;
};

int writeSweepOutput(const Command& command, const SweepOutput& output, const QString& outPath,
                     const QString& plotPath);

}  // namespace dpstudio::cli
