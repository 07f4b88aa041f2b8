// `dpstudio-cli train --mechanism prediction|subsample|multiparty` and `audit`, run as a
// script would (QProcess): the JSON keys of docs/cli.md, what the output says about how the test
// accuracy was measured, and the exit codes of invalid parameters (4), usage errors (2) and
// an audit's violation (6).

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <cmath>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

const QStringList kMultiData{"--train", "builtin:blobs:classes=3,per_class=100", "--norm-bound", "10", "--intercept"};
const QStringList kBinaryData{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept"};

QString describe(const CliRun& run) { return run.out.left(600) + " | " + run.err.left(400); }

void requireTrainKeys(const QJsonObject& json) {
  for (const char* key : {"model", "mechanism", "calibration", "epsilon", "delta", "train_accuracy", "test_accuracy",
                          "seconds", "report"})
    QVERIFY2(json.contains(key), key);
}

}  // namespace

class TestPredictionCli : public QObject {
  Q_OBJECT

 private slots:
  void trainPredictionSensitivity() {
    const auto run = runCli(QStringList{"train"} + kMultiData +
                            QStringList{"--model", "softmax", "--mechanism", "prediction", "--epsilon", "5", "--lambda",
                                        "0.01", "--budget", "20", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    requireTrainKeys(json);
    QCOMPARE(json["mechanism"].toString(), QString("prediction"));
    QCOMPARE(json["answered"].toInt(), 20);
    QCOMPARE(json["budget_remaining"].toInt(), 20);  // answered by an uncharged copy (--evaluation experiment)
    QCOMPARE(json["evaluation"].toString(), QString("experiment"));
    QVERIFY(json["train_accuracy"].isNull());
    QVERIFY(json["test_accuracy_note"].toString().contains("20 of the"));  // a seeded sample, not the first 20
    const QJsonObject report = json["report"].toObject();
    QVERIFY(report.contains("beta"));
    QVERIFY(report.contains("Delta"));
    QVERIFY(report["statement"].toString().contains("answer 21 is refused"));
  }

  void trainSubsampleGaussianIsRefused() {
    const auto run = runCli(QStringList{"train"} + kMultiData +
                            QStringList{"--model", "softmax", "--mechanism", "subsample", "--distribution", "gaussian",
                                        "--delta", "1e-5", "--json"});
    QCOMPARE(run.exitCode, 4);
    QVERIFY(run.json()["error"].toObject()["message"].toString().contains("exponential mechanism"));
  }

  void trainSubsamplePublishedWarns() {
    const auto run = runCli(QStringList{"train"} + kMultiData +
                            QStringList{"--model", "softmax", "--mechanism", "subsample", "--teachers", "10",
                                        "--budget", "15", "--epsilon", "4", "--calibration", "published"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.contains("WARNING"));
    QVERIFY(run.out.contains("as published, NOT (4, 0)-DP"));
    QVERIFY(run.out.contains("15 of the 75 test points, a random sample (seed 1)"));
  }

  void trainMultiparty() {
    const auto run = runCli(QStringList{"train"} + kBinaryData +
                            QStringList{"--model", "logreg", "--mechanism", "multiparty", "--party-split",
                                        "0.15,0.2,0.2,0.2,0.25", "--lambda", "0.01", "--epsilon", "2", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    requireTrainKeys(json);
    QCOMPARE(json["parties"].toArray().size(), 5);
    QVERIFY(json["distance_to_all_data"].toDouble() <= json["theorem_4_2_bound"].toDouble());
    // The all-data DP baseline is a second release: drawn only when asked for.
    QVERIFY(!json["baselines"].toObject().contains("all_data_dp_test_accuracy"));
    QCOMPARE(json["releases"].toArray().size(), 1);
    QCOMPARE(json["report"].toObject()["noise"].toString(), QString("l2-laplace"));
  }

  // Issue 13 bug 1: --multiparty-baseline draws the all-data DP baseline and says it is a
  // second release with its own ε (the run spends 2ε).
  void multipartyBaselineIsASecondRelease() {
    const QStringList args = QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "multiparty", "--lambda", "0.01",
                                         "--epsilon", "2", "--multiparty-baseline"};
    const auto json = runCli(args + QStringList{"--json"});
    QVERIFY2(json.exitCode == 0, qPrintable(describe(json)));
    QVERIFY(json.json()["baselines"].toObject().contains("all_data_dp_test_accuracy"));
    const QJsonArray releases = json.json()["releases"].toArray();
    QCOMPARE(releases.size(), 2);
    QCOMPARE(releases[1].toObject()["epsilon"].toDouble(), 2.0);
    const auto text = runCli(args);
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY2(text.out.contains("second release") && text.out.contains("2 + 2 = 4"), qPrintable(text.out));
  }

  void invalidParametersExitFour_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("budget 0") << QStringList{"--model", "softmax", "--mechanism", "prediction", "--budget", "0"};
    QTest::newRow("more teachers than rows") << QStringList{"--model", "softmax", "--mechanism", "subsample",
                                                            "--teachers", "100000"};
    QTest::newRow("fractions not summing to 1") << QStringList{"--model", "logreg", "--mechanism", "multiparty",
                                                               "--party-split", "0.5,0.4"};
    QTest::newRow("multiparty on three classes") << QStringList{"--model", "logreg", "--mechanism", "multiparty"};
  }
  void invalidParametersExitFour() {
    QFETCH(QStringList, args);
    const auto run = runCli(QStringList{"train"} + kMultiData + args + QStringList{"--json"});
    QVERIFY2(run.exitCode == 4, qPrintable(describe(run)));
    QVERIFY(run.json().contains("error"));
  }

  void partiesDisagreeingWithSplitIsUsage() {
    const auto run = runCli(QStringList{"train"} + kBinaryData +
                            QStringList{"--model", "logreg", "--mechanism", "multiparty", "--parties", "3",
                                        "--party-split", "0.5,0.5"});
    QCOMPARE(run.exitCode, 2);
  }

  void auditJsonHasTheSpecKeys() {
    const auto run = runCli({"audit", "--mechanism", "subsample", "--model", "logreg", "--teachers", "4", "--budget",
                             "1", "--epsilon", "1", "--calibration", "published", "--trials", "4000", "--json"});
    QVERIFY2(run.exitCode == 6, qPrintable(describe(run)));  // a violation (docs/cli.md's exit codes)
    const QJsonObject json = run.json();
    for (const char* key : {"mechanism", "epsilon", "delta", "epsilon_lower", "violation", "trials", "detectable_epsilon"})
      QVERIFY2(json.contains(key), key);
    QCOMPARE(json["mechanism"].toString(), QString("subsample"));
    QCOMPARE(json["trials"].toInt(), 4000);
    QVERIFY(json["violation"].toBool());
    QVERIFY(json["curve"].toArray().size() >= 2);
  }

  void auditOfATrainingMechanismOnData() {
    const auto run = runCli(QStringList{"audit"} + kBinaryData +
                            QStringList{"--mechanism", "output", "--model", "logreg", "--lambda", "0.1", "--trials",
                                        "2000", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    QCOMPARE(json["mechanism"].toString(), QString("output"));
    QVERIFY(!json["violation"].toBool());
    QVERIFY(json["problem"].toString().contains("builtin:blobs"));
  }

  // Issue 30 item 11: a violation exited 0, so scripts and CI could not act on it. It exits 6,
  // in text and JSON alike, with the whole result printed; a run that finds none exits 0. Next
  // to every verdict, the audit's power: the largest epsilon_lower its trials can certify.
  void auditExitsSixOnAViolation() {
    const QStringList subsample{"audit", "--mechanism", "subsample", "--model", "logreg", "--teachers", "4",
                                "--budget", "1", "--epsilon", "1", "--trials", "4000", "--calibration"};
    // 2000 of the 4000 runs per side certify: at most ln((1 − u)/u), u = 1 − 0.025^(1/2000): 6.2947.
    const double u = 1.0 - std::pow(0.025, 1.0 / 2000.0), most = std::log((1.0 - u) / u);
    const QString power = "power           with 4000 trials the audit certifies at most epsilon_lower " +
                          QString::number(most, 'f', 4);
    const auto text = runCli(subsample + QStringList{"published"});
    QCOMPARE(text.exitCode, 6);
    QVERIFY2(text.out.contains("verdict         VIOLATION"), qPrintable(describe(text)));
    QVERIFY2(text.out.contains(power), qPrintable(text.out));
    const auto json = runCli(subsample + QStringList{"published", "--json"});
    QCOMPARE(json.exitCode, 6);
    QVERIFY(json.json()["violation"].toBool());
    QVERIFY(std::abs(json.json()["detectable_epsilon"].toDouble() - most) < 1e-9);

    const auto clean = runCli(subsample + QStringList{"corrected"});
    QCOMPARE(clean.exitCode, 0);
    QVERIFY2(clean.out.contains("verdict         no violation found"), qPrintable(describe(clean)));
    QVERIFY(clean.out.contains(power));
    QVERIFY(clean.out.contains("saw little, not that the mechanism is private"));
    // A claim the trials cannot reach: no violation could have been detected, and it says so.
    const auto weak = runCli({"audit", "--mechanism", "output", "--model", "logreg", "--epsilon", "5", "--trials", "400"});
    QCOMPARE(weak.exitCode, 0);
    QVERIFY2(weak.out.contains("it could not have detected a violation of the claimed epsilon 5"), qPrintable(describe(weak)));
  }

  void auditNeedsEnoughTrials() {
    const auto run = runCli({"audit", "--mechanism", "output", "--model", "logreg", "--trials", "10"});
    QCOMPARE(run.exitCode, 4);
  }
};

QTEST_GUILESS_MAIN(TestPredictionCli)
#include "test_prediction_cli.moc"
