// dpstudio-cli accountant (SPEC "CLI"): JSON keys and the known answers, several events,
// σ calibration by --target-epsilon, and exit codes for invalid parameters.

#include <QJsonArray>
#include <QtTest>

#include <cmath>

#include "tests/cli/cli_runner.h"

using dpstudio::test::runCli;

namespace {

const QStringList kMnist{"accountant", "--q", QString::number(256.0 / 60000, 'g', 17),
                         "--sigma", "1.1", "--steps", "14063", "--delta", "1e-5"};

QStringList withJson(QStringList args) {
  args << "--json";
  return args;
}

}  // namespace

class TestCliAccountant : public QObject {
  Q_OBJECT

 private slots:
  void knownAnswerJson() {
    const auto run = runCli(withJson(kMnist));
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    QVERIFY2(std::abs(out["epsilon"].toDouble() - 2.59708) <= 5e-6, qPrintable(run.out));
    QVERIFY2(std::abs(out["epsilon_classic"].toDouble() - 3.00921) <= 5e-6, qPrintable(run.out));
    QCOMPARE(out["order"].toDouble(), 8.0);
    QCOMPARE(out["order_classic"].toDouble(), 9.0);
    QCOMPARE(out["delta"].toDouble(), 1e-5);
    QCOMPARE(out["events"].toArray().size(), 1);
    QCOMPARE(out["events"].toArray()[0].toObject()["steps"].toInt(), 14063);
    QCOMPARE(out["orders_skipped"].toArray().size(), 0);
    QVERIFY(!out.contains("sigma"));  // only when calibrated
    // The RDP bound is for add/remove adjacency; the output must not pass it off as the
    // substitution ε the mechanisms report.
    QVERIFY(out["adjacency"].toString().startsWith("add/remove"));
  }

  void secondKnownAnswer() {
    const auto run = runCli({"accountant", "--q", "0.001", "--sigma", "1.0", "--steps", "1000",
                             "--delta", "1e-5", "--json"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(std::abs(run.json()["epsilon"].toDouble() - 0.677826) <= 5e-7);
    QVERIFY(std::abs(run.json()["epsilon_classic"].toDouble() - 0.971614) <= 5e-7);
  }

  void severalEventsInOrder() {
    const QString q = QString::number(256.0 / 60000, 'g', 17);
    const auto split = runCli({"accountant", "--q", q, "--sigma", "1.1", "--steps", "7000",
                               "--q", q, "--sigma", "1.1", "--steps", "7063", "--delta", "1e-5",
                               "--json"});
    QCOMPARE(split.exitCode, 0);
    const auto whole = runCli(withJson(kMnist));
    QVERIFY(std::abs(split.json()["epsilon"].toDouble() - whole.json()["epsilon"].toDouble()) < 1e-9);
    const QJsonArray events = split.json()["events"].toArray();
    QCOMPARE(events.size(), 2);
    QCOMPARE(events[1].toObject()["steps"].toInt(), 7063);

    const auto mixed = runCli({"accountant", "--q", "0.01", "--sigma", "1", "--steps", "100",
                               "--q", "0.5", "--sigma", "4", "--steps", "3", "--delta", "1e-6",
                               "--json"});
    QCOMPARE(mixed.exitCode, 0);
    QCOMPARE(mixed.json()["events"].toArray()[1].toObject()["sigma"].toDouble(), 4.0);
  }

  void calibratesSigma() {
    const auto run = runCli({"accountant", "--q", QString::number(256.0 / 60000, 'g', 17),
                             "--steps", "14063", "--delta", "1e-5", "--target-epsilon", "2.59708",
                             "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    const double sigma = out["sigma"].toDouble();
    QVERIFY2(sigma > 1.0999 && sigma < 1.1, qPrintable(run.out));
    QVERIFY(out["epsilon"].toDouble() <= 2.59708);
    QCOMPARE(out["target_epsilon"].toDouble(), 2.59708);
    QCOMPARE(out["events"].toArray()[0].toObject()["sigma"].toDouble(), sigma);
  }

  void textOutput() {
    const auto run = runCli(kMnist);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("2.59708") && run.out.contains("3.00921"), qPrintable(run.out));
    QVERIFY(run.out.contains("order 8"));
  }

  void invalidParametersExitWith4_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QStringList event{"--q", "0.01", "--sigma", "1", "--steps", "10"};
    QTest::newRow("delta 0") << (QStringList{"accountant"} << event << "--delta" << "0") << "--delta";
    QTest::newRow("delta 1") << (QStringList{"accountant"} << event << "--delta" << "1") << "--delta";
    QTest::newRow("delta negative") << (QStringList{"accountant"} << event << "--delta" << "-1e-5") << "--delta";
    QTest::newRow("q 0") << QStringList{"accountant", "--q", "0", "--sigma", "1", "--steps", "10", "--delta", "1e-5"} << "--q";
    QTest::newRow("q above 1") << QStringList{"accountant", "--q", "1.5", "--sigma", "1", "--steps", "10", "--delta", "1e-5"} << "--q";
    QTest::newRow("sigma 0") << QStringList{"accountant", "--q", "0.1", "--sigma", "0", "--steps", "10", "--delta", "1e-5"} << "--sigma";
    QTest::newRow("sigma negative in event 2")
        << (QStringList{"accountant"} << event << "--q" << "0.1" << "--sigma" << "-2" << "--steps" << "3"
                                      << "--delta" << "1e-5") << "event 2";
    QTest::newRow("steps 0") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "0", "--delta", "1e-5"} << "--steps";
    QTest::newRow("mismatched counts")
        << QStringList{"accountant", "--q", "0.1", "--q", "0.2", "--sigma", "1", "--steps", "10",
                       "--steps", "5", "--delta", "1e-5"} << "--sigma";
    QTest::newRow("target epsilon negative")
        << QStringList{"accountant", "--q", "0.1", "--steps", "10", "--delta", "1e-5",
                       "--target-epsilon", "-1"} << "--target-epsilon";
    QTest::newRow("target epsilon unreachable")
        << QStringList{"accountant", "--q", "0.1", "--steps", "10", "--delta", "1e-5",
                       "--target-epsilon", "0.0001"} << "--target-epsilon";
  }

  void invalidParametersExitWith4() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    auto run = runCli(args);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(mentions), qPrintable(run.err));
    run = runCli(withJson(args));
    QCOMPARE(run.exitCode, 4);
    QCOMPARE(run.json()["error"].toObject()["code"].toInt(), 4);
    QVERIFY(run.json()["error"].toObject()["message"].toString().contains(mentions));
  }

  void usageErrorsExitWith2_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no events") << QStringList{"accountant", "--delta", "1e-5"};
    QTest::newRow("no delta") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10"};
    QTest::newRow("q not a number") << QStringList{"accountant", "--q", "abc", "--sigma", "1", "--steps", "10", "--delta", "1e-5"};
    QTest::newRow("steps not whole") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "1.5", "--delta", "1e-5"};
    QTest::newRow("sigma and target") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10", "--delta", "1e-5", "--target-epsilon", "1"};
  }

  void usageErrorsExitWith2() {
    QFETCH(QStringList, args);
    QCOMPARE(runCli(args).exitCode, 2);
  }

  void helpListsTheOptions() {
    const auto run = runCli({"accountant", "--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* option : {"--q", "--sigma", "--steps", "--delta", "--target-epsilon", "--json"})
      QVERIFY2(run.out.contains(option), option);
    QVERIFY(runCli({"--help"}).out.contains("accountant"));
  }
};

QTEST_GUILESS_MAIN(TestCliAccountant)
#include "test_cli_accountant.moc"
