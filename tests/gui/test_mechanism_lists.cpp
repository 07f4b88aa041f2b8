// The Mechanism form's list and the Audit form's list, both read from core's mechanism
// catalogue (core/experiment/mechanism_catalog.h); split from test_mechanism_dock.

#include <QComboBox>
#include <QTest>

#include "core/experiment/mechanism_catalog.h"
#include "core/experiment/privacy_plan.h"
#include "ui/privacy/audit_settings.h"
#include "ui/training/mechanism_catalog.h"

namespace experiment = dpstudio::experiment;
using dpstudio::ui::auditMechanisms;
using dpstudio::ui::auditMechanismTitle;
using dpstudio::ui::fillMechanismList;
using dpstudio::ui::isComboItemEnabled;
using dpstudio::ui::mechanismNote;

class TestMechanismLists : public QObject {
  Q_OBJECT

 private slots:
  // The Mechanism list and the Audit list are core's catalogue: every key once, under its
  // group's header, with the catalogue's note and a tooltip naming its section.
  void listsAreTheCatalogues() {
    QComboBox box;
    fillMechanismList(&box);
    QStringList listed;
    for (int i = 0; i < box.count(); ++i)
      if (isComboItemEnabled(&box, i)) listed << box.itemData(i).toString();
    QStringList expected;
    for (const experiment::MechanismEntry& e : experiment::mechanismCatalog()) {
      expected << QString::fromStdString(e.key);
      QVERIFY2(box.findText(QString::fromStdString(experiment::groupTitle(e.group))) >= 0, e.key.c_str());
      if (e.plan == experiment::PlanKind::NonPrivate) continue;
      const int row = box.findData(QString::fromStdString(e.key));
      QVERIFY(box.itemData(row, Qt::ToolTipRole).toString().contains(QStringLiteral("\u00a73 ") + QString::fromStdString(e.section)));
      QVERIFY(mechanismNote(e.key).startsWith(QString::fromStdString(e.note).chopped(1)));
    }
    QCOMPARE(listed, expected);
    QStringList audited;
    for (const std::string& key : experiment::privateMechanismKeys())
      if (key != "auto") audited << QString::fromStdString(key);  // selection: audit a candidate
    QCOMPARE(auditMechanisms(), audited);
    QCOMPARE(auditMechanismTitle(QStringLiteral("subsample")), QStringLiteral("Subsample-and-aggregate (G)"));
  }
};

QTEST_MAIN(TestMechanismLists)
#include "test_mechanism_lists.moc"
