// The ledger across sessions: the one merge rule (an entry or a budget seen again is the same
// release) and the totals per dataset, which join entries sharing a path or a user's name.

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

LedgerEntry budgetEntry(const std::string& id, std::uint64_t budgetId, long long used) {
  LedgerEntry e = release(id, 2.0, 0.0, "/data/a.csv");
  e.inferenceBudget = InferenceBudgetUse{budgetId, 10, used};
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

  // Answers of one budget from several sessions (a bundle answering in another process, the
  // same entry sent again with a larger count): one release, its count the largest seen.
  void mergeCountsABudgetOnceWithItsLargestCount() {
    std::vector<LedgerEntry> entries;
    QVERIFY(mergeLedgerEntry(entries, budgetEntry("opening", 99, 3)));
    QVERIFY(mergeLedgerEntry(entries, budgetEntry("another session", 99, 8)));
    QVERIFY(!mergeLedgerEntry(entries, budgetEntry("a late one", 99, 5)));
    QCOMPARE(entries.size(), std::size_t{1});
    QCOMPARE(entries[0].id, std::string("opening"));
    QCOMPARE(entries[0].inferenceBudget->used, 8LL);
    QCOMPARE(ledgerTotal(entries).epsilon, 2.0);
    LedgerEntry over = budgetEntry("over", 99, 12);
    QVERIFY(mergeLedgerEntry(entries, over));
    QCOMPARE(entries[0].inferenceBudget->used, 10LL);  // capped at B
    QVERIFY(mergeLedgerEntry(entries, budgetEntry("other budget", 100, 1)));
    QCOMPARE(entries.size(), std::size_t{2});
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
