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

std::string GuaranteeScope::covers() const {
  if (!mechanismHolds) return "nothing: the result is NOT private (see not_private)";
  if (structureFromData.empty()) return "the whole result: every value in it was drawn by the mechanism or declared";
  std::string what;
  for (const std::string& item : structureFromData) what += (what.empty() ? "" : ", ") + item;
  return "the parameters given the data's structure, but NOT the structure itself (" + what +
         "), which was read off the private rows rather than declared: the result as a whole is NOT private";
}

GuaranteeScope guaranteeScope(const mech::MechanismReport& report, const PrivacyContext& context) {
  GuaranteeScope scope;
  const bool mechanism = context.mechanismKey != "none";
  const bool finite = mechanism && std::isfinite(report.epsilon);
  auto& reasons = scope.notPrivate;
  if (!mechanism) reasons.push_back("the model was trained without a privacy mechanism: its parameters are NOT private");
  if (mechanism && !finite) reasons.push_back("the mechanism guarantees nothing (epsilon = infinity)");
  if (!report.warning.empty()) reasons.push_back("as published: " + report.warning);
  if (!report.converged())
    reasons.push_back("the optimizer stopped before its tolerance: the release is an approximate minimizer, which "
                      "the privacy proof does not cover");
  if (mechanism && context.noise == privacy::NoiseKind::Experiment)
    reasons.push_back("experiment noise: drawn from a seeded generator, so whoever knows the seed can remove it; "
                      "train with --noise release for a model to publish");
  for (const std::string& step : context.dataDependentSteps) reasons.push_back("preprocessing: " + step);
  // The non-private parameters of a stateful predictor are expected: its answers are private.
  scope.mechanismHolds = finite && reasons.empty();
  if (!context.nonPrivateParameters.empty()) reasons.push_back(context.nonPrivateParameters);
  scope.structureFromData = context.structureFromData;
  return scope;
}

QJsonObject privacyStatement(const mech::MechanismReport& report, const PrivacyContext& context) {
  const bool mechanism = context.mechanismKey != "none";
  const bool guarantee = mechanism && std::isfinite(report.epsilon);
  const GuaranteeScope scope = guaranteeScope(report, context);
  QJsonObject derived, formulas;
  for (const mech::DerivedValue& d : report.rows()) {
    if (mech::isDiagnosticValue(d.key)) continue;
    derived[QString::fromStdString(d.key)] = d.value;
    formulas[QString::fromStdString(d.key)] = QString::fromStdString(d.formula);
  }
  QJsonObject out{
      {"private", scope.isPrivate()},
      {"mechanism_guarantee_holds", scope.mechanismHolds},
      {"covers", QString::fromStdString(scope.covers())},
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
      {"not_private", stringArray(scope.notPrivate)},
      // Read off the private rows rather than declared (classes, dimension, a stratified
      // split): no mechanism accounts for it; listed so that a reader can judge it.
      {"structure_from_data", stringArray(context.structureFromData)},
  };
  if (!report.warning.empty()) out["warning"] = QString::fromStdString(report.warning);
  if (report.termination) out["converged"] = report.converged();
  return out;
}

}  // namespace dpstudio::bundle
