// The session ledger: records, totals by basic composition, validation, the observer, and
// recording from several threads at once.

#include <QtTest>

#include <atomic>
#include <thread>
#include <vector>

#include "core/privacy/ledger.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

class TestLedger : public QObject {
  Q_OBJECT

 private slots:
  void recordsAndTotals() {
    PrivacyLedger ledger;
    QCOMPARE(ledger.size(), std::size_t{0});
    auto first = ledger.record({0, "output perturbation", 1.0, 0.0, "a9a", {}, "seed 1", {}});
    QVERIFY(first);
    QCOMPARE(first.value().index, std::size_t{0});
    QVERIFY(first.value().time != std::chrono::system_clock::time_point{});
    QVERIFY(ledger.record({0, "dp-sgd", 0.5, 1e-5, "mnist", {}, "", {}}));
    QVERIFY(ledger.record({0, "objective perturbation", 0.25, 0.0, "a9a", {}, "", {}}));
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
    QCOMPARE(ledger.record({0, "x", 1.0, 0.0, "d", when, "", {}}).value().time, when);
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
    auto result = ledger.record({0, mechanism.toStdString(), epsilon, delta, "d", {}, "", {}});
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
    QVERIFY(ledger.record({0, "a", 1.0, 0.0, "d", {}, "", {}}));
    QVERIFY(ledger.record({0, "b", 1.0, 0.0, "d", {}, "", {}}));
    QVERIFY(!ledger.record({0, "", 1.0, 0.0, "d", {}, "", {}}));  // rejected: not observed
    QCOMPARE(sizesSeen, (std::vector<std::size_t>{1, 2}));
    ledger.clear();
    QCOMPARE(cleared, 1);
    QCOMPARE(ledger.size(), std::size_t{0});
    ledger.setObserver({});
    QVERIFY(ledger.record({0, "c", 1.0, 0.0, "d", {}, "", {}}));
    QCOMPARE(sizesSeen.size(), std::size_t{2});
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
          (void)ledger.record({0, "thread " + std::to_string(t), 0.001, 1e-9, "d", {}, "", {}});
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
