// `dpstudio-cli train` with mechanisms and `calibrate`, run as a script would (QProcess):
// the JSON keys of docs/cli.md, calibrate agreeing with the report of a run, exit code 4 for invalid
// privacy parameters, and --tune-lambdas.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

const QStringList kBinaryData{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept"};
const QStringList kMultiData{"--train", "builtin:blobs:classes=3,per_class=100", "--norm-bound", "10"};

QString describe(const CliRun& run) { return run.out.left(400) + " | " + run.err.left(400); }

}  // namespace

class TestMechanismCli : public QObject {
  Q_OBJECT

 private slots:
  void trainObjectiveJsonHasTheSpecKeys() {
    const auto run = runCli(QStringList{"train"} + kBinaryData +
                            QStringList{"--model", "logreg", "--mechanism", "objective", "--epsilon", "1", "--lambda",
                                        "0.01", "--noise", "experiment", "--seed", "3", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject out = run.json();
    for (const char* key : {"model", "mechanism", "calibration", "epsilon", "delta", "train_accuracy", "test_accuracy",
                            "seconds", "report"})
      QVERIFY2(out.contains(key), key);
    QCOMPARE(out["model"].toString(), QString("logreg"));
    QCOMPARE(out["mechanism"].toString(), QString("objective"));
    QCOMPARE(out["calibration"].toString(), QString("corrected"));
    QCOMPARE(out["epsilon"].toDouble(), 1.0);
    QCOMPARE(out["delta"].toDouble(), 0.0);
    const QJsonObject report = out["report"].toObject();
    for (const char* key : {"epsilon_prime", "Delta", "beta", "statement", "noise", "noise_norm", "noise_source"})
      QVERIFY2(report.contains(key), key);
    QCOMPARE(report["noise"].toString(), QString("l2-laplace"));
    QCOMPARE(report["noise_source"].toString(), QString("experiment (seed 3)"));
    QVERIFY(report["statement"].toString().startsWith("(1, 0)-DP under substitution"));
    // What was measured on the private rows is named as such.
    const QJsonArray diagnostics = out["diagnostics_not_private"].toArray();
    QVERIFY(diagnostics.contains(QJsonValue("train_accuracy")));
    QVERIFY(diagnostics.contains(QJsonValue("objective")));
    // ‖b‖ is reported (docs/cli.md) and marked: beside the release it would locate the exact minimizer.
    QVERIFY(report["diagnostics_not_private"].toArray().contains(QJsonValue("noise_norm")));
    const auto baseline = runCli(QStringList{"train"} + kBinaryData + QStringList{"--model", "logreg", "--json"});
    QVERIFY2(baseline.exitCode == 0, qPrintable(describe(baseline)));
    QVERIFY(!baseline.json().contains("diagnostics_not_private"));  // nothing private to qualify
  }

  // calibrate --json gives the derived values of a train run with the same settings.
  void calibrateMatchesTheTrainReport_data() {
    QTest::addColumn<QStringList>("data");
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<int>("classes");
    QTest::newRow("objective") << kBinaryData
                               << QStringList{"--model", "logreg", "--mechanism", "objective", "--epsilon", "0.3"} << 2;
    QTest::newRow("output gaussian") << kBinaryData
                                     << QStringList{"--model", "huber", "--mechanism", "output", "--distribution",
                                                    "gaussian", "--delta", "1e-6"} << 2;
    QTest::newRow("loss softmax") << kMultiData << QStringList{"--model", "softmax", "--mechanism", "loss"} << 3;
    QTest::newRow("dplmgc published")
        << kMultiData << QStringList{"--model", "lmgc", "--mechanism", "dplmgc", "--calibration", "published"} << 3;
    QTest::newRow("dpsgd") << kMultiData
                           << QStringList{"--model", "softmax", "--mechanism", "dpsgd", "--delta", "1e-5", "--epochs",
                                          "2"} << 3;
  }
  void calibrateMatchesTheTrainReport() {
    QFETCH(QStringList, data);
    QFETCH(QStringList, settings);
    QFETCH(int, classes);
    const auto train = runCli(QStringList{"train"} + data + settings + QStringList{"--json"});
    QVERIFY2(train.exitCode == 0, qPrintable(describe(train)));
    const QJsonObject trained = train.json();
    const QJsonObject report = trained["report"].toObject();
    const auto calibrate = runCli(QStringList{"calibrate"} + settings +
                                  QStringList{"--n", QString::number(trained["train_rows"].toInt()), "--d",
                                              QString::number(trained["features"].toInt()), "--classes",
                                              QString::number(classes), "--json"});
    QVERIFY2(calibrate.exitCode == 0, qPrintable(describe(calibrate)));
    const QJsonObject calibrated = calibrate.json();
    const QJsonObject formulas = calibrated["formulas"].toObject();
    QVERIFY(!formulas.isEmpty());
    // DP-SGD without a given step fits its step and clip norm to the rows at training (§3 E):
    // the unit sphere's step is the smallest it takes, the clip norm given the largest.
    const bool fitted = calibrated.contains("epsilon_step_estimate");
    for (const QString& key : formulas.keys()) {
      if (fitted && key == "learning_rate")
        QVERIFY(report[key].toDouble() >= calibrated[key].toDouble());
      else if (fitted && (key == "clip_norm" || key == "sigma" || key == "expected_noise_norm"))
        QVERIFY2(report[key].toDouble() <= calibrated[key].toDouble(), qPrintable(key));
      else
        QCOMPARE(report[key].toDouble(), calibrated[key].toDouble());
    }
    for (const char* key : {"noise", "noise_dimension", "statement", "epsilon", "delta", "calibration"})
      QCOMPARE(report[key], calibrated[key]);
    QCOMPARE(report.contains("warning"), calibrated.contains("warning"));
  }

  void invalidPrivacyParametersExitWithFour_data() {
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<QString>("says");
    QTest::newRow("epsilon zero") << QStringList{"--model", "logreg", "--mechanism", "objective", "--epsilon", "0"}
                                  << "epsilon";
    QTest::newRow("delta one") << QStringList{"--model", "logreg", "--mechanism", "output", "--delta", "1"} << "delta";
    QTest::newRow("gaussian without delta")
        << QStringList{"--model", "logreg", "--mechanism", "output", "--distribution", "gaussian"} << "delta";
    QTest::newRow("objective on softmax") << QStringList{"--model", "softmax", "--mechanism", "objective"}
                                          << "objective perturbation";
    QTest::newRow("published output")
        << QStringList{"--model", "logreg", "--mechanism", "output", "--calibration", "published"} << "published";
    QTest::newRow("tuning without mechanism")
        << QStringList{"--model", "logreg", "--tune-lambdas", "0.1,0.2"} << "private mechanism";
    QTest::newRow("negative candidate")
        << QStringList{"--model", "logreg", "--mechanism", "objective", "--tune-lambdas", "0.1,-2"} << "tune-lambdas";
  }
  void invalidPrivacyParametersExitWithFour() {
    QFETCH(QStringList, settings);
    QFETCH(QString, says);
    const auto run = runCli(QStringList{"train"} + kBinaryData + settings + QStringList{"--json"});
    QVERIFY2(run.exitCode == 4, qPrintable(describe(run)));
    const QJsonObject error = run.json()["error"].toObject();
    QCOMPARE(error["code"].toInt(), 4);
    QVERIFY2(error["message"].toString().contains(says), qPrintable(error["message"].toString()));
    if (!settings.contains("--tune-lambdas"))
      QCOMPARE(runCli(QStringList{"calibrate", "--n", "100", "--d", "3"} + settings + QStringList{"--json"}).exitCode, 4);
  }

  // No norm bound declared: the blobs rows have norms well above 1.
  void rowsOutsideTheUnitBallExitWithFour() {
    const auto run = runCli({"train", "--train", "builtin:blobs:classes=2,per_class=100", "--model", "logreg",
                             "--mechanism", "output", "--json"});
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.json()["error"].toObject()["message"].toString().contains("norm bound"), qPrintable(describe(run)));
  }

  // The refusal used to print the data's exact largest norm ("largest norm 309.5028271:
  // declare a public norm bound R"), inviting a data-derived R. It now says how to pick R
  // from the data's known domain and prints no value computed from the rows.
  void missingNormBoundHintPrintsNoDataDerivedValue() {
    const QString data = "builtin:blobs:classes=2,per_class=100";
    const double largest = runCli({"info", data, "--json"}).json()["max_row_norm"].toDouble();
    QVERIFY(largest > 1.0);
    const auto run = runCli({"train", "--train", data, "--model", "logreg", "--mechanism", "output", "--json"});
    QCOMPARE(run.exitCode, 4);
    const QString message = run.json()["error"].toObject()["message"].toString();
    QVERIFY2(message.contains("sqrt(d)") && message.contains("--feature-range"), qPrintable(message));
    QVERIFY2(!message.contains("largest norm " ) && !message.contains(QString::number(largest, 'g', 4)),
             qPrintable(message));
  }

  // Issue 32 item 1: declared ranges are all a private run needs — R follows from them, and
  // centring on the ranges' midpoints keeps digits' accuracy near the non-private model's.
  void declaredRangesAloneMakeAPrivateRun() {
    const auto run = runCli({"train", "--train", "builtin:digits", "--model", "softmax", "--mechanism", "dpsgd",
                             "--feature-range", "0,16", "--epsilon", "5", "--delta", "1e-5", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.json()["mechanism_guarantee_holds"].toBool());
    const double accuracy = run.json()["test_accuracy"].toDouble();
    const double nonPrivate =
        run.json()["baselines"].toObject()["nonprivate_test_accuracy"].toDouble();
    QVERIFY2(nonPrivate > 0.9 && accuracy > 0.7, qPrintable(describe(run)));
  }

  // Issue 32 item 7: without a mechanism the report claims no ε (it said the default 1).
  void noMechanismClaimsNoEpsilon() {
    const auto run = runCli(QStringList{"train"} + kBinaryData + QStringList{"--model", "logreg", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.json()["report"].toObject()["epsilon"].isNull());
    QVERIFY(run.json()["epsilon"].isNull());
    QVERIFY(!run.json()["private"].toBool());
  }

  void tuneLambdas() {
    const QStringList args = QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "objective", "--epsilon", "1",
                                         "--tune-lambdas", "0.001, 0.01,0.1", "--noise", "experiment", "--seed", "5",
                                         "--json"};
    const auto run = runCli(args);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject out = run.json();
    const QJsonObject report = out["report"].toObject();
    QCOMPARE(report["candidates"].toDouble(), 3.0);
    QCOMPARE(out["lambda"].toDouble(), report["chosen_lambda"].toDouble());
    QCOMPARE(out["tune_lambdas"].toArray().size(), 3);
    QVERIFY(report["statement"].toString().contains("private tuning of lambda over 3 candidates"));
    QCOMPARE(runCli(args).json()["report"].toObject()["chosen_lambda"], report["chosen_lambda"]);  // replays

    const auto text = runCli(QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "output", "--tune-lambdas", "0.01,0.1"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("chosen privately among 2 candidates"));
    const auto malformed = runCli(QStringList{"train"} + kBinaryData +
                                  QStringList{"--model", "logreg", "--mechanism", "output", "--tune-lambdas", "0.1,x"});
    QCOMPARE(malformed.exitCode, 2);
  }

  // --mechanism auto (docs/algorithms.md §3 K): the chosen candidate named among the public
  // list, the whole ε once in the ledger, replay, refusals, and calibrate's plan without data.
  void autoSelectsPrivately() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString ledger = dir.filePath("ledger.json");
    // Without --tune: the public rule's one mechanism at the whole ε.
    const auto rule = runCli(QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "auto", "--epsilon", "1", "--json"});
    QVERIFY2(rule.exitCode == 0, qPrintable(describe(rule)));
    QCOMPARE(rule.json()["mechanism"].toString(), QString("objective"));
    QCOMPARE(rule.json()["selection"].toObject()["candidates"].toArray().size(), 1);
    QVERIFY(!rule.json()["selection"].toObject()["private_selection"].toBool());
    QCOMPARE(rule.json()["report"].toObject()["epsilon_prime"].isUndefined(), false);  // objective perturbation's own

    const QStringList args = QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "auto", "--tune", "--epsilon", "4",
                                         "--noise", "experiment", "--seed", "5", "--json"};
    const auto run = runCli(args + QStringList{"--ledger", ledger});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject out = run.json();
    const QJsonObject report = out["report"].toObject();
    const QJsonObject selection = out["selection"].toObject();
    const QJsonArray candidates = selection["candidates"].toArray();
    QCOMPARE(static_cast<double>(candidates.size()), report["candidates"].toDouble());
    QVERIFY(candidates.size() >= 6);
    const QString chosen = selection["chosen"].toString();
    QCOMPARE(candidates[report["chosen_index"].toInt() - 1].toString(), chosen);
    QVERIFY2(chosen.startsWith(out["mechanism"].toString()), qPrintable(chosen + " / " + out["mechanism"].toString()));
    QCOMPARE(out["lambda"].toDouble(), report["chosen_lambda"].toDouble());
    QCOMPARE(out["epsilon"].toDouble(), 4.0);
    QVERIFY(selection["runs"].toDouble() >= 1);
    QVERIFY(selection["private_selection"].toBool());
    QVERIFY(report["statement"].toString().contains("private selection"));
    QVERIFY2(out["test_accuracy"].toDouble() > 0.75, qPrintable(QString::number(out["test_accuracy"].toDouble())));
    const QJsonArray entries = QJsonDocument::fromJson([&] {
                                 QFile file(ledger);
                                 file.open(QIODevice::ReadOnly);
                                 return file.readAll();
                               }()).object()["entries"].toArray();
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries[0].toObject()["epsilon"].toDouble(), 4.0);
    QVERIFY(entries[0].toObject()["mechanism"].toString().startsWith("Private selection"));
    QCOMPARE(runCli(args).json()["selection"].toObject()["chosen"].toString(), chosen);  // replays

    // δ > 0 adds DP-SGD for softmax; the text output names the choice.
    const auto softmax = runCli(QStringList{"train"} + kMultiData +
                                QStringList{"--model", "softmax", "--mechanism", "auto", "--tune", "--epsilon", "2",
                                            "--delta", "1e-5", "--epochs", "2", "--selection-runs", "3"});
    QVERIFY2(softmax.exitCode == 0, qPrintable(describe(softmax)));
    QVERIFY2(softmax.out.contains("chosen privately among"), qPrintable(softmax.out));

    const auto lambda = runCli(QStringList{"train"} + kBinaryData +
                               QStringList{"--model", "logreg", "--mechanism", "auto", "--lambda", "0.1"});
    QCOMPARE(lambda.exitCode, 2);
    QVERIFY(lambda.err.contains("--tune-lambdas"));

    const auto stray = runCli(QStringList{"train"} + kBinaryData + QStringList{"--model", "logreg", "--tune"});
    QCOMPARE(stray.exitCode, 2);  // --tune goes with auto

    const auto calibrate = runCli({"calibrate", "--mechanism", "auto", "--tune", "--model", "softmax", "--n", "5000",
                                   "--d", "20", "--classes", "5", "--epsilon", "1", "--delta", "1e-6", "--json"});
    QVERIFY2(calibrate.exitCode == 0, qPrintable(describe(calibrate)));
    const auto ruleOnly = runCli({"calibrate", "--mechanism", "auto", "--model", "logreg", "--n", "5000", "--d",
                                  "20", "--epsilon", "1", "--json"});
    QVERIFY2(ruleOnly.exitCode == 0, qPrintable(describe(ruleOnly)));
    QCOMPARE(ruleOnly.json()["mechanism"].toString(), QString("objective"));  // the rule's own calibration
    QVERIFY(ruleOnly.json().contains("epsilon_prime"));
    QVERIFY(ruleOnly.json()["statement"].toString().contains("public rule"));
    const QJsonObject plan = calibrate.json();
    QCOMPARE(plan["mechanism"].toString(), QString("auto"));
    QVERIFY(plan["epsilon"].toDouble() <= 1.0 && plan["epsilon"].toDouble() > 0.99);
    QVERIFY2(plan["statement"].toString().contains("DP-SGD"), qPrintable(plan["statement"].toString()));
  }

  void releaseModeRecordsRelease() {
    const auto run = runCli(QStringList{"train"} + kMultiData +
                            QStringList{"--model", "lmgc", "--mechanism", "dplmgc", "--noise", "release", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject report = run.json()["report"].toObject();
    QVERIFY(report["noise_source"].toString().startsWith("release"));
    QVERIFY(report["release_granularity"].toDouble() > 0);
  }
};

QTEST_GUILESS_MAIN(TestMechanismCli)
#include "test_mechanism_cli.moc"
