#include "ui/plot/privacy_status.h"

#include <QObject>

namespace dpstudio::ui {

PrivacyStatus privacyStatus(const QString& mechanism, const QString& budget, bool published,
                            const QString& notPrivate) {
  if (mechanism.isEmpty())
    return {QObject::tr("not private: no mechanism"),
            QObject::tr("<span style=\"color:#b00020\">\u26a0 not private: no mechanism</span>")};
  if (published)
    return {QObject::tr("%1 as published (%2): NOT private as stated").arg(mechanism, budget),
            QObject::tr("%1 <span style=\"color:#b00020\">\u26a0 as published (%2): NOT private as stated</span>")
                .arg(mechanism.toHtmlEscaped(), budget)};
  if (!notPrivate.isEmpty())
    return {QObject::tr("%1, %2, %3: NOT private").arg(mechanism, budget, notPrivate),
            QObject::tr("%1 <span style=\"color:#b00020\">\u26a0 %2, %3: NOT private</span>")
                .arg(mechanism.toHtmlEscaped(), budget, notPrivate.toHtmlEscaped())};
  return {QObject::tr("%1, %2").arg(mechanism, budget),
          QObject::tr("<span style=\"color:#1b5e20\">%1, %2</span>").arg(mechanism.toHtmlEscaped(), budget)};
}

QString pcaViewWarningHtml() {
  return QObject::tr("<br><span style=\"color:#b00020\">\u26a0 PCA view: fitted on the data, not private</span>");
}

}  // namespace dpstudio::ui
