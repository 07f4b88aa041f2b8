#pragma once
// The manifest's "privacy" object: what the bundle's guarantee is, built from the mechanism's
// report, with nothing in it that was measured on the private data or the drawn noise
// (mech::isDiagnosticValue, the noise norms, the reached gradient norm) and no seed of the
// noise. Keys: private, mechanism, calibration, noise, noise_source, epsilon, delta,
// adjacency, accountant, release_granularity, derived (key → value), formulas (key →
// formula), statement, warning, converged (when a minimizer is released), not_private (why
// the bundle is not, or not wholly, private; empty when it is), structure_from_data (what
// was read off the private rows rather than declared: classes, dimension, stratified split).

#include <QJsonObject>

#include <string>
#include <vector>

#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::bundle {

inline constexpr const char* kAdjacency = "substitution of one training example";

// What the statement needs besides the report.
struct PrivacyContext {
  std::string mechanismKey;  // PrivacyPlan::key(): "none", "output", …, "prediction", "subsample", "multiparty"
  privacy::NoiseKind noise = privacy::NoiseKind::Release;
  bool oneVsRest = false;          // C binary problems, each with ε/C
  Index classes = 2;
  bool tuned = false;              // λ chosen privately (§3 H)
  // Steps fitted on the private rows (Provenance::notPrivate: PCA, CSV categories read off
  // the file, …); any one of them voids the guarantee.
  std::vector<std::string> dataDependentSteps;
  std::vector<std::string> structureFromData;  // Provenance::structureFromData
  // The bundle also carries non-private parameters (θ*, the teachers) behind a budget.
  std::string nonPrivateParameters;
};

// What a result's guarantee covers (issue 30 bug 6), in one place for the bundle, its model
// card, `train`'s output and `inspect`: a result is private only when the mechanism's
// guarantee holds AND nothing about it was read off the private rows. A class set, a
// dimension or a stratified split read off the data is not covered by any mechanism, so it
// makes the whole result "not private", with the mechanism's own guarantee kept apart.
struct GuaranteeScope {
  // The mechanism's (ε, δ) holds for the parameters given the data's structure: a mechanism
  // ran with a finite ε, corrected calibration, release noise, converged, no step fitted on
  // the data.
  bool mechanismHolds = false;
  std::vector<std::string> notPrivate;         // why the mechanism's guarantee fails
  std::vector<std::string> structureFromData;  // read off the private rows, not declared
  bool isPrivate() const { return mechanismHolds && structureFromData.empty(); }
  // One sentence for readers: "the whole model", or what it leaves out.
  std::string covers() const;
};
GuaranteeScope guaranteeScope(const mech::MechanismReport& report, const PrivacyContext& context);

QJsonObject privacyStatement(const mech::MechanismReport& report, const PrivacyContext& context);

}  // namespace dpstudio::bundle
