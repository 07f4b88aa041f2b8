// The CLI's random Fourier feature options (--rff-dim, --rff-gamma, --rff-seed): train
// prints the map it used and the accuracy it buys on XOR, calibrate counts d = D, and bad
// values are usage errors (exit 2) that name the option.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"

using dpstudio::test::runCli;

namespace {

const QStringList kXor{"--train", "builtin:xor", "--model", "logreg", "--norm-bound", "2"};
const QStringList kTrainXor = QStringList{"train"} + kXor;

}  // namespace

class TestCliRff : public QObject {
  Q_OBJECT

 private slots:
  void trainReportsTheMapAndSolvesXor() {
    const auto run = runCli(kTrainXor + QStringList{"--rff-dim", "100", "--rff-gamma", "4", "--rff-seed", "7", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    QCOMPARE(out["features"].toInt(), 100);  // the stable key: what the model sees
    const QJsonObject map = out["feature_map"].toObject();
    QCOMPARE(map["map"].toString(), QString("rff"));
    QCOMPARE(map["dim"].toInt(), 100);
    QCOMPARE(map["gamma"].toDouble(), 4.0);
    QCOMPARE(map["seed"].toString(), QString("7"));
    QCOMPARE(map["input_dim"].toInt(), 2);
    QVERIFY(out["preprocessing"].toArray().last().toString().contains("random Fourier features"));
    QVERIFY2(out["test_accuracy"].toDouble() >= 0.9, qPrintable(run.out));
    // Without the map the same command is a linear model on XOR: near chance.
    const auto linear = runCli(kTrainXor + QStringList{"--json"});
    QCOMPARE(linear.exitCode, 0);
    QVERIFY(linear.json()["feature_map"].isNull());
    QVERIFY2(linear.json()["test_accuracy"].toDouble() <= 0.7, qPrintable(linear.out));
  }

  // A private mechanism's report counts the map's D (+1 with --intercept).
  void privateTrainingCalibratesForD() {
    const auto run = runCli(kTrainXor + QStringList{"--mechanism", "objective", "--epsilon", "5", "--rff-dim", "50",
                                               "--rff-gamma", "4", "--intercept", "--json"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json()["report"].toObject()["noise_dimension"].toInt(), 51);
    QCOMPARE(run.json()["features"].toInt(), 51);
  }

  void calibrateCountsTheMappedDimension() {
    const QStringList base{"calibrate", "--mechanism", "objective", "--model", "logreg", "--n", "1000", "--json"};
    auto run = runCli(base + QStringList{"--rff-dim", "50"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json()["noise_dimension"].toInt(), 50);
    QCOMPARE(run.json()["features"].toInt(), 50);
    QCOMPARE(run.json()["feature_map"].toObject()["dim"].toInt(), 50);
    run = runCli(base + QStringList{"--d", "5", "--rff-dim", "50", "--intercept"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json()["noise_dimension"].toInt(), 51);
    run = runCli(base + QStringList{"--d", "5"});  // without the map: d as before
    QCOMPARE(run.json()["noise_dimension"].toInt(), 5);
    QCOMPARE(runCli(base).exitCode, 2);  // neither --d nor --rff-dim
  }

  void badOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("gamma 0") << (kTrainXor + QStringList{"--rff-dim", "10", "--rff-gamma", "0"})
                             << "rff-gamma must be finite and > 0";
    QTest::newRow("gamma negative") << (kTrainXor + QStringList{"--rff-dim", "10", "--rff-gamma", "-2"})
                                    << "rff-gamma must be finite and > 0";
    QTest::newRow("gamma inf") << (kTrainXor + QStringList{"--rff-dim", "10", "--rff-gamma", "inf"})
                               << "rff-gamma must be finite and > 0";
    QTest::newRow("gamma not a number") << (kTrainXor + QStringList{"--rff-dim", "10", "--rff-gamma", "wide"})
                                        << "--rff-gamma must be a number";
    QTest::newRow("dim 0") << (kTrainXor + QStringList{"--rff-dim", "0"}) << "--rff-dim must be a whole number >= 1";
    QTest::newRow("gamma without dim") << (kTrainXor + QStringList{"--rff-gamma", "2"}) << "--rff-gamma needs --rff-dim";
    QTest::newRow("calibrate gamma 0")
        << QStringList{"calibrate", "--mechanism", "output", "--model", "logreg", "--n", "100", "--rff-dim", "10",
                       "--rff-gamma", "0"}
        << "rff-gamma must be finite and > 0";
    QTest::newRow("audit without data") << QStringList{"audit", "--mechanism", "output", "--model", "logreg",
                                                       "--rff-dim", "10", "--trials", "100"}
                                        << "--rff-dim applies to --train DATA";
  }

  void badOptionsAreUsageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const auto run = runCli(args + QStringList{"--json"});
    QCOMPARE(run.exitCode, 2);
    const QJsonObject error = run.json()["error"].toObject();
    QCOMPARE(error["code"].toInt(), 2);
    QVERIFY2(error["message"].toString().contains(message), qPrintable(run.out));
  }

  // audit accepts the options with --train (its D is then the mapped training part).
  void auditRunsOnMappedData() {
    const auto run = runCli(QStringList{"audit", "--mechanism", "objective", "--epsilon", "1", "--trials", "200",
                                        "--test-fraction", "0"} +
                            kXor + QStringList{"--rff-dim", "20", "--rff-gamma", "4", "--json"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.json().contains("epsilon_lower"));
    QVERIFY(!run.json()["violation"].toBool());
  }
};

QTEST_GUILESS_MAIN(TestCliRff)
#include "test_cli_rff.moc"
