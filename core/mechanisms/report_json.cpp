#include "core/mechanisms/report_json.h"

#include <QJsonArray>

#include <cmath>

namespace dpstudio::mech {

QJsonObject reportToJson(const MechanismReport& report) {
  // No mechanism, or one that adds no effective noise (ε = ∞), claims no (ε, δ): null, not the
  // options' default ε = 1 (issue 32 item 7).
  const bool claims = report.calibration.has_value() && std::isfinite(report.epsilon);
  QJsonObject out{
      {"mechanism", QString::fromStdString(report.mechanism)},
      {"model", QString::fromStdString(report.model)},
      {"calibration", QString::fromStdString(report.calibrationWord())},
      {"noise", QString::fromStdString(report.noiseWord())},
      {"noise_source", QString::fromStdString(report.noiseSource)},
      {"epsilon", claims ? QJsonValue(report.epsilon) : QJsonValue::Null},
      {"delta", claims ? QJsonValue(report.delta) : QJsonValue::Null},
      {"noise_dimension", static_cast<qint64>(report.noiseDimension)},
      {"expected_noise_norm", report.expectedNoiseNorm},
      {"gradient_norm", report.gradientNorm},
      {"release_granularity", report.releaseGranularity},
      {"statement", QString::fromStdString(report.statement)},
  };
  if (!report.noiseNorms.empty()) {
    QJsonArray norms;
    for (double n : report.noiseNorms) norms.append(n);
    out["noise_norm"] = report.noiseNorms.front();
    out["noise_norms"] = norms;
    // ‖b‖ beside the released θ* + b says how far θ* is, and the reached gradient norm is
    // measured on the data: experiment diagnostics the guarantee does not cover.
    out["diagnostics_not_private"] = QJsonArray{"noise_norm", "noise_norms", "gradient_norm"};
  }
  if (report.termination) {
    out["converged"] = report.converged();
    out["optimizer_termination"] = QString::fromStdString(terminationName(*report.termination));
  }
  if (!report.warning.empty()) out["warning"] = QString::fromStdString(report.warning);
  QJsonObject formulas;
  for (const auto& d : report.rows()) {
    out[QString::fromStdString(d.key)] = d.value;
    formulas[QString::fromStdString(d.key)] = QString::fromStdString(d.formula);
  }
  out["formulas"] = formulas;
  return out;
}

}  // namespace dpstudio::mech
