#include "core/prediction/part_training.h"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <optional>

#include "core/random/rng.h"
#include "core/util/parallel.h"

namespace dpstudio::predict {

RowParts sizedRandomParts(Index n, const std::vector<Index>& sizes, std::uint64_t seed) {
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  Rng rng(seed);
  rng.shuffle(order);
  RowParts parts;
  parts.reserve(sizes.size());
  auto next = order.begin();
  for (Index size : sizes) {
    std::vector<Index> rows(next, next + size);
    std::sort(rows.begin(), rows.end());  // a part's row order does not depend on the shuffle
    parts.push_back(std::move(rows));
    next += size;
  }
  return parts;
}

RowParts equalRandomParts(Index n, Index parts, std::uint64_t seed) {
  return sizedRandomParts(n, std::vector<Index>(static_cast<std::size_t>(parts), n / parts), seed);
}

Result<std::vector<TrainedModel>> trainParts(const Dataset& data, const RowParts& parts, const PartTrainer& trainer,
                                             const TrainControl& control) {
  if (control.progress.cancelled()) return Error::cancelled();
  const Index count = static_cast<Index>(parts.size());
  std::vector<std::optional<Result<TrainedModel>>> results(parts.size());
  TrainControl each = control;  // the caller's stop token, no per-part progress callback
  each.progress = Progress({}, control.progress.stopToken());
  each.warmStart.reset();
  std::mutex progressMutex;
  Index finished = 0;
  const bool spread = workerThreads() > 1 && count > 1;
  parallelFor(count, [&](Index j) {
    std::optional<ScopedWorkerThreads> single;
    if (spread) single.emplace(1);
    const auto slot = static_cast<std::size_t>(j);
    if (each.progress.cancelled()) {
      results[slot] = Result<TrainedModel>(Error::cancelled());
      return;
    }
    results[slot] = trainer(data.subset(parts[slot]), each);
    const std::lock_guard<std::mutex> lock(progressMutex);
    control.progress.report(static_cast<double>(++finished) / static_cast<double>(count));
  });
  for (const auto& result : results)
    if (!result->ok() && result->error().kind == ErrorKind::Cancelled) return Error::cancelled();
  std::vector<TrainedModel> models;
  models.reserve(parts.size());
  for (auto& result : results) {
    if (!result->ok()) return result->error();
    models.push_back(std::move(*result).value());
  }
  return models;
}

}  // namespace dpstudio::predict
