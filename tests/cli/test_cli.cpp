// The CLI contract of docs/cli.md: subcommands, JSON keys and exit codes.

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QFile>
#include <QIODevice>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <cmath>

#include "core/privacy/tradeoff.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::runCli;
namespace privacy = dpstudio::privacy;

class TestCli : public QObject {
  Q_OBJECT

 private slots:
  // Issue 34 item 2: a fit over a second says on stderr how far it is and about how long it
  // will take, with a percentage that never steps back; a quick one stays silent, and stdout
  // (JSON) stays clean either way.
  void longFitsReportProgressOnStderr() {
    const auto quick = runCli({"train", "--train", "builtin:iris", "--model", "lmgc", "--json"});
    QVERIFY2(quick.exitCode == 0, qPrintable(quick.err));
    QVERIFY2(!quick.err.contains("train: "), qPrintable(quick.err));
    const auto slow = runCli({"train", "--train", "builtin:digits", "--model", "softmax", "--mechanism", "dpsgd",
                              "--epsilon", "1", "--delta", "1e-5", "--epochs", "3000", "--norm-bound", "128",
                              "--json"},
                             600000);  // ~3 s here, many times that under the sanitizers
    QVERIFY2(slow.exitCode == 0, qPrintable(slow.err));
    QVERIFY(!slow.json().isEmpty());
    const QStringList lines = slow.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts).filter(QStringLiteral("train: "));
    QVERIFY2(!lines.isEmpty(), qPrintable(slow.err));
    int previous = -1;
    for (const QString& line : lines) {
      QVERIFY2((line.contains(QStringLiteral("s elapsed, about ")) && line.endsWith(QStringLiteral("s remaining"))) ||
                   line.endsWith(QStringLiteral("s elapsed, time remaining not known yet")),
               qPrintable(line));
      const int percent = line.section(QLatin1Char(' '), 1, 1).chopped(2).toInt();  // "35%,"
      QVERIFY2(percent >= previous && percent <= 100, qPrintable(line));
      previous = percent;
    }
    QCOMPARE(previous, 100);
  }

  // Issue 35, the CLI's text form: calibrate says what its (ε, δ) means for one person.
  void calibrateSaysWhatEpsilonMeans() {
    const auto pure = runCli({"calibrate", "--mechanism", "output", "--model", "logreg", "--epsilon", "1", "--n",
                              "1000", "--d", "10", "--json"});
    QVERIFY2(pure.exitCode == 0, qPrintable(pure.err));
    const QJsonObject meaning = pure.json()["meaning"].toObject();
    const double e = std::exp(1.0);
    QVERIFY(std::abs(meaning["posterior"].toArray()[0].toObject()["at_most"].toDouble() - e * 0.01 / (e * 0.01 + 0.99)) <
            1e-12);
    QVERIFY(meaning["sentence"].toString().contains("at most 2.7 %, whatever test"));
    QCOMPARE(meaning["trade_off_corners"].toArray().size(), 4);
    QVERIFY(!meaning.contains("posterior_test_false_positive"));
    QVERIFY(!meaning.contains("exact_trade_off"));  // ℓ2-Laplace: nothing known beyond (ε, 0)
    const auto approximate = runCli({"calibrate", "--mechanism", "dpsgd", "--model", "softmax", "--epsilon", "1",
                                     "--delta", "1e-5", "--n", "1000", "--d", "10", "--classes", "3", "--json"});
    QVERIFY2(approximate.exitCode == 0, qPrintable(approximate.err));
    QCOMPARE(approximate.json()["meaning"].toObject()["posterior_test_false_positive"].toDouble(), 0.01);
    // Gaussian mechanisms and DP-SGD: the exact trade-off, inside the claim's (ε, δ) region.
    const auto gaussian = runCli({"calibrate", "--mechanism", "output", "--model", "logreg", "--distribution",
                                  "gaussian", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "10", "--json"});
    QVERIFY2(gaussian.exitCode == 0, qPrintable(gaussian.err));
    for (const auto* run : {&approximate, &gaussian}) {
      const QJsonObject exact = run->json()["meaning"].toObject()["exact_trade_off"].toObject();
      QCOMPARE(exact["kind"].toString(), QString(run == &gaussian ? "gaussian-dp" : "pld"));
      const QJsonArray points = exact["points"].toArray();
      QCOMPARE(points.size(), 21);
      for (const auto& point : points) {
        const double alpha = point.toObject()["false_positive"].toDouble();
        const double beta = point.toObject()["min_false_negative"].toDouble();
        QVERIFY(beta >= privacy::epsilonDeltaMinFalseNegative(1.0, 1e-5, alpha).value() - 1e-9);
      }
    }
    // μ = Δ/σ of the σ before release mode's enlargement by F (which only lowers μ).
    const QJsonObject g = gaussian.json();
    const double mu = g["meaning"].toObject()["exact_trade_off"].toObject()["mu"].toDouble();
    QVERIFY(std::abs(mu - g["Delta"].toDouble() * g["release_noise_factor"].toDouble() / g["sigma"].toDouble()) <
            1e-9 * mu);
    const auto text = runCli({"calibrate", "--mechanism", "output", "--model", "logreg", "--epsilon", "1", "--n",
                              "1000", "--d", "10"});
    QVERIFY2(text.out.contains("meaning  If an attacker"), qPrintable(text.out));
    // As published, DP-LMGC holds for no ε: nothing is promised in its name.
    const auto published = runCli({"calibrate", "--mechanism", "dplmgc", "--model", "lmgc", "--calibration",
                                   "published", "--n", "1000", "--d", "4", "--classes", "3", "--json"});
    QVERIFY2(published.exitCode == 0, qPrintable(published.err));
    const QJsonObject none = published.json()["meaning"].toObject();
    QVERIFY(none["sentence"].toString().startsWith("No guarantee holds"));
    QVERIFY(!none.contains("posterior"));
  }

  void outputPerturbationWarnsWhenNoiseSwampsTheModel() {
    const auto swamped = runCli({"train", "--train", "builtin:iris", "--model", "logreg", "--lambda", "1e-4",
                                 "--mechanism", "output", "--norm-bound", "20"});
    QVERIFY2(swamped.exitCode == 0, qPrintable(swamped.err));
    QVERIFY2(swamped.err.contains("noise swamps the model"), qPrintable(swamped.err));
    const auto fine = runCli({"train", "--train", "builtin:iris", "--model", "logreg", "--lambda", "0.1",
                              "--mechanism", "output", "--norm-bound", "20"});
    QVERIFY2(fine.exitCode == 0, qPrintable(fine.err));
    QVERIFY(!fine.err.contains("swamps"));
  }

  // Issue 32 item 4: beside a private result, the most common class's accuracy and the
  // non-private model's, both on the test part; a private model that does no better than
  // the most common class is warned about.
  void privateResultsCarryTheirBaselines() {
    const QStringList base = {"train", "--train", "builtin:iris", "--model", "logreg", "--lambda", "1e-4",
                              "--norm-bound", "20", "--json"};
    const auto none = runCli(base);
    QVERIFY2(none.exitCode == 0, qPrintable(none.err));
    const QJsonObject plain = none.json()["baselines"].toObject();
    QVERIFY(plain["most_common_class_test_accuracy"].toDouble() > 0.2);  // iris: three even classes
    QVERIFY(plain["most_common_class_test_accuracy"].toDouble() < 0.5);
    QVERIFY(!plain.contains("nonprivate_test_accuracy"));  // it is the non-private model
    // A tiny ε: the release is noise, the baseline is not.
    const auto swamped = runCli(base + QStringList{"--mechanism", "output", "--epsilon", "0.001"});
    QVERIFY2(swamped.exitCode == 0, qPrintable(swamped.err));
    const QJsonObject out = swamped.json();
    const QJsonObject baselines = out["baselines"].toObject();
    QVERIFY2(baselines["nonprivate_test_accuracy"].toDouble() > 0.7, qPrintable(swamped.out));
    QCOMPARE(baselines["most_common_class_test_accuracy"].toDouble(), plain["most_common_class_test_accuracy"].toDouble());
    QVERIFY(baselines["what"].toString().contains("NOT private"));
    const bool useless = out["test_accuracy"].toDouble() <= baselines["most_common_class_test_accuracy"].toDouble();
    bool warned = false;
    for (const auto& w : out["warnings"].toArray()) warned |= w.toString().contains("most common class");
    QCOMPARE(warned, useless);
    // The text output prints them on one line.
    const auto text = runCli({"train", "--train", "builtin:iris", "--model", "logreg", "--mechanism", "output",
                              "--norm-bound", "20", "--lambda", "0.1"});
    QVERIFY2(text.out.contains("baselines       most common class 0."), qPrintable(text.out));
    QVERIFY2(text.out.contains(", non-private 0."), qPrintable(text.out));
    // A private predictor's answers too.
    const auto answers = runCli({"train", "--train", "builtin:iris", "--model", "logreg", "--norm-bound", "20",
                                 "--mechanism", "subsample", "--teachers", "4", "--budget", "30", "--json"});
    QVERIFY2(answers.exitCode == 0, qPrintable(answers.err));
    const QJsonObject predictor = answers.json()["baselines"].toObject();
    QCOMPARE(predictor["most_common_class_test_accuracy"].toDouble(), plain["most_common_class_test_accuracy"].toDouble());
    QCOMPARE(predictor["nonprivate_test_accuracy"].toDouble(), answers.json()["nonprivate_test_accuracy"].toDouble());
    // DP-SGD also shows its own settings without noise (issue 32 item 3), between the two.
    const auto sgd = runCli({"train", "--train", "builtin:digits", "--model", "softmax", "--feature-range", "0,16",
                             "--mechanism", "dpsgd", "--epsilon", "1", "--delta", "1e-5", "--json"});
    QVERIFY2(sgd.exitCode == 0, qPrintable(sgd.err));
    const QJsonObject sgdBaselines = sgd.json()["baselines"].toObject();
    const double noiseFree = sgdBaselines["noise_free_dpsgd_test_accuracy"].toDouble();
    QVERIFY2(noiseFree > 0.85 && noiseFree <= sgdBaselines["nonprivate_test_accuracy"].toDouble(), qPrintable(sgd.out));
    bool underfitWarned = false;  // 0.909 against 0.971: within the gap, no warning
    for (const auto& w : sgd.json()["warnings"].toArray()) underfitWarned |= w.toString().contains("underfit");
    QVERIFY(!underfitWarned);
    // Its step is fitted to the rows (§3 E): at least the unit sphere's 1/(L + λ), bought
    // with 5 % of ε.
    const QJsonObject sgdReport = sgd.json()["report"].toObject();
    QVERIFY(sgdReport["learning_rate"].toDouble() >= 1.0 / (0.5 + 1e-4));
    DPSTUDIO_COMPARE_REL(sgdReport["epsilon_step_estimate"].toDouble(), 0.05, 1e-12);
  }

  void versionAndHelp() {
    auto run = runCli({"--version"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.startsWith("dpstudio-cli "));
    run = runCli({"--help"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("datasets"));
    QVERIFY(run.out.contains("info DATA"));
    run = runCli({"info", "--help"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("--label-column"));
    // Issue 32 item 7: a subcommand's usage line names it (it said "dpstudio-cli [options]").
    QVERIFY2(run.out.startsWith("Usage: dpstudio-cli info [options]"), qPrintable(run.out.left(80)));
    QVERIFY(runCli({"train", "--help"}).out.startsWith("Usage: dpstudio-cli train [options]"));
  }

  void usageErrorsExitWith2_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no command") << QStringList{};
    QTest::newRow("unknown command") << QStringList{"frobnicate"};
    QTest::newRow("unknown option") << QStringList{"info", "--bogus", "builtin:iris"};
    QTest::newRow("info without data") << QStringList{"info"};
    QTest::newRow("bad format name") << QStringList{"info", "--format", "xls", "builtin:iris"};
  }

  void usageErrorsExitWith2() {
    QFETCH(QStringList, args);
    QCOMPARE(runCli(args).exitCode, 2);
  }

  void datasetsListsBuiltinsAndGenerators() {
    auto run = runCli({"datasets"});
    QCOMPARE(run.exitCode, 0);
    for (const char* name : {"iris", "wine", "breast_cancer", "digits", "blobs", "moons", "xor"})
      QVERIFY2(run.out.contains(name), name);
    run = runCli({"datasets", "--json"});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.json()["datasets"].toArray().size(), 4);
    QCOMPARE(run.json()["generators"].toArray().size(), 3);
  }

  void infoJsonKeys() {
    const auto run = runCli({"info", "builtin:iris", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject info = run.json();
    QCOMPARE(info["format"].toString(), QString("builtin"));
    QCOMPARE(info["rows"].toInt(), 150);
    QCOMPARE(info["features"].toInt(), 4);
    QCOMPARE(info["classes"].toInt(), 3);
    QCOMPARE(info["class_counts"].toObject()["virginica"].toInt(), 50);
    DPSTUDIO_COMPARE_REL(info["max_row_norm"].toDouble(), 11.11125555461668, 1e-12);  // row 118
  }

  void infoOnLibsvmSlice() {
    const auto run =
        runCli({"info", QString::fromStdString(dpstudio::test::fixture("a9a_head.libsvm")), "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject info = run.json();
    QCOMPARE(info["format"].toString(), QString("libsvm"));
    QCOMPARE(info["rows"].toInt(), 300);
    const QJsonObject counts = info["class_counts"].toObject();
    QCOMPARE(counts["-1"].toInt() + counts["+1"].toInt(), 300);
  }

  void infoTextOutput() {
    const auto run = runCli({"info", "builtin:wine"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.out.contains("rows          178"));
    QVERIFY(run.out.contains("class_1"));
  }

  // A LIBSVM file of two one-hot encoded variables (3 and 2 columns), read by a schema that
  // declares them: nothing about its structure is read off the rows, and the norm bound is
  // √2/2 (each group counted once), not √5/2.
  void libsvmOneHotGroupsGiveTheNormBound() {
    QTemporaryDir dir;
    QByteArray rows;
    for (int i = 0; i < 60; ++i) {
      const int a = 1 + i % 3, b = 4 + (i / 3) % 2;
      rows += QByteArray::number(a == 1 || b == 5 ? 1 : -1) + " " + QByteArray::number(a) + ":1 " +
              QByteArray::number(b) + ":1\n";
    }
    for (const auto& [name, bytes] :
         {std::pair{QStringLiteral("g.svm"), rows},
          std::pair{QStringLiteral("g.schema.json"),
                    QByteArray(R"({"dpstudio_schema": 1, "feature_count": 5, "classes": ["-1", "1"],
                                   "one_hot_groups": [[1, 3], [4, 2]]})")}}) {
      QFile file(dir.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(bytes);
    }
    const auto run = runCli({"train", "--train", dir.filePath("g.svm"), "--schema", dir.filePath("g.schema.json"),
                             "--model", "logreg", "--mechanism", "objective", "--epsilon", "5", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject out = run.json();
    for (const auto& mark : out["structure_from_data"].toArray())
      QCOMPARE(mark.toString(), QStringLiteral("stratified split"));  // the split's, not the layout's
    bool bound = false;
    for (const auto& step : out["preprocessing"].toArray())
      bound = bound || step.toString().contains(QStringLiteral("norm bound R = 0.707107 derived"));
    QVERIFY2(bound, qPrintable(QJsonDocument(out["preprocessing"].toArray()).toJson()));
  }

  void badDataExitsWith3AndNamesTheLocation() {
    QTemporaryDir dir;
    const QString path = dir.filePath("ragged.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,label\n1,2,0\n3,4,1\n5,6,7,1\n");
    file.close();

    auto run = runCli({"info", path});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("ragged.csv:4"), qPrintable(run.err));

    run = runCli({"info", path, "--json"});
    QCOMPARE(run.exitCode, 3);
    const QJsonObject error = run.json()["error"].toObject();
    QCOMPARE(error["code"].toInt(), 3);
    QVERIFY(error["message"].toString().contains(":4"));
  }

  void missingFileExitsWith3() {
    const auto run = runCli({"info", "/nonexistent/data.csv", "--json"});
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.json()["error"].toObject()["message"].toString().contains("/nonexistent/data.csv"));
  }

  void badBuiltinExitsWith3() { QCOMPARE(runCli({"info", "builtin:nope"}).exitCode, 3); }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
