#include "core/experiment/model_spread.h"

#include <atomic>
#include <optional>

#include "core/util/parallel.h"

namespace dpstudio::experiment {

std::uint64_t spreadSeed(std::uint64_t seed, int index) {
  // SplitMix64's finalizer over (seed, index): neighbouring draws get unrelated streams.
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(index) + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Result<std::vector<TrainedModel>> drawPrivateModels(const PrivacyPlan& plan, const PreparedData& data, int count,
                                                    std::uint64_t seed, const FittedModel* baseline,
                                                    const Progress& progress) {
  const bool releasesModel =
      std::holds_alternative<TrainingMechanism>(plan.choice) || std::holds_alternative<Multiparty>(plan.choice);
  if (!releasesModel)
    return Error{ErrorKind::Usage,
                 plan.isPrivate() ? "a private predictor releases answers, not a model: it has no spread of models"
                                  : "a non-private model has no noise to draw",
                 {}, 0, "mechanism"};
  if (count < 1) return Error{ErrorKind::Usage, "the number of draws must be >= 1", {}, 0, "count"};
  if (auto status = plan.validate(); !status) return status.error();

  // The baseline once: training mechanisms warm nothing with it, but RunControl takes it
  // instead of training it in every draw.
  std::optional<FittedModel> trained;
  const bool training = std::holds_alternative<TrainingMechanism>(plan.choice);
  if (training && !baseline) {
    auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, seed);
    if (!noise) return noise.error();
    PrivacyPlan nonPrivate = PrivacyPlan::nonPrivate(plan.learner());
    nonPrivate.solver = plan.solver;
    auto run = runPlan(nonPrivate, data, *noise.value());
    if (!run) return run.error();
    trained = std::move(run.value().baseline);
    baseline = &*trained;
  }

  std::vector<std::optional<Result<TrainedModel>>> draws(static_cast<std::size_t>(count));
  std::atomic<int> done{0};
  parallelFor(count, [&](Eigen::Index i) {
    auto& slot = draws[static_cast<std::size_t>(i)];
    if (progress.cancelled()) return;
    auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, spreadSeed(seed, static_cast<int>(i)));
    if (!noise) {
      slot = Result<TrainedModel>(noise.error());
      return;
    }
    RunControl control;
    if (training) control.reuse.baseline = lentBaseline(*baseline);
    control.trainBaseline = false;
    auto run = runPlan(plan, data, *noise.value(), control);
    if (!run) slot = Result<TrainedModel>(run.error());
    else slot = Result<TrainedModel>(std::move(run.value().release->model));
    progress.report(static_cast<double>(++done) / count);
  });
  if (progress.cancelled()) return Error::cancelled();
  std::vector<TrainedModel> models;
  models.reserve(draws.size());
  for (auto& draw : draws) {
    if (!draw->ok()) return draw->error();
    models.push_back(std::move(*draw).value());
  }
  return models;
}

}  // namespace dpstudio::experiment
