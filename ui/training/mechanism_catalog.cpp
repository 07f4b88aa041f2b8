#include "ui/training/mechanism_catalog.h"

#include <QComboBox>
#include <QFont>
#include <QObject>
#include <QStandardItemModel>

#include "core/experiment/mechanism_catalog.h"

namespace dpstudio::ui {
namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

// "    Objective perturbation (binary models)": indented under its group's header.
QString listLabel(const experiment::MechanismEntry& e) {
  QString label = QStringLiteral("    ") + text(e.title);
  if (e.plan == experiment::PlanKind::NonPrivate) label = QStringLiteral("    None \u2014 non-private");
  if (!e.qualifier.empty()) label += QStringLiteral(" (%1)").arg(text(e.qualifier));
  return label;
}

QStandardItemModel* itemsOf(QComboBox* box) { return qobject_cast<QStandardItemModel*>(box->model()); }

void addHeader(QComboBox* box, const QString& text) {
  auto* item = new QStandardItem(text);
  item->setFlags(Qt::NoItemFlags);  // a section title: not selectable, skipped by the keys
  QFont font = item->font();
  font.setBold(true);
  item->setFont(font);
  itemsOf(box)->appendRow(item);
}

}  // namespace

void setComboItemAllowed(QComboBox* box, int index, const QString& problem, const QString& help) {
  QStandardItem* item = itemsOf(box)->item(index);
  item->setEnabled(problem.isEmpty());
  item->setToolTip(problem.isEmpty() ? help : QObject::tr("Not available: %1").arg(problem));
}

void keepComboOnEnabledItem(QComboBox* box) {
  const QStandardItemModel* items = itemsOf(box);
  if (box->currentIndex() >= 0 && items->item(box->currentIndex())->isEnabled()) return;
  for (int i = 0; i < box->count(); ++i)
    if (items->item(i)->isEnabled()) {
      box->setCurrentIndex(i);
      return;
    }
}

void fillMechanismList(QComboBox* box) {
  bool first = true;
  experiment::MechanismGroup group{};
  for (const experiment::MechanismEntry& e : experiment::mechanismCatalog()) {
    if (first || e.group != group) addHeader(box, text(experiment::groupTitle(e.group)));
    first = false;
    group = e.group;
    box->addItem(listLabel(e), text(e.key));
    if (e.plan != experiment::PlanKind::NonPrivate) box->setItemData(box->count() - 1, mechanismHelp(e.key), Qt::ToolTipRole);
  }
}

bool isComboItemEnabled(QComboBox* box, int index) {
  return index >= 0 && index < box->count() && itemsOf(box)->item(index)->isEnabled();
}

QString mechanismNote(const std::string& key) {
  const experiment::MechanismEntry* e = experiment::findMechanism(key);
  if (!e) return {};
  QString note = text(e->note);
  if (e->section.empty()) return note;
  // "Noise on the trained parameters (§A)."
  const bool period = note.endsWith(QLatin1Char('.'));
  if (period) note.chop(1);
  return QStringLiteral("%1 (\u00a73 %2)%3").arg(note, text(e->section), period ? QStringLiteral(".") : QString());
}

QString mechanismNote(mech::MechanismKind kind) { return mechanismNote(mech::mechanismName(kind)); }
QString predictionNote(const QString& choice) { return mechanismNote(choice.toStdString()); }

QString mechanismHelp(const std::string& key) {
  const experiment::MechanismEntry* e = experiment::findMechanism(key);
  if (!e) return {};
  if (e->section.empty()) return text(e->help);
  return QStringLiteral("%1: %2 (Help \u2192 Algorithms \u00a73 %1)").arg(text(e->section), text(e->help));
}

QString mechanismTitle(const std::string& key) {
  const experiment::MechanismEntry* e = experiment::findMechanism(key);
  return e ? text(e->title) : QString::fromStdString(key);
}

}  // namespace dpstudio::ui
