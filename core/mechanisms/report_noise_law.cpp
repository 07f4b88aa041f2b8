#include "core/mechanisms/report_noise_law.h"

#include <cmath>
#include <string>

namespace dpstudio::mech {
namespace {

Error noLaw(const std::string& why) { return Error{ErrorKind::InvalidPrivacy, why, {}, 0, "noise"}; }

}  // namespace

Result<privacy::NoiseNormLaw> noiseNormLaw(const MechanismReport& report) {
  // Checked first: DP-SGD's report says "gaussian" and carries σ·ν, but of every step.
  if (report.mechanism == mechanismName(MechanismKind::DpSgd))
    return noLaw("DP-SGD adds Gaussian noise to the gradient at each of its steps; no single noise vector is "
                 "released, and its report holds only the mean norm per step");
  const bool hasScale = report.noiseScale() > 0 && std::isfinite(report.noiseScale());
  if ((report.noise == NoiseLaw::L2Laplace || report.noise == NoiseLaw::Gaussian) && !hasScale)
    return noLaw("the report of '" + report.mechanism + "' has " + noiseLawName(report.noise) + " noise but no " +
                 noiseScaleKey(report.noise));
  switch (report.noise) {
    case NoiseLaw::L2Laplace: return privacy::NoiseNormLaw::l2Laplace(report.noiseScale(), report.noiseDimension);
    case NoiseLaw::Gaussian: return privacy::NoiseNormLaw::gaussian(report.noiseScale(), report.noiseDimension);
    case NoiseLaw::LaplacePerCoordinate:
      return noLaw("per-coordinate Laplace noise (as published) has no simple law for its norm: ‖b‖ is the norm of " +
                   std::to_string(report.noiseDimension) + " independent Laplace coordinates");
    case NoiseLaw::ExponentialMechanism:
      return noLaw("the exponential mechanism picks a class at random; it adds no noise vector");
    case NoiseLaw::None: break;
  }
  return noLaw("'" + report.mechanism + "' adds no noise");
}

}  // namespace dpstudio::mech
