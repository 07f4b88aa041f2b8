#include <cstdio>
#include <cstdlib>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {
namespace {

// A programming error, in release builds too: a report whose typed noise scale and a
// string-keyed copy could disagree is exactly what the typed fields exist to prevent.
[[noreturn]] void misuse(const std::string& what) {
  std::fprintf(stderr, "dpstudio: MechanismReport misuse: %s\n", what.c_str());
  std::abort();
}

bool isTyped(const std::string& key) {
  for (Calibrated which : {Calibrated::Delta, Calibrated::Rho, Calibrated::GradientTolerance, Calibrated::ChosenLambda,
                           Calibrated::NoiseMultiplier, Calibrated::Releases, Calibrated::SmallestParty,
                           Calibrated::TheoremBound, Calibrated::ProtocolBytes, Calibrated::LearningRate,
                           Calibrated::SamplingRate, Calibrated::Steps, Calibrated::Candidates,
                           Calibrated::ChosenIndex, Calibrated::SelectionRuns, Calibrated::MeanRuns,
                           Calibrated::Teachers, Calibrated::PartRows, Calibrated::ReleaseNoiseFactor})
    if (key == calibrationKey(which)) return true;
  return false;
}

}  // namespace

NoiseLaw noiseLawOf(NoiseFamily family) {
  return family == NoiseFamily::L2Laplace ? NoiseLaw::L2Laplace : NoiseLaw::Gaussian;
}

std::string noiseLawName(NoiseLaw law) {
  switch (law) {
    case NoiseLaw::None: return "none";
    case NoiseLaw::L2Laplace: return "l2-laplace";
    case NoiseLaw::Gaussian: return "gaussian";
    case NoiseLaw::LaplacePerCoordinate: return "laplace per coordinate";
    case NoiseLaw::ExponentialMechanism: return "exponential mechanism";
  }
  return "unknown";
}

std::optional<NoiseLaw> parseNoiseLaw(const std::string& name) {
  for (NoiseLaw law : {NoiseLaw::None, NoiseLaw::L2Laplace, NoiseLaw::Gaussian, NoiseLaw::LaplacePerCoordinate,
                       NoiseLaw::ExponentialMechanism})
    if (noiseLawName(law) == name) return law;
  return std::nullopt;
}

std::string noiseScaleKey(NoiseLaw law) {
  switch (law) {
    case NoiseLaw::None: return "";
    case NoiseLaw::L2Laplace:
    case NoiseLaw::ExponentialMechanism: return "beta";
    case NoiseLaw::Gaussian: return "sigma";
    case NoiseLaw::LaplacePerCoordinate: return "laplace_scale";
  }
  return "";
}

void MechanismReport::setNoiseScale(double value, const std::string& formula) {
  // The key follows the law, so a report can never hold a β for Gaussian noise.
  if (noise == NoiseLaw::None) misuse("a noise scale for a report without noise");
  noiseScale_ = {noiseScaleKey(noise), value, formula};
}

void MechanismReport::setEpsilonThatHolds(const std::string& key, double value, const std::string& formula) {
  epsilonThatHolds_ = DerivedValue{key, value, formula};
}

std::vector<DerivedValue> MechanismReport::rows() const {
  std::vector<DerivedValue> all;
  all.reserve(derived_.size() + 2);
  if (!noiseScale_.key.empty()) all.push_back(noiseScale_);
  all.insert(all.end(), derived_.begin(), derived_.end());
  if (epsilonThatHolds_) all.push_back(*epsilonThatHolds_);
  return all;
}

std::optional<double> MechanismReport::value(const std::string& key) const {
  if (!noiseScale_.key.empty() && noiseScale_.key == key) return noiseScale_.value;
  if (epsilonThatHolds_ && epsilonThatHolds_->key == key) return epsilonThatHolds_->value;
  for (const auto& d : derived_)
    if (d.key == key) return d.value;
  return std::nullopt;
}

