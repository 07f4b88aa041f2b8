#include "core/mechanisms/report_noise_law.h"

#include <string>

namespace dpstudio::mech {
namespace {

Error noLaw(const std::string& why) { return Error{ErrorKind::InvalidPrivacy, why, {}, 0, "noise"}; }

Result<double> required(const MechanismReport& report, const std::string& key) {
  if (auto value = report.value(key)) return *value;
  return noLaw("the report of '" + report.mechanism + "' has " + report.noise + " noise but no " + key);
}

}  // namespace

Result<privacy::NoiseNormLaw> noiseNormLaw(const MechanismReport& report) {
  // Checked first: DP-SGD's report says "gaussian" and carries σ·ν, but of every step.
  if (report.mechanism == mechanismName(MechanismKind::DpSgd))
    return noLaw("DP-SGD adds Gaussian noise to the gradient at each of its steps; no single noise vector is "
                 "released, and its report holds only the mean norm per step");
  if (report.noise == "l2-laplace") {
    auto beta = required(report, "beta");
    if (!beta) return beta.error();
    return privacy::NoiseNormLaw::l2Laplace(beta.value(), report.noiseDimension);
  }
  if (report.noise == "gaussian") {
    auto sigma = required(report, "sigma");
    if (!sigma) return sigma.error();
    return privacy::NoiseNormLaw::gaussian(sigma.value(), report.noiseDimension);
  }
  if (report.noise == "laplace per coordinate")
    return noLaw("per-coordinate Laplace noise (as published) has no simple law for its norm: ‖b‖ is the norm of " +
                 std::to_string(report.noiseDimension) + " independent Laplace coordinates");
  if (report.noise == "exponential mechanism")
    return noLaw("the exponential mechanism picks a class at random; it adds no noise vector");
  if (report.noise.empty() || report.noise == "none") return noLaw("'" + report.mechanism + "' adds no noise");
  return noLaw("unknown noise '" + report.noise + "'");
}

}  // namespace dpstudio::mech
