#pragma once
// One model per disjoint part of the training rows: the teachers of subsample-and-aggregate
// (§3 G) and the parties of multiparty aggregation (§3 I).
//
// Determinism: each part's model depends only on its rows, and every optimizer run is
// deterministic for a fixed row partition (core/util/parallel.h), so the models are the same
// bits with 1 thread or 8. The parts are spread over workerThreads() threads, each
// single-threaded inside (the parts are the parallel work).

#include <cstdint>
#include <functional>
#include <vector>

#include "core/learn/learner.h"

namespace dpstudio::predict {

using RowParts = std::vector<std::vector<Index>>;

// A seeded, data-independent permutation of 0..n−1 cut into `parts` consecutive blocks of
// ⌊n/parts⌋ rows each (the n mod parts rows left over belong to no part). Same seed, same
// parts, on every machine (Rng's portable shuffle). parts ≥ 1, n ≥ parts.
RowParts equalRandomParts(Index n, Index parts, std::uint64_t seed);

// The same for given sizes (Σ sizes ≤ n): block j has sizes[j] rows.
RowParts sizedRandomParts(Index n, const std::vector<Index>& sizes, std::uint64_t seed);

// Trains part j with `trainer(rows of part j, control)` for every j. Progress goes from 0 to
// 1 as parts finish (called one at a time, possibly from worker threads); the caller's stop
// token stops every part, and then the result is ErrorKind::Cancelled. The first failing
// part (in part order) gives the error.
using PartTrainer = std::function<Result<TrainedModel>(const Dataset& part, const TrainControl& control)>;
Result<std::vector<TrainedModel>> trainParts(const Dataset& data, const RowParts& parts, const PartTrainer& trainer,
                                             const TrainControl& control);

}  // namespace dpstudio::predict
