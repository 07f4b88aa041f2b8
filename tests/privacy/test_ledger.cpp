// The session ledger: records, totals by basic composition, validation, the observer,
// recording from several threads at once, the keeper that puts every change on the record
// first, and one entry per inference budget.

#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

#include "core/privacy/ledger.h"
#include "core/privacy/ledger_totals.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

LedgerEntry entry(const std::string& mechanism, double epsilon, double delta, const std::string& dataset,
                  const std::string& note, std::chrono::system_clock::time_point time) {
  LedgerEntry e;
  e.mechanism = mechanism;
  e.epsilon = epsilon;
  e.delta = delta;
  e.dataset = dataset;
  e.note = note;
  e.time = time;
  return e;
}

// `answers` given now, `before` given before the session recorded any.
LedgerEntry opening(std::uint64_t budgetId, long long budget, long long answers, long long before = 0) {
  LedgerEntry e = entry("prediction sensitivity", 1.0, 0.0, "iris", "", {});
  e.inferenceBudget = InferenceBudgetUse{budgetId, budget, answers, before, true};
  return e;
}

}  // namespace

class TestLedger : public QObject {
  Q_OBJECT

 private slots:
  void recordsAndTotals() {
    PrivacyLedger ledger;
    QCOMPARE(ledger.size(), std::size_t{0});
    auto first = ledger.record(entry("output perturbation", 1.0, 0.0, "a9a", "seed 1", {}));
    QVERIFY(first);
    QCOMPARE(first.value().index, std::size_t{0});
    QVERIFY(first.value().time != std::chrono::system_clock::time_point{});
    QVERIFY(ledger.record(entry("dp-sgd", 0.5, 1e-5, "mnist", "", {})));
    QVERIFY(ledger.record(entry("objective perturbation", 0.25, 0.0, "a9a", "", {})));
    QCOMPARE(ledger.total().epsilon, 1.75);
    QCOMPARE(ledger.total().delta, 1e-5);
    QCOMPARE(ledger.totalFor("a9a").epsilon, 1.25);
    QCOMPARE(ledger.totalFor("mnist").delta, 1e-5);
    QCOMPARE(ledger.totalFor("iris").epsilon, 0.0);
    const auto entries = ledger.entries();
    QCOMPARE(entries.size(), std::size_t{3});
    QCOMPARE(entries[1].mechanism, std::string("dp-sgd"));
    QCOMPARE(entries[2].index, std::size_t{2});
    QCOMPARE(entries[0].note, std::string("seed 1"));
  }

  void keepsAGivenTime() {
    PrivacyLedger ledger;
    const auto when = std::chrono::system_clock::time_point{} + std::chrono::hours(1000);
    QCOMPARE(ledger.record(entry("x", 1.0, 0.0, "d", "", when)).value().time, when);
  }

  void rejectsInvalidEntries_data() {
    QTest::addColumn<QString>("mechanism");
    QTest::addColumn<double>("epsilon");
    QTest::addColumn<double>("delta");
    QTest::addColumn<QString>("name");
    QTest::newRow("unnamed mechanism") << "" << 1.0 << 0.0 << "mechanism";
    QTest::newRow("negative epsilon") << "m" << -1.0 << 0.0 << "epsilon";
    QTest::newRow("infinite epsilon") << "m" << qInf() << 0.0 << "epsilon";
    QTest::newRow("delta 1") << "m" << 1.0 << 1.0 << "delta";
    QTest::newRow("negative delta") << "m" << 1.0 << -1e-9 << "delta";
  }

