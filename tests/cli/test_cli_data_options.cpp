// Issue 9 items 7, 10 and 11 as a newcomer meets them on the command line: real files read
// right (line ends, header, skipped rows, delimiter, column numbers, many classes), ordered
// splits and per-feature ranges with a count of clipped values, the δ ≥ 1/n warning, and
// honest training output (DP-SGD completed, one-vs-rest per class, σ = 0 not private, the
// private-prediction sample).

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QByteArray>
#include <QIODevice>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_files.h"
#include "tests/common/test_support.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

using dpstudio::test::writeFile;

QString describe(const CliRun& run) { return run.out.left(800) + " | " + run.err.left(600); }

QString fixture(const char* name) { return QString::fromStdString(dpstudio::test::fixture(name)); }

// Rows sorted by class, as spambase is: 60 rows of class 0, then 60 of class 1.
QByteArray classSortedCsv() {
  QByteArray text = "a,b,label\n";
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 60; ++i)
      text += QByteArray::number(c * 2.0 + (i % 7) * 0.1) + "," + QByteArray::number((i % 5) * 0.2) + "," +
              QByteArray::number(c) + "\n";
  return text;
}

}  // namespace

class TestCliDataOptions : public QObject {
  Q_OBJECT

 private slots:
  // Issue 32 item 7: the missing-value error names the option that drops such rows, and
  // that option then reads the file.
  void missingValueErrorNamesDropMissing() {
    const auto refused = runCli({"info", fixture("malformed/csv_missing_empty.csv"), "--json"});
    QCOMPARE(refused.exitCode, 3);
    const QString message = refused.json()["error"].toObject()["message"].toString();
    QVERIFY2(message.contains("missing value") && message.contains("(--drop-missing)"), qPrintable(message));
    // (The fixture's one other row is then the only one: refused for its single class instead.)
    const auto dropped = runCli({"info", fixture("malformed/csv_missing_empty.csv"), "--drop-missing", "--json"});
    QVERIFY(!dropped.json()["error"].toObject()["message"].toString().contains("missing value"));
  }

  // A published spambase with CR-only line ends was read as one row ("only one class").
  void crLineEndsAreRows() {
    for (const char* name : {"csv/cr_only.csv", "csv/cr_only.csv.gz", "csv/mixed_endings.csv",
                             "libsvm/cr_only.libsvm", "libsvm/cr_only.libsvm.gz"}) {
      const auto run = runCli({"info", fixture(name), "--json"});
      QVERIFY2(run.exitCode == 0, qPrintable(QString(name) + ": " + describe(run)));
      QCOMPARE(run.json()["rows"].toInt(), 5);
      QCOMPARE(run.json()["classes"].toInt(), 2);
    }
  }

  void infoSaysWhichHeaderChoiceWasUsed() {
    const auto detected = runCli({"info", fixture("csv/cr_only.csv"), "--json"});
    const QJsonObject header = detected.json()["header"].toObject();
    QCOMPARE(header["choice"].toString(), QString("auto"));
    QVERIFY(header["used"].toBool());
    QVERIFY(!header["reason"].toString().isEmpty());
    QCOMPARE(header["delimiter"].toString(), QString("comma"));

    const auto text = runCli({"info", fixture("csv/cr_only.csv")});
    QVERIFY2(text.out.contains("header        first row read as column names (auto"), qPrintable(text.out));

    // --header no: the names row is data, so its text makes the columns categorical.
    QTemporaryDir dir;
    const QString numbersOnly = writeFile(dir, "n.csv", "1,2,0\n3,4,1\n5,6,0\n");
    const auto no = runCli({"info", numbersOnly, "--header", "no", "--json"});
    QCOMPARE(no.exitCode, 0);
    QCOMPARE(no.json()["header"].toObject()["choice"].toString(), QString("no"));
    QVERIFY(!no.json()["header"].toObject()["used"].toBool());
    QCOMPARE(no.json()["rows"].toInt(), 3);
    const auto yes = runCli({"info", numbersOnly, "--header", "yes", "--json"});
    QCOMPARE(yes.json()["rows"].toInt(), 2);
    QCOMPARE(yes.json()["header"].toObject()["choice"].toString(), QString("yes"));
    // Not a CSV: no header key value.
    QVERIFY(runCli({"info", "builtin:iris", "--json"}).json()["header"].isNull());
  }

