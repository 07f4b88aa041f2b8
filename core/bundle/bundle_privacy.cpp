#include "core/bundle/bundle_privacy.h"

#include <QJsonArray>

#include <cmath>

#include "core/bundle/manifest_fields.h"

namespace dpstudio::bundle {
namespace {

std::string accountant(const mech::MechanismReport& report, const PrivacyContext& c) {
  if (c.mechanismKey == "none") return "none";
  // DP-SGD reports the PLD accountant's grid when that accountant gave its epsilon.
  if (c.mechanismKey == "dpsgd" && report.accountant == privacy::AccountantKind::Pld)
    return "PLD accountant (privacy loss distributions of the replace-one pair, pessimistic discretization) over "
           "the steps; the RDP bound is in the derived values as epsilon_rdp";
  if (c.mechanismKey == "dpsgd")
    return "RDP accountant (Mironov, Talwar & Zhang 2019) over the steps, converted to substitution by the "
           "weak triangle inequality";
  if (c.mechanismKey == "prediction")
    return "composition over the inference budget: basic, or advanced where it needs less noise";
  if (c.mechanismKey == "subsample")
    return "composition over the inference budget of exponential-mechanism answers (each 2 beta-DP)";
  std::string out = "a single release";
  if (c.oneVsRest)
    out = "basic composition over the " + std::to_string(c.classes) + " one-vs-rest problems (epsilon/" +
          std::to_string(c.classes) + " and delta/" + std::to_string(c.classes) + " each)";
  if (c.tuned) out += "; lambda chosen by private parameter tuning within the same epsilon";
  return out;
}

}  // namespace

QJsonObject privacyStatement(const mech::MechanismReport& report, const PrivacyContext& context) {
  const bool mechanism = context.mechanismKey != "none";
  const bool guarantee = mechanism && std::isfinite(report.epsilon);
  QJsonArray notPrivate;
  if (!mechanism) notPrivate.append("the model was trained without a privacy mechanism: its parameters are NOT private");
  if (mechanism && !guarantee) notPrivate.append("the mechanism guarantees nothing (epsilon = infinity)");
  if (!report.warning.empty()) notPrivate.append(QString::fromStdString("as published: " + report.warning));
  if (!report.converged())
    notPrivate.append("the optimizer stopped before its tolerance: the release is an approximate minimizer, which "
                      "the privacy proof does not cover");
  if (mechanism && context.noise == privacy::NoiseKind::Experiment)
    notPrivate.append("experiment noise: drawn from a seeded generator, so whoever knows the seed can remove it; "
                      "train with --noise release for a model to publish");
  for (const std::string& step : context.preprocessingNotPrivate)
    notPrivate.append(QString::fromStdString("preprocessing: " + step));
  if (!context.nonPrivateParameters.empty()) notPrivate.append(QString::fromStdString(context.nonPrivateParameters));

  // The non-private parameters of a stateful predictor are expected: its answers are private.
  const bool isPrivate = guarantee && report.warning.empty() && report.converged() &&
                         context.noise == privacy::NoiseKind::Release && context.preprocessingPrivate;
  QJsonObject derived, formulas;
  for (const mech::DerivedValue& d : report.rows()) {
    if (mech::isDiagnosticValue(d.key)) continue;
    derived[QString::fromStdString(d.key)] = d.value;
    formulas[QString::fromStdString(d.key)] = QString::fromStdString(d.formula);
  }
  QJsonObject out{
      {"private", isPrivate},
      {"mechanism", QString::fromStdString(context.mechanismKey)},
      {"calibration", QString::fromStdString(report.calibrationWord())},
      {"noise", QString::fromStdString(report.noiseWord())},
      {"noise_source", mechanism ? QString::fromStdString(privacy::NoiseProvenance{context.noise, 0, std::nullopt}.kindName())
                                 : QString("none")},
      {"epsilon", guarantee ? QJsonValue(report.epsilon) : QJsonValue::Null},
      {"delta", guarantee ? QJsonValue(report.delta) : QJsonValue::Null},
      {"adjacency", kAdjacency},
      {"accountant", QString::fromStdString(accountant(report, context))},
      {"release_granularity", report.releaseGranularity},
      {"expected_noise_norm", report.expectedNoiseNorm},
      {"derived", derived},
      {"formulas", formulas},
      {"statement", QString::fromStdString(report.statement)},
      {"not_private", notPrivate},
      // Read off the private rows rather than declared (classes, dimension, a stratified
      // split): no mechanism accounts for it; listed so that a reader can judge it.
      {"structure_from_data", stringArray(context.structureFromData)},
  };
  if (!report.warning.empty()) out["warning"] = QString::fromStdString(report.warning);
  if (report.termination) out["converged"] = report.converged();
  return out;
}

}  // namespace dpstudio::bundle
