#include "ui/settings_recovery.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTemporaryDir>

namespace dpstudio::ui {

QString setAsideUnreadableSettings() {
  const QString path = QSettings().fileName();
  if (!QFileInfo::exists(path)) return {};
  // Parsed from a copy under a name of its own: QSettings caches each file it has parsed
  // and reports a format error only to the instance that parsed it, so the user's file
  // itself may already be cached as read (and would not say FormatError again).
  const QTemporaryDir scratch;
  const QString copy = scratch.filePath(QStringLiteral("check.conf"));
  if (!scratch.isValid() || !QFile::copy(path, copy)) return {};
  if (QSettings(copy, QSettings::IniFormat).status() != QSettings::FormatError) return {};
  const QString aside =
      path + QStringLiteral(".unreadable-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
  QFile file(path);
  if (!file.rename(aside))
    return QCoreApplication::translate("dpstudio::ui::Settings",
                                       "The settings file %1 could not be read, nor moved aside (%2): the defaults "
                                       "are used for this session, and the file is left as it is.")
        .arg(QDir::toNativeSeparators(path), file.errorString());
  return QCoreApplication::translate("dpstudio::ui::Settings",
                                     "The settings file %1 could not be read. It was kept as %2, and the defaults "
                                     "are used: window layout, last dataset and the Training dock's choices start "
                                     "afresh. The privacy ledger is a separate file and is not affected.")
      .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(aside));
}

}  // namespace dpstudio::ui