  // scikit-learn's iris.csv ("150,4,setosa,versicolor,virginica") loaded with features "150", "4".
  void scikitLearnMetadataAndSkipRows() {
    QTemporaryDir dir;
    const QString iris = writeFile(dir, "iris.csv",
                                   "6,2,setosa,versicolor\n5.1,3.5,0\n4.9,3.0,0\n4.7,3.2,0\n7.0,3.2,1\n"
                                   "6.4,3.2,1\n6.9,3.1,1\n");
    auto run = runCli({"info", iris, "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["rows"].toInt(), 6);
    QCOMPARE(run.json()["features"].toInt(), 2);
    QCOMPARE(run.json()["class_names"].toArray().first().toString(), QString("setosa"));
    QCOMPARE(run.json()["header"].toObject()["skipped_lines"].toInt(), 1);

    // A title line: auto refuses it (no silent header), --skip-rows reads past it.
    const QString titled = writeFile(dir, "titled.csv", "Survey 2024\nx;y;label\n1;2;a\n3;4;b\n");
    run = runCli({"info", titled});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("--skip-rows 1"), qPrintable(run.err));
    run = runCli({"info", titled, "--skip-rows", "1", "--delimiter", ";", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["rows"].toInt(), 2);
    QCOMPARE(run.json()["header"].toObject()["delimiter"].toString(), QString("semicolon"));
  }

  void badDataOptionsAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("header maybe") << QStringList{"--header", "maybe"};
    QTest::newRow("skip-rows -1") << QStringList{"--skip-rows", "-1"};
    QTest::newRow("delimiter two chars") << QStringList{"--delimiter", ",,"};
    QTest::newRow("delimiter quote") << QStringList{"--delimiter", "\""};
  }
  void badDataOptionsAreUsageErrors() {
    QFETCH(QStringList, args);
    QCOMPARE(runCli(QStringList{"info", fixture("csv/cr_only.csv")} + args).exitCode, 2);
  }

  // --label-column was 0-based while every message counts columns from 1.
  void labelColumnIsOneBased() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "first.csv", "a,1,2\nb,3,4\na,5,6\n");
    auto run = runCli({"info", path, "--label-column", "1", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["class_names"].toArray().size(), 2);
    QCOMPARE(run.json()["class_names"].toArray().first().toString(), QString("a"));
    run = runCli({"info", path, "--label-column", "0"});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains("numbered from 1"), qPrintable(run.err));
    QVERIFY(runCli({"info", "--help"}).out.contains("counted from 1"));
  }

  // A label column of 101 distinct numeric values was taken as 101 classes without a word.
  void manyNumericClassesWarn() {
    QTemporaryDir dir;
    QByteArray text = "x,target\n";
    for (int i = 0; i < 303; ++i) text += QByteArray::number(i) + "," + QByteArray::number(i % 101) + "\n";
    const QString path = writeFile(dir, "regression.csv", text);
    auto run = runCli({"info", path});
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains("warning: the label column has 101 distinct numeric values"), qPrintable(run.err));
    run = runCli({"info", path, "--json"});
    QCOMPARE(run.json()["warnings"].toArray().size(), 1);
    QVERIFY(runCli({"info", "builtin:digits", "--json"}).json()["warnings"].toArray().isEmpty());
  }

  // UCI letter's convention: first 16 000 rows train, last 4 000 test.
  void orderedSplit() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "sorted.csv", classSortedCsv());
    auto run = runCli({"train", "--model", "logreg", "--train", path, "--split", "ordered", "--test-rows", "30", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["train_rows"].toInt(), 90);
    QCOMPARE(run.json()["test_rows"].toInt(), 30);
    QVERIFY(run.json()["preprocessing"].toArray().first().toString().startsWith("ordered split"));
    run = runCli({"train", "--model", "logreg", "--train", path, "--split", "ordered", "--test-fraction", "0.25", "--json"});
    QCOMPARE(run.json()["test_rows"].toInt(), 30);
    QCOMPARE(runCli({"train", "--model", "logreg", "--train", path, "--test-rows", "30"}).exitCode, 2);  // needs --split ordered
    QCOMPARE(runCli({"train", "--model", "logreg", "--train", path, "--split", "sideways"}).exitCode, 2);
    QCOMPARE(runCli({"train", "--model", "logreg", "--train", path, "--split", "ordered", "--test-rows", "120"}).exitCode, 3);
  }

  void perFeatureRangesAndClippedCount() {
    QTemporaryDir dir;
    // Feature a: 2 of 8 values outside [0, 10]; feature b: 3 of 8 outside [0, 1].
    const QString path = writeFile(dir, "ranges.csv",
                                   "a,b,label\n-1,0.5,0\n5,2,1\n11,0.1,0\n3,-3,1\n4,0.2,0\n6,0.9,1\n7,5,0\n8,0.3,1\n");
    auto run = runCli({"train", "--model", "logreg", "--train", path, "--feature-ranges", "0:10,0:1", "--test-fraction", "0.25", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject clipped = run.json()["clipped_values"].toObject();
    QCOMPARE(clipped["train"].toInt() + clipped["test"].toInt(), 5);
    const QJsonArray steps = run.json()["preprocessing"].toArray();
    QVERIFY(steps.contains(QJsonValue("per-feature public ranges, each mapped to [-1/2, 1/2] (centred on its midpoint)")));
    // Issue 32 item 1: R from the declared ranges (two features: √2/2), no --norm-bound asked for.
    QVERIFY2(steps.contains(QJsonValue("norm bound R = 0.707107 derived from the declared ranges (the largest norm a "
                                       "row can have): rows divided by R")),
             qPrintable(QJsonDocument(steps).toJson()));
    // One range for all: a in [0, 10] has 2 outside (-1, 11), b in [0, 10] one (-3).
    run = runCli({"train", "--model", "logreg", "--train", path, "--feature-range", "0,10", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject one = run.json()["clipped_values"].toObject();
    QCOMPARE(one["train"].toInt() + one["test"].toInt(), 3);
    run = runCli({"train", "--model", "logreg", "--train", path, "--feature-ranges", "0:10,0:1"});
    QVERIFY2(run.out.contains("clipped values"), qPrintable(run.out));
    // Three ranges for two features, a malformed range.
    QCOMPARE(runCli({"train", "--model", "logreg", "--train", path, "--feature-ranges", "0:1,0:1,0:1"}).exitCode, 2);
    run = runCli({"train", "--model", "logreg", "--train", path, "--feature-ranges", "0:1,oops"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("range 2"), qPrintable(run.err));
  }

  // Issue 32 item 7: --norm-bound 1e300 was accepted without a word, every row ~0.
  void normBoundFarAboveTheRowsWarns() {
    const QStringList base{"train", "--train", "builtin:iris", "--model", "logreg", "--json"};
    auto run = runCli(base + QStringList{"--norm-bound", "1e300"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    bool warned = false;
    for (const auto& w : run.json()["warnings"].toArray()) warned |= w.toString().contains("far above the rows");
    QVERIFY2(warned, qPrintable(run.out));
    run = runCli(base + QStringList{"--norm-bound", "20"});  // iris: rows up to norm 11
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    for (const auto& w : run.json()["warnings"].toArray())
      QVERIFY2(!w.toString().contains("far above the rows"), qPrintable(w.toString()));
  }

  // The CLI printed "(1, 0.9)-DP" for --delta 0.9 without a word.
  void deltaAtLeastOneOverNWarns() {
    const QStringList base{"train", "--train", "builtin:iris", "--unit-rows", "--model", "softmax",
                           "--mechanism", "dpsgd", "--epochs", "1", "--epsilon", "1"};
    auto run = runCli(base + QStringList{"--delta", "0.9"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.contains("warning: delta = 0.9 is not below 1/n = 1/"), qPrintable(run.err));
    run = runCli(base + QStringList{"--delta", "0.9", "--json"});
    const QString n = QString::number(run.json()["train_rows"].toInt());
    QVERIFY(run.json()["warnings"].toArray().first().toString().contains("1/n = 1/" + n + " "));
    run = runCli(base + QStringList{"--delta", "1e-5", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    // (One epoch of DP-SGD may still be warned about as no better than the most common class.)
    for (const auto& warning : run.json()["warnings"].toArray())
      QVERIFY2(!warning.toString().contains("1/n"), qPrintable(warning.toString()));
  }

  // "iteration limit reached (17); not converged, objective 0" for a DP-SGD run that ran its epochs.
  void dpSgdReportsCompleted() {
    const QStringList args{"train", "--train", "builtin:iris", "--unit-rows", "--model", "softmax",
                           "--mechanism", "dpsgd", "--epsilon", "2", "--delta", "1e-5", "--epochs", "2"};
    auto run = runCli(args + QStringList{"--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["termination"].toString(), QString("completed"));
    QVERIFY(run.json()["objective"].toDouble() > 0);
    QVERIFY(run.json()["gradient_norm"].toDouble() > 0);
    run = runCli(args);
    QVERIFY2(run.out.contains("completed its"), qPrintable(run.out));
    QVERIFY(!run.out.contains("max_iterations"));
    QVERIFY(!run.out.contains("not converged"));
  }

  // σ = 0 was refused, so there was no non-private SGD baseline.
  void dpSgdNoiseMultiplierZeroIsNotPrivate() {
    const QStringList args{"train", "--train", "builtin:iris", "--unit-rows", "--model", "softmax", "--mechanism",
                           "dpsgd", "--delta", "1e-5", "--epochs", "2", "--noise-multiplier", "0"};
    auto run = runCli(args + QStringList{"--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["private"].toBool(), false);
    QVERIFY(run.json()["epsilon"].isNull());
    QVERIFY(run.json()["report"].toObject()["statement"].toString().startsWith("NOT private"));
    run = runCli(args);
    QVERIFY2(run.out.contains("privacy         NOT private (epsilon = infinity)"), qPrintable(run.out));
    QCOMPARE(runCli(QStringList{args.mid(0, args.size() - 1)} << "-1").exitCode, 4);
  }

  // One-vs-rest printed objective and gradient norm 0 and summed iterations over classes
  // (3473 "converged" under --max-iterations 3000).
  void oneVsRestReportsPerClass() {
    const auto run = runCli({"train", "--train", "builtin:iris", "--unit-rows", "--model", "logreg",
                             "--max-iterations", "40", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    const QJsonArray iterations = json["iterations_per_class"].toArray();
    QCOMPARE(iterations.size(), 3);
    int most = 0;
    for (const auto& value : iterations) most = std::max(most, value.toInt());
    QCOMPARE(json["iterations"].toInt(), most);
    QVERIFY(json["iterations"].toInt() <= 40);
    QVERIFY(json["objective"].isNull());
    QCOMPARE(json["objective_per_class"].toArray().size(), 3);
    for (const auto& value : json["objective_per_class"].toArray()) QVERIFY(value.toDouble() > 0);
    QVERIFY(json["gradient_norm"].toDouble() > 0);
    const auto text = runCli({"train", "--train", "builtin:iris", "--unit-rows", "--model", "logreg"});
    QVERIFY2(text.out.contains("one-vs-rest, 3 binary problems"), qPrintable(text.out));
    QVERIFY(!text.out.contains("objective 0,"));
  }

  // On a class-sorted test file, the first B test rows were all one class.
  void privatePredictionAnswersASeededSample() {
    QTemporaryDir dir;
    const QString path = writeFile(dir, "sorted.csv", classSortedCsv());
    const QStringList args{"train", "--train", path, "--test", path, "--unit-rows", "--model", "logreg",
                           "--mechanism", "prediction", "--epsilon", "5", "--budget", "20", "--json"};
    auto run = runCli(args);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonArray rows = run.json()["answered_rows"].toArray();
    QCOMPARE(rows.size(), 20);
    QSet<int> distinct;
    int fromSecondClass = 0;
    for (int i = 0; i < rows.size(); ++i) {
      const int row = rows[i].toInt();
      QVERIFY(row >= 1 && row <= 120);
      if (i > 0) QVERIFY(row > rows[i - 1].toInt());
      distinct.insert(row);
      fromSecondClass += row > 60;
    }
    QCOMPARE(distinct.size(), 20);
    QVERIFY2(fromSecondClass > 0 && fromSecondClass < 20, "both classes are answered");
    QCOMPARE(run.json()["answered_rows_seed"].toString(), QString("1"));
    // Another split seed, another sample.
    run = runCli(args + QStringList{"--split-seed", "7"});
    QVERIFY(run.json()["answered_rows"].toArray() != rows);
  }
};

QTEST_GUILESS_MAIN(TestCliDataOptions)
#include "test_cli_data_options.moc"
