#include "core/audit/audit_json.h"

#include <QJsonArray>
#include <QString>

namespace dpstudio::audit {
namespace {

QJsonObject pointJson(const RatePoint& p) {
  return QJsonObject{{"threshold", p.threshold}, {"fpr", p.fpr}, {"fnr", p.fnr},
                     {"fpr_upper", p.fprUpper}, {"fnr_upper", p.fnrUpper}};
}

}  // namespace

QJsonObject auditResultJson(const AuditResult& r, std::uint64_t seed) {
  QJsonArray curve;
  for (const auto& point : r.curve.points) curve.append(pointJson(point));
  QJsonObject decision = pointJson(r.certificate.heldOut);
  decision["direction"] = r.certificate.decision.above ? "above" : "below";
  decision["selected_epsilon"] = r.certificate.selectedEpsilon;
  QJsonObject out{
      {"mechanism", QString::fromStdString(r.mechanism)},
      {"calibration", QString::fromStdString(mech::calibrationWord(r.calibration))},
      {"epsilon", r.epsilon},
      {"delta", r.delta},
      {"epsilon_lower", r.epsilonLower},
      {"violation", r.violation},
      {"detectable_epsilon", r.detectableEpsilon},
      {"trials", static_cast<qint64>(r.trials)},
      {"confidence", 0.95},  // joint, of the two Clopper–Pearson bounds (audit.h)
      {"epsilon_lower_uncorrected", r.curve.epsilonUncorrected},
      {"statistic", QString::fromStdString(r.statistic)},
      {"problem", QString::fromStdString(r.problem)},
      {"decision", decision},
      {"curve", curve},
      {"seconds", r.seconds},
      {"seed", QString::number(seed)},
  };
  if (!r.warning.empty()) out["warning"] = QString::fromStdString(r.warning);
  return out;
}

}  // namespace dpstudio::audit
