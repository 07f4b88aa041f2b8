#include "ui/privacy/audit_result_json.h"

#include <QDir>
#include <QJsonDocument>
#include <QObject>
#include <QSaveFile>

#include "core/audit/audit_json.h"

namespace dpstudio::ui {

bool writeAuditResultJson(const audit::AuditResult& result, std::uint64_t seed, const QString& path,
                          QString* error) {
  QSaveFile file(path);
  if (file.open(QIODevice::WriteOnly)) {
    file.write(QJsonDocument(audit::auditResultJson(result, seed)).toJson(QJsonDocument::Indented));
    if (file.commit()) return true;
  }
  if (error) *error = QObject::tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
  return false;
}

}  // namespace dpstudio::ui
