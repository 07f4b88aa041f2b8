#pragma once
// A sweep's trial table on disk: one CSV row per finished trial (mechanism, axis, value,
// repeat, seed, accuracy, seconds, value_index, then what the published bounds are drawn
// beside, trial_measures.h — train_rows, features, classes, distance, empirical_excess,
// true_excess — empty where not measured), after a comment line that carries the
// sweep's layout as JSON (sweep.h: series, axis, values, repetitions, fingerprint, shard).
// Shards of one sweep (`sweep --shard K/N`) write such tables; `sweep-merge` reads them
// back, refuses tables of different sweeps, and summarizes them as one run.
//
// Writes are atomic (a temporary file, then rename): no partial table is ever left behind.

#include <string>
#include <vector>

#include "core/experiment/sweep.h"

namespace dpstudio::experiment {

struct TrialTable {
  SweepLayout layout;
  int shardIndex = 0;  // 0-based
  int shardCount = 1;
  bool complete = true;  // false: the run was cancelled before every trial of its shard ran
  std::vector<TrialRecord> trials;
};

Status writeTrialTable(const std::string& path, const TrialTable& table);
// Errors name the file and line: not a dpstudio sweep table, a malformed row, a series key
// the layout does not list.
Result<TrialTable> readTrialTable(const std::string& path);

// One table from the shards of one sweep: same fingerprint (else an error naming both
// files), each shard once, trials in expandTrials() order. A missing shard or an incomplete
// one is allowed (the summary counts what finished) and reported in `complete`.
Result<TrialTable> mergeTrialTables(const std::vector<TrialTable>& shards, const std::vector<std::string>& names);

}  // namespace dpstudio::experiment
