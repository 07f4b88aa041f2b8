// The mechanism catalogue (core/experiment/mechanism_catalog.h): one table that every list
// of mechanisms reads. Each entry is a mechanism core can run as the plan kind it names,
// PrivacyPlan's keys and titles come from it, its sections exist in the algorithms
// reference, and the key list the CLI prints is the table's.

#include <QFile>
#include <QTest>

#include <set>

#include "core/experiment/mechanism_catalog.h"
#include "core/experiment/plan_choice.h"
#include "core/experiment/privacy_plan.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

namespace {

PlanKind kindOf(const PrivacyPlan& plan) {
  if (std::holds_alternative<TrainingMechanism>(plan.choice)) return PlanKind::Training;
  if (std::holds_alternative<PrivatePrediction>(plan.choice)) return PlanKind::Prediction;
  if (std::holds_alternative<Multiparty>(plan.choice)) return PlanKind::Multiparty;
  return PlanKind::NonPrivate;
}

}  // namespace

class TestMechanismCatalog : public QObject {
  Q_OBJECT

 private slots:
  void everyEntryIsAMechanismCoreRuns() {
    const auto& catalog = mechanismCatalog();
    QVERIFY(catalog.size() >= 9);
    QCOMPARE(catalog.front().key, std::string("none"));
    std::set<std::string> keys, sections;
    const PrivacyPlan base = PrivacyPlan::nonPrivate(LearnerSpec{ModelKind::LogisticRegression, 1e-3, 0.5});
    for (const MechanismEntry& e : catalog) {
      QVERIFY2(keys.insert(e.key).second, e.key.c_str());
      QVERIFY2(!e.title.empty() && !e.note.empty() && !e.help.empty(), e.key.c_str());
      if (e.plan != PlanKind::NonPrivate) QVERIFY2(sections.insert(e.section).second, e.key.c_str());
      // The key builds a plan of the kind the entry says, which reports the same key and
      // is titled by the entry.
      const PrivacyPlan plan = test::orDie(withMechanism(base, e.key));
      QVERIFY2(kindOf(plan) == e.plan, e.key.c_str());
      QCOMPARE(plan.key(), e.key);
      QCOMPARE(plan.isPrivate(), e.plan != PlanKind::NonPrivate);
      if (e.plan == PlanKind::Training || e.plan == PlanKind::Prediction)
        QVERIFY2(plan.title().rfind(e.title, 0) == 0, (plan.title() + " / " + e.title).c_str());
      QCOMPARE(findMechanism(e.key), &e);
    }
    QCOMPARE(findMechanism("laplace"), nullptr);
  }

  void privateKeysAreTheCataloguesInOrder() {
    std::vector<std::string> expected;
    for (const MechanismEntry& e : mechanismCatalog())
      if (e.key != "none") expected.push_back(e.key);
    QCOMPARE(privateMechanismKeys(), expected);
  }

  void keyListIsASentenceOfTheKeys() {
    const std::string all = mechanismKeyList();
    QVERIFY2(all.rfind("none, auto, output, ", 0) == 0, all.c_str());
    QVERIFY2(all.size() > 11 && all.substr(all.size() - 14) == " or multiparty", all.c_str());
    for (const MechanismEntry& e : mechanismCatalog()) QVERIFY2(all.find(e.key) != std::string::npos, e.key.c_str());
    const std::string training = mechanismKeyList({PlanKind::NonPrivate, PlanKind::Training});
    QVERIFY2(training.find("subsample") == std::string::npos && training.find("dpsgd") != std::string::npos,
             training.c_str());
    // The error for an unknown key lists them.
    const auto unknown = withMechanism(PrivacyPlan::nonPrivate({}), "laplace");
    QVERIFY(!unknown);
    QVERIFY2(unknown.error().message.find(all) != std::string::npos, unknown.error().message.c_str());
  }

