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
  bool preprocessingPrivate = true;
  std::vector<std::string> preprocessingNotPrivate;
  std::vector<std::string> structureFromData;  // Provenance::structureFromData
  // The bundle also carries non-private parameters (θ*, the teachers) behind a budget.
  std::string nonPrivateParameters;
};

QJsonObject privacyStatement(const mech::MechanismReport& report, const PrivacyContext& context);

}  // namespace dpstudio::bundle