std::string calibrationKey(Calibrated which) {
  switch (which) {
    case Calibrated::Delta: return "Delta";
    case Calibrated::Rho: return "rho";
    case Calibrated::GradientTolerance: return "gradient_tolerance";
    case Calibrated::ChosenLambda: return "chosen_lambda";
    case Calibrated::NoiseMultiplier: return "noise_multiplier";
    case Calibrated::Releases: return "releases";
    case Calibrated::SmallestParty: return "smallest_party";
    case Calibrated::TheoremBound: return "theorem_4_2_bound";
    case Calibrated::ProtocolBytes: return "protocol_bytes";
    case Calibrated::LearningRate: return "learning_rate";
    case Calibrated::SamplingRate: return "q";
    case Calibrated::Steps: return "steps";
    case Calibrated::Candidates: return "candidates";
    case Calibrated::ChosenIndex: return "chosen_index";
    case Calibrated::SelectionRuns: return "runs";
    case Calibrated::MeanRuns: return "mean_runs";
    case Calibrated::Teachers: return "teachers";
    case Calibrated::PartRows: return "part_rows";
    case Calibrated::ReleaseNoiseFactor: return "release_noise_factor";
  }
  return "";
}

double MechanismReport::calibrated(Calibrated which) const {
  if (const auto found = find(which)) return *found;
  misuse("the calibration of '" + mechanism + "' set no '" + calibrationKey(which) + "'");
}

double MechanismReport::calibrated(const std::string& key) const {
  if (isTyped(key)) misuse("'" + key + "' is typed: read it with calibrated(Calibrated)");
  if (const auto found = value(key)) return *found;
  misuse("the calibration of '" + mechanism + "' set no '" + key + "'");
}

void MechanismReport::set(Calibrated which, double value, const std::string& formula) {
  setRow(calibrationKey(which), value, formula);
}

void MechanismReport::set(const std::string& key, double value, const std::string& formula) {
  // The typed values have their own setters: a second copy here could disagree with them.
  if (key == "beta" || key == "sigma" || key == "laplace_scale" || key == "epsilon_actual" ||
      key == "epsilon_provable")
    misuse("'" + key + "' is typed: use setNoiseScale or setEpsilonThatHolds");
  if (isTyped(key)) misuse("'" + key + "' is typed: use set(Calibrated, …)");
  setRow(key, value, formula);
}

void MechanismReport::setRow(const std::string& key, double value, const std::string& formula) {
  for (auto& d : derived_)
    if (d.key == key) {
      d.value = value;
      d.formula = formula;
      return;
    }
  derived_.push_back({key, value, formula});
}

void MechanismReport::erase(const std::string& key) {
  std::erase_if(derived_, [&](const DerivedValue& d) { return d.key == key; });
}

std::string calibrationWord(const std::optional<Calibration>& calibration) {
  return calibration ? calibrationName(*calibration) : "none";
}

std::string MechanismReport::calibrationWord() const { return mech::calibrationWord(calibration); }

Result<privacy::NoiseDraw> drawReportedNoise(const MechanismReport& report, privacy::NoiseSource& source) {
  const Index m = report.noiseDimension;
  switch (report.noise) {
    case NoiseLaw::L2Laplace: return privacy::drawL2Laplace(source, report.noiseScale(), m);
    case NoiseLaw::Gaussian: return privacy::drawGaussian(source, report.noiseScale(), m);
    case NoiseLaw::LaplacePerCoordinate: return privacy::drawLaplacePerCoordinate(source, report.noiseScale(), m);
    case NoiseLaw::None:
    case NoiseLaw::ExponentialMechanism: break;
  }
  return Error{ErrorKind::InvalidPrivacy,
               "'" + report.mechanism + "' draws no noise vector (" + noiseLawName(report.noise) + ")", {}, 0,
               "noise"};
}

}  // namespace dpstudio::mech