  void rejectsInvalidEntries() {
    QFETCH(QString, mechanism);
    QFETCH(double, epsilon);
    QFETCH(double, delta);
    QFETCH(QString, name);
    PrivacyLedger ledger;
    auto result = ledger.record(entry(mechanism.toStdString(), epsilon, delta, "d", "", {}));
    QVERIFY(!result);
    QCOMPARE(result.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(QString::fromStdString(result.error().field), name);
    QCOMPARE(ledger.size(), std::size_t{0});
  }

  void observerSeesEveryChangeAndMayReadBack() {
    PrivacyLedger ledger;
    std::vector<std::size_t> sizesSeen;
    int cleared = 0;
    ledger.setObserver([&](PrivacyLedger::Change change, const LedgerEntry& entry) {
      if (change == PrivacyLedger::Change::Cleared) {
        ++cleared;
        return;
      }
      // Reading the ledger from the observer must not deadlock.
      sizesSeen.push_back(ledger.size());
      QCOMPARE(ledger.entries().back().index, entry.index);
    });
    QVERIFY(ledger.record(entry("a", 1.0, 0.0, "d", "", {})));
    QVERIFY(ledger.record(entry("b", 1.0, 0.0, "d", "", {})));
    QVERIFY(!ledger.record(entry("", 1.0, 0.0, "d", "", {})));  // rejected: not observed
    QCOMPARE(sizesSeen, (std::vector<std::size_t>{1, 2}));
    ledger.clear();
    QCOMPARE(cleared, 1);
    QCOMPARE(ledger.size(), std::size_t{0});
    ledger.setObserver({});
    QVERIFY(ledger.record(entry("c", 1.0, 0.0, "d", "", {})));
    QCOMPARE(sizesSeen.size(), std::size_t{2});
  }

  // What the file needs of every entry: an id unique across sessions, the session, and a
  // time in whole milliseconds (what the file keeps), so that an entry reads back equal.
  void stampsIdSessionAndAMillisecondTime() {
    PrivacyLedger ledger;
    ledger.setSession("test session");
    const LedgerEntry a = ledger.record(entry("a", 1.0, 0.0, "d", "", {})).value();
    const LedgerEntry b = ledger.record(entry("b", 1.0, 0.0, "d", "", {})).value();
    QCOMPARE(a.id.size(), std::size_t{32});
    QVERIFY(a.id.find_first_not_of("0123456789abcdef") == std::string::npos);
    QVERIFY(a.id != b.id);
    QCOMPARE(a.session, std::string("test session"));
    QCOMPARE(std::chrono::time_point_cast<std::chrono::milliseconds>(a.time), a.time);
    LedgerEntry given = entry("c", 1.0, 0.0, "d", "", {});
    given.id = "kept";
    given.session = "an earlier session";
    const LedgerEntry c = ledger.record(given).value();
    QCOMPARE(c.id, std::string("kept"));
    QCOMPARE(c.session, std::string("an earlier session"));
  }

  // A budget is one release however many times its answers are recorded: each record adds
  // the answers it gives (the first also those given before), and past B is refused.
  void aBudgetRecordedAgainAddsItsAnswers() {
    PrivacyLedger ledger;
    QVERIFY(ledger.record(opening(77, 10, 2, 1)));
    auto again = ledger.record(opening(77, 10, 4, 5));  // `before` counts once, at the opening
    QVERIFY(again);
    QCOMPARE(ledger.size(), std::size_t{1});
    QCOMPARE(again.value().inferenceBudget->answers, 6LL);
    QCOMPARE(again.value().inferenceBudget->counted(), 7LL);
    QCOMPARE(ledger.total().epsilon, 1.0);
    auto over = ledger.record(opening(77, 10, 4));
    QVERIFY(!over);
    QCOMPARE(QString::fromStdString(over.error().field), QStringLiteral("budget"));
    QVERIFY2(over.error().message.find("counts 7 of the 10 answers") != std::string::npos, over.error().message.c_str());
    QCOMPARE(ledger.entries().front().inferenceBudget->counted(), 7LL);  // refused: nothing added
    QVERIFY(ledger.record(opening(77, 10, 3)));                          // exactly B
    QVERIFY(ledger.record(opening(78, 10, 1)));  // another budget: another release
    QCOMPARE(ledger.size(), std::size_t{2});
  }

  // The keeper sees the session as it will be, before the change; its error refuses the
  // release, which then is neither in the ledger nor observed.
  void theKeeperComesFirstAndItsErrorRefusesTheRelease() {
    PrivacyLedger ledger;
    std::vector<std::size_t> kept;
    bool failing = false;
    int observed = 0;
    ledger.setObserver([&](PrivacyLedger::Change, const LedgerEntry&) { ++observed; });
    ledger.setKeeper([&](const std::vector<LedgerEntry>& session) -> Result<std::vector<LedgerEntry>> {
      if (failing) return Error{ErrorKind::Internal, "disk full", "ledger.json", 0, {}};
      kept.push_back(session.size());
      if (!session.empty() && session.back().mechanism == "second") {
        // The keeper is called before the entry is in the ledger.
        if (ledger.size() != 1) return Error{ErrorKind::Internal, "kept too late", {}, 0, {}};
      }
      return session;
    });
    QVERIFY(ledger.record(entry("first", 1.0, 0.0, "d", "", {})));
    QVERIFY(ledger.record(entry("second", 1.0, 0.0, "d", "", {})));
    QCOMPARE(kept, (std::vector<std::size_t>{1, 2}));
    failing = true;
    auto refused = ledger.record(entry("third", 1.0, 0.0, "d", "", {}));
    QVERIFY(!refused);
    QCOMPARE(refused.error().message, std::string("disk full"));
    QCOMPARE(ledger.size(), std::size_t{2});
    QCOMPARE(observed, 2);

    // A budget's answers that cannot be kept are not recorded: they are recorded before they
    // are drawn, so they are then never given.
    failing = false;
    QVERIFY(ledger.record(opening(5, 10, 1)));
    failing = true;
    QVERIFY(!ledger.record(opening(5, 10, 3)));
    QCOMPARE(ledger.entries().back().inferenceBudget->answers, 1LL);
  }

  // The session holds its entries as the kept ledger does: an answering session of a budget
  // the ledger file had opened elsewhere is an entry at ε = 0 there, and here too.
  void theSessionTakesItsEntriesAsKept() {
    PrivacyLedger ledger;
    ledger.setKeeper([](const std::vector<LedgerEntry>& session) -> Result<std::vector<LedgerEntry>> {
      std::vector<LedgerEntry> file{opening(9, 10, 4)};
      file.front().id = "opened elsewhere";
      for (const LedgerEntry& e : session) mergeLedgerEntry(file, e);
      return file;
    });
    auto recorded = ledger.record(opening(9, 10, 2, 4));
    QVERIFY(recorded);
    QVERIFY(!recorded.value().inferenceBudget->opens);
    QCOMPARE(recorded.value().epsilon, 0.0);
    QCOMPARE(recorded.value().inferenceBudget->counted(), 2LL);
    QCOMPARE(recorded.value().index, std::size_t{0});
    QCOMPARE(ledger.total().epsilon, 0.0);
  }

  void concurrentRecording() {
    PrivacyLedger ledger;
    std::atomic<int> observed{0};
    ledger.setObserver([&](PrivacyLedger::Change, const LedgerEntry&) { ++observed; });
    constexpr int kThreads = 4, kEach = 500;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&ledger, t] {
        for (int i = 0; i < kEach; ++i)
          (void)ledger.record(entry("thread " + std::to_string(t), 0.001, 1e-9, "d", "", {}));
      });
    for (auto& thread : threads) thread.join();
    QCOMPARE(ledger.size(), std::size_t{kThreads * kEach});
    QCOMPARE(observed.load(), kThreads * kEach);
    DPSTUDIO_COMPARE_REL(ledger.total().epsilon, kThreads * kEach * 0.001, 1e-12);
    const auto entries = ledger.entries();
    for (std::size_t i = 0; i < entries.size(); ++i) QCOMPARE(entries[i].index, i);
  }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "test_ledger.moc"
