#include "core/experiment/sgd_convergence.h"

#include <cstdio>

#include "core/learn/learner.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::experiment {

std::optional<double> noiseFreeSgdAccuracy(const mech::MechanismOptions& options, const Dataset& train,
                                           const Dataset& test, const Progress& progress) {
  if (options.kind != mech::MechanismKind::DpSgd || test.rows() == 0) return std::nullopt;
  mech::MechanismOptions noiseFree = options;
  noiseFree.sgd.noiseMultiplier = 0.0;
  // The same steps as the private run: its schedule planned for its ε, not for ε = ∞.
  if (!options.sgd.scheduleEpsilon) noiseFree.sgd.scheduleEpsilon = options.epsilon;
  auto source = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, 1);
  if (!source) return std::nullopt;
  TrainControl control;
  control.progress = progress;
  auto trained = mech::trainPrivately(noiseFree, train, *source.value(), control);
  if (!trained) return std::nullopt;
  const TrainedModel& model = trained.value().trained;
  return accuracy(*model.model, model.theta, test.X, test.y);
}

bool hasNoiseFreeSgdDiagnostic(const PrivacyPlan& plan) {
  const auto* mechanism = std::get_if<TrainingMechanism>(&plan.choice);
  if (!mechanism || mechanism->selection || mechanism->options.kind != mech::MechanismKind::DpSgd) return false;
  const mech::DpSgdSettings& sgd = mechanism->options.sgd;
  return !sgd.noiseFree();  // that is the noise-free run itself
}

std::optional<double> noiseFreeSgdAccuracy(const PrivacyPlan& plan, const Dataset& train, const Dataset& test,
                                           const Progress& progress) {
  if (!hasNoiseFreeSgdDiagnostic(plan)) return std::nullopt;
  return noiseFreeSgdAccuracy(std::get<TrainingMechanism>(plan.choice).options, train, test, progress);
}

std::optional<std::string> sgdUnderfitsWarning(double noiseFreeAccuracy, double nonPrivateAccuracy) {
  if (!(noiseFreeAccuracy < nonPrivateAccuracy - kUnderfitGap)) return std::nullopt;
  char text[400];
  std::snprintf(text, sizeof text,
                "DP-SGD's settings underfit even without noise: the same steps with noise multiplier 0 reach a test "
                "accuracy of %.4f against %.4f for the non-private model, so much of the gap is not the price of "
                "privacy. More steps (--epochs) or a larger step (--learning-rate, up to 2/(L + lambda)) narrow it; "
                "at a fixed epsilon each extra step also adds noise. Measured on the data, NOT private",
                noiseFreeAccuracy, nonPrivateAccuracy);
  return std::string(text);
}

}  // namespace dpstudio::experiment
