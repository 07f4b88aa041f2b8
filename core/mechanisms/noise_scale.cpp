#include "core/mechanisms/noise_scale.h"

#include <cmath>
#include <numbers>

#include "core/util/number_text.h"

namespace dpstudio::mech {

std::optional<double> minimizerNormBound(const LearnerSpec& learner, Index classes) {
  double lossAtZero = 0;
  switch (learner.kind) {
    case ModelKind::LogisticRegression: lossAtZero = std::numbers::ln2; break;
    case ModelKind::HuberSvm: lossAtZero = 1.0; break;
    case ModelKind::Softmax: lossAtZero = std::log(static_cast<double>(std::max<Index>(classes, 2))); break;
    case ModelKind::Lmgc: return std::nullopt;
  }
  if (!(learner.lambda > 0)) return std::nullopt;
  return std::sqrt(2.0 * lossAtZero / learner.lambda);
}

std::optional<std::string> noiseSwampsModelWarning(const MechanismOptions& options, const MechanismReport& report,
                                                   Index classes) {
  if (options.kind != MechanismKind::Output) return std::nullopt;
  const auto bound = minimizerNormBound(options.learner, classes);
  const double noise = report.expectedNoiseNorm;
  if (!bound || !std::isfinite(noise) || noise <= *bound) return std::nullopt;
  // E‖b‖(λ') = E‖b‖·λ/λ' meets √(2ℓ(0)/λ') = bound·√(λ/λ') at λ' = (E‖b‖·λ)²/(2ℓ(0)).
  const double lossAtZero = *bound * *bound * options.learner.lambda / 2.0;
  const double balance = std::pow(noise * options.learner.lambda, 2) / (2.0 * lossAtZero);
  return "the noise swamps the model: E\u2016b\u2016 = " + briefNumber(noise) +
         " is larger than any model \u03bb = " + briefNumber(options.learner.lambda) +
         " allows (\u2016\u03b8*\u2016 \u2264 \u221a(2\u2113(0)/\u03bb) = " + briefNumber(*bound) +
         "), so the release is mostly noise; \u03bb above " + briefNumber(balance) +
         " (or a larger \u03b5) makes the noise smaller than that bound";
}

}  // namespace dpstudio::mech
