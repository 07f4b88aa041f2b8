#include "ui/audit_result_json.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>
#include <QSaveFile>

namespace dpstudio::ui {
namespace {

QJsonObject pointJson(const audit::RatePoint& p) {
  return QJsonObject{{"threshold", p.threshold}, {"fpr", p.fpr}, {"fnr", p.fnr},
                     {"fpr_upper", p.fprUpper}, {"fnr_upper", p.fnrUpper}};
}

}  // namespace

QJsonObject auditResultJson(const audit::AuditResult& r, std::uint64_t seed) {
  QJsonArray curve;
  for (const auto& point : r.curve.points) curve.append(pointJson(point));
  QJsonObject decision = pointJson(r.certificate.heldOut);
  decision["direction"] = r.certificate.decision.above ? "above" : "below";
  decision["selected_epsilon"] = r.certificate.selectedEpsilon;
  QJsonObject out{
      {"mechanism", QString::fromStdString(r.mechanism)},
      {"calibration", QString::fromStdString(r.calibration)},
      {"epsilon", r.epsilon},
      {"delta", r.delta},
      {"epsilon_lower", r.epsilonLower},
      {"violation", r.violation},
      {"trials", static_cast<qint64>(r.trials)},
      {"confidence", 0.95},
      {"epsilon_lower_uncorrected", r.curve.epsilonUncorrected},
      {"statistic", QString::fromStdString(r.statistic)},
      {"problem", QString::fromStdString(r.problem)},
      {"decision", decision},
      {"curve", curve},
      {"seconds", r.seconds},
      // A string, as the CLI writes it: a 64-bit seed does not survive a JSON double.
      {"seed", QString::number(seed)},
  };
  if (!r.warning.empty()) out["warning"] = QString::fromStdString(r.warning);
  return out;
}

bool writeAuditResultJson(const audit::AuditResult& result, std::uint64_t seed, const QString& path,
                          QString* error) {
  QSaveFile file(path);
  if (file.open(QIODevice::WriteOnly)) {
    file.write(QJsonDocument(auditResultJson(result, seed)).toJson(QJsonDocument::Indented));
    if (file.commit()) return true;
  }
  if (error) *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
  return false;
}

}  // namespace dpstudio::ui
