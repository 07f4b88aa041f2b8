// The ledger across sessions: the one merge rule (an entry seen again is the same release;
// each session's answers of a budget add up) and the totals per dataset, which join entries
// sharing a path or a user's name.

#include <QTest>

#include "core/privacy/ledger_totals.h"

using namespace dpstudio::privacy;

namespace {

LedgerEntry release(const std::string& id, double epsilon, double delta, const std::string& path,
                    const std::string& name = {}) {
  LedgerEntry e;
  e.id = id;
  e.mechanism = "output perturbation";
  e.epsilon = epsilon;
  e.delta = delta;
  e.dataset = path;
  e.datasetName = name;
  return e;
}

// A session's entry of a budget of B = 10: `answers` given in it, `before` given before it.
LedgerEntry budgetEntry(const std::string& id, std::uint64_t budgetId, long long answers, long long before = 0) {
  LedgerEntry e = release(id, 2.0, 0.0, "/data/a.csv", "clinic");
  e.inferenceBudget = InferenceBudgetUse{budgetId, 10, answers, before, true};
  return e;
}

}  // namespace

class TestLedgerTotals : public QObject {
  Q_OBJECT

 private slots:
  void mergeAppendsNewEntriesAndIgnoresOnesItHolds() {
    std::vector<LedgerEntry> entries;
    QVERIFY(mergeLedgerEntry(entries, release("a", 1.0, 0.0, "/x")));
    QVERIFY(mergeLedgerEntry(entries, release("b", 1.0, 0.0, "/x")));
    QVERIFY(!mergeLedgerEntry(entries, release("a", 1.0, 0.0, "/x")));  // sent again
    QCOMPARE(entries.size(), std::size_t{2});
    QCOMPARE(ledgerTotal(entries).epsilon, 2.0);
  }

  // Issue 30 item 7: the merge kept the larger count of a budget's sessions, so two copies of
  // a bundle answering 569 rows each showed "711 given" of B = 1000. Each session's answers
  // are its own entry: the budget's count is their sum, its (ε, δ) the opening's alone, and
  // the answers' entries are on the opening's dataset.
  void copiesOfABudgetAddUpTheirAnswers() {
    std::vector<LedgerEntry> entries;
    QVERIFY(mergeLedgerEntry(entries, budgetEntry("opening", 99, 3, 1)));
    LedgerEntry copy = budgetEntry("a copy answering", 99, 4, 3);  // its count before: counted already
    copy.dataset.clear();
    copy.datasetName.clear();  // a bundle never names its data
    QVERIFY(mergeLedgerEntry(entries, copy));
    QCOMPARE(entries.size(), std::size_t{2});
    QCOMPARE(budgetAnswers(entries, 99), 8LL);
    QCOMPARE(ledgerTotal(entries).epsilon, 2.0);
    const LedgerEntry& answers = entries[1];
    QVERIFY(!answers.inferenceBudget->opens);
    QCOMPARE(answers.epsilon, 0.0);
    QCOMPARE(answers.dataset, std::string("/data/a.csv"));
    QCOMPARE(answers.datasetName, std::string("clinic"));
    // A session's count sent again: only ever raised.
    copy.inferenceBudget->answers = 2;
    QVERIFY(!mergeLedgerEntry(entries, copy));
    copy.inferenceBudget->answers = 5;
    QVERIFY(mergeLedgerEntry(entries, copy));
    QCOMPARE(budgetAnswers(entries, 99), 9LL);
    QVERIFY(mergeLedgerEntry(entries, budgetEntry("other budget", 100, 1)));
    QCOMPARE(budgetAnswers(entries, 99), 9LL);
    QCOMPARE(entries.size(), std::size_t{3});
  }