  // What the sweep, the GUI and the audit read: warm starts for the mechanisms that perturb
  // the baseline's own problem, the parameters each uses.
  void usesAndWarmStarts() {
    for (const MechanismEntry& e : mechanismCatalog()) {
      QCOMPARE(e.uses.delta, e.key != "multiparty" && e.key != "none");
      QCOMPARE(e.uses.budget, e.plan == PlanKind::Prediction);
      QCOMPARE(e.uses.teachers, e.key == "subsample");
      QCOMPARE(e.uses.parties, e.plan == PlanKind::Multiparty);
      QCOMPARE(e.uses.sgd, e.key == "dpsgd");
      QCOMPARE(e.uses.strongConvexity, e.key == "output");
      // A family to choose only where core accepts both (the training mechanisms but
      // DP-SGD, prediction sensitivity).
      QCOMPARE(e.uses.familyChoice, (e.plan == PlanKind::Training && !e.selectsMechanism && e.key != "dpsgd") ||
                                        e.key == "prediction");
      QCOMPARE(e.releasesAnswers, e.plan == PlanKind::Prediction);
      QCOMPARE(e.startsFromBaseline, e.key == "output" || e.key == "objective" || e.key == "loss" || e.key == "dplmgc");
    }
  }

  // The one plan builder: every key builds the alternative its entry names, with the shared
  // parameters in it and the rest from that kind's own options; choiceOf() gives the choice
  // back, so a plan survives the round trip; errors name their field.
  void planBuilderBuildsEveryKey() {
    for (const MechanismEntry& e : mechanismCatalog()) {
      PlanChoice choice;
      choice.mechanism = e.key;
      choice.learner = LearnerSpec{e.key == "dplmgc" ? ModelKind::Lmgc
                                   : e.key == "dpsgd" ? ModelKind::Softmax
                                                      : ModelKind::LogisticRegression,
                                   0.05, 0.5};
      choice.epsilon = 2.5;
      choice.delta = e.uses.delta ? 1e-6 : 0.0;
      choice.calibration = mech::Calibration::Corrected;
      choice.prediction.budget = 7;
      choice.prediction.teachers = 3;
      choice.multiparty.parties = 3;
      choice.training.sgd.epochs = 2;
      const PrivacyPlan plan = test::orDie(buildPlan(choice));
      QVERIFY2(kindOf(plan) == e.plan, e.key.c_str());
      QCOMPARE(plan.key(), e.key);
      QCOMPARE(plan.learner(), choice.learner);
      if (e.plan != PlanKind::NonPrivate) QCOMPARE(plan.epsilon(), 2.5);
      if (e.uses.delta) QCOMPARE(plan.delta(), 1e-6);
      if (const auto* p = std::get_if<PrivatePrediction>(&plan.choice)) {
        QCOMPARE(p->options.budget, 7LL);
        QCOMPARE(p->options.teachers, Index{3});
      }
      if (const auto* m = std::get_if<Multiparty>(&plan.choice)) QCOMPARE(m->options.parties, Index{3});
      if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) QCOMPARE(t->options.sgd.epochs, 2.0);
      QVERIFY2(test::orDie(buildPlan(choiceOf(plan))) == plan, e.key.c_str());
    }
    PlanChoice bad;
    bad.mechanism = "output";
    bad.epsilon = -1;
    QCOMPARE(buildPlan(bad).error().field, std::string("epsilon"));
    bad.epsilon = 1;
    bad.mechanism = "multiparty";
    bad.family = mech::NoiseFamily::Gaussian;
    QCOMPARE(buildPlan(bad).error().field, std::string("distribution"));
    bad.mechanism = "laplace";
    QCOMPARE(buildPlan(bad).error().field, std::string("mechanism"));
    // assemblePlan does not validate: a form shows what validate() refuses.
    PlanChoice unchecked;
    unchecked.mechanism = "objective";
    unchecked.learner.kind = ModelKind::Softmax;
    QVERIFY(assemblePlan(unchecked));
    QVERIFY(!buildPlan(unchecked));
  }

  // Each private mechanism's section is a heading of the algorithms reference the Help
  // dialog shows ("### A. Output perturbation", under "## 3. Mechanisms").
  void sectionsExistInTheReference() {
    QFile reference(QStringLiteral(DPSTUDIO_ALGORITHMS_REFERENCE));
    QVERIFY2(reference.open(QIODevice::ReadOnly), DPSTUDIO_ALGORITHMS_REFERENCE);
    const QString text = QString::fromUtf8(reference.readAll());
    for (const MechanismEntry& e : mechanismCatalog()) {
      if (e.section.empty()) continue;
      const QString heading = QStringLiteral("\n### %1. ").arg(QString::fromStdString(e.section));
      QVERIFY2(text.contains(heading), qPrintable(heading));
    }
  }
};

QTEST_GUILESS_MAIN(TestMechanismCatalog)
#include "test_mechanism_catalog.moc"