  // Merged all or none: a batch that carries a budget past B is refused, `entries` unchanged.
  void aMergePastTheBudgetIsRefused() {
    std::vector<LedgerEntry> entries{budgetEntry("opening", 7, 6)};
    auto fits = mergeLedgerEntries(entries, {budgetEntry("second", 7, 4), release("x", 1.0, 0.0, "/x")});
    QVERIFY(fits && fits.value());
    QCOMPARE(budgetAnswers(entries, 7), 10LL);
    const std::vector<LedgerEntry> full = entries;
    auto refused = mergeLedgerEntries(entries, {release("y", 1.0, 0.0, "/y"), budgetEntry("third", 7, 1)});
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("budget"));
    QVERIFY2(refused.error().message.find("counts 10 of the 10 answers") != std::string::npos,
             refused.error().message.c_str());
    QCOMPARE(entries.size(), full.size());
    auto again = mergeLedgerEntries(entries, full);  // what it holds, sent again: no change, no refusal
    QVERIFY(again && !again.value());
  }

  void totalsPerPath() {
    const std::vector<LedgerEntry> entries{release("1", 1.0, 1e-6, "/data/a.csv"), release("2", 0.5, 0.0, "builtin:iris"),
                                           release("3", 0.25, 1e-6, "/data/a.csv")};
    const auto totals = datasetTotals(entries);
    QCOMPARE(totals.size(), std::size_t{2});
    QCOMPARE(totals[0].paths, std::vector<std::string>{"/data/a.csv"});
    QVERIFY(totals[0].names.empty());
    QCOMPARE(totals[0].cost.epsilon, 1.25);
    QCOMPARE(totals[0].cost.delta, 2e-6);
    QCOMPARE(totals[0].releases, std::size_t{2});
    QCOMPARE(totals[1].paths, std::vector<std::string>{"builtin:iris"});
    QCOMPARE(totals[1].cost.epsilon, 0.5);
    QCOMPARE(totalOf(totals, entries[2]), &totals[0]);
  }

  // A copy of the data at another path, given the same name, adds up with the original; an
  // unnamed entry of either path joins them (transitively): a total is never split.
  void aNameJoinsPathsTransitively() {
    const std::vector<LedgerEntry> entries{
        release("1", 1.0, 0.0, "/data/a.csv", "clinic"),   // the original, named
        release("2", 1.0, 0.0, "/other/b.csv"),            // unrelated
        release("3", 1.0, 0.0, "/backup/a.csv", "clinic"), // the copy, named alike
        release("4", 1.0, 0.0, "/backup/a.csv"),           // the copy, unnamed
        release("5", 1.0, 0.0, "", "clinic"),              // a bundle's answers, named
    };
    const auto totals = datasetTotals(entries);
    QCOMPARE(totals.size(), std::size_t{2});
    QCOMPARE(totals[0].names, std::vector<std::string>{"clinic"});
    QCOMPARE(totals[0].paths, (std::vector<std::string>{"/backup/a.csv", "/data/a.csv"}));
    QCOMPARE(totals[0].cost.epsilon, 4.0);
    QCOMPARE(totals[0].releases, std::size_t{4});
    QCOMPARE(totals[1].paths, std::vector<std::string>{"/other/b.csv"});
    QCOMPARE(totals[1].cost.epsilon, 1.0);
    for (std::size_t i : {0u, 2u, 3u, 4u}) QCOMPARE(totalOf(totals, entries[i]), &totals[0]);
    QCOMPARE(totalOf(totals, entries[1]), &totals[1]);
  }

  // Entries that name no dataset (a bundle's answers without --dataset-name) are one
  // "unknown" dataset, never merged into a known one.
  void entriesWithoutADatasetAreOneUnknownDataset() {
    const std::vector<LedgerEntry> entries{release("1", 1.0, 0.0, ""), release("2", 1.0, 0.0, "/a"),
                                           release("3", 2.0, 0.0, "")};
    const auto totals = datasetTotals(entries);
    QCOMPARE(totals.size(), std::size_t{2});
    QVERIFY(totals[0].paths.empty() && totals[0].names.empty());
    QCOMPARE(totals[0].cost.epsilon, 3.0);
    QCOMPARE(totalOf(totals, entries[2]), &totals[0]);
    QCOMPARE(totals[1].cost.epsilon, 1.0);
  }
};

QTEST_GUILESS_MAIN(TestLedgerTotals)
#include "test_ledger_totals.moc"
