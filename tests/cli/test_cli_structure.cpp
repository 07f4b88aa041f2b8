// Declared versus data-derived structure (issue 13 part 1, bug 6): --classes, --features,
// the structure_from_data mark of train, and info's data-derived max_row_norm.

#include <QJsonArray>
#include <QTemporaryDir>
#include <QFile>
#include <QIODevice>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::runCli;

namespace {

QString describe(const dpstudio::test::CliRun& run) {
  return QString("exit %1\nstdout: %2\nstderr: %3").arg(run.exitCode).arg(run.out, run.err);
}

// n rows of two features in [0, 1], labels from `labels` in turn.
QString writeCsv(const QTemporaryDir& dir, const QString& name, int rows, const QStringList& labels) {
  const QString path = dir.filePath(name);
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
  file.write("a,b,label\n");
  for (int i = 0; i < rows; ++i) {
    const QString label = labels[i % labels.size()];
    const double shift = 0.1 * (i % labels.size());
    file.write(QString("%1,%2,%3\n").arg(0.1 + shift + 0.01 * (i % 7)).arg(0.5 - shift).arg(label).toUtf8());
  }
  return path;
}

QStringList marks(const dpstudio::test::CliRun& run) {
  QStringList out;
  for (const auto& mark : run.json()["structure_from_data"].toArray()) out << mark.toString();
  return out;
}

const QStringList kTrain{"--model", "logreg", "--mechanism", "output", "--norm-bound", "1", "--json"};

}  // namespace

class TestCliStructure : public QObject {
  Q_OBJECT

 private slots:
  // A row whose label is not declared is refused, naming the file and the data row.
  void declaredClassesRefuseOtherLabelsWithFileAndRow() {
    QTemporaryDir dir;
    const QString path = writeCsv(dir, "three.csv", 9, {"0", "1", "2"});
    const auto run = runCli({"info", path, "--classes", "0,1", "--json"});
    QCOMPARE(run.exitCode, 3);
    const QString message = run.json()["error"].toObject()["message"].toString();
    QVERIFY2(message.contains("three.csv") && message.contains("data row 3") && message.contains("'2'"),
             qPrintable(message));
    QCOMPARE(runCli({"info", path, "--classes", "0,x,0", "--json"}).exitCode, 2);  // declared twice
    QCOMPARE(runCli({"info", path, "--classes", "1", "--json"}).exitCode, 2);      // a count < 2
  }

  // Declared classes are the model's classes even when one never occurs in the file.
  void declaredClassesIncludeAbsentOnes() {
    QTemporaryDir dir;
    const QString path = writeCsv(dir, "two.csv", 10, {"0", "1"});
    const auto run = runCli({"info", path, "--classes", "3", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["classes"].toInt(), 3);
    QCOMPARE(run.json()["class_counts"].toObject()["2"].toInt(), 0);
    // "+1" in a file matches a declared "1" (LIBSVM spelling).
    const auto libsvm = runCli({"info", QString::fromStdString(dpstudio::test::fixture("a9a_head.libsvm")),
                                "--classes", "-1,1", "--json"});
    QVERIFY2(libsvm.exitCode == 0, qPrintable(describe(libsvm)));
    QCOMPARE(libsvm.json()["class_names"].toArray().at(1).toString(), QString("1"));
  }

  // train marks what it read off the data, and stops marking what was declared.
  void trainMarksStructureFromData() {
    QTemporaryDir dir;
    const QString path = writeCsv(dir, "data.csv", 60, {"0", "1"});
    auto run = runCli(QStringList{"train", "--train", path} + kTrain);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(marks(run), (QStringList{"classes", "stratified split"}));

    run = runCli(QStringList{"train", "--train", path, "--classes", "0,1", "--test-fraction", "0"} + kTrain);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.json().contains("structure_from_data"));
    QCOMPARE(marks(run), QStringList{});

    const auto text = runCli({"train", "--train", path, "--model", "logreg", "--mechanism", "output",
                              "--norm-bound", "1"});
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY2(text.out.contains("FROM THE DATA   classes, stratified split"), qPrintable(text.out));
  }

  // Issue 30 bug 6: train's "private" is the bundle's judgement: true only when the mechanism's
  // guarantee holds and nothing was read off the data. Before the fix a CSV whose categories
  // were read off the file printed "NOT private" yet said "private": true in JSON and bundle.
  void trainIsPrivateOnlyWhenNothingWasReadOffTheData() {
    QTemporaryDir dir;
    const QString declared = writeCsv(dir, "data.csv", 60, {"0", "1"});
    const QStringList release{"--classes", "0,1", "--test-fraction", "0", "--noise", "release"};
    auto run = runCli(QStringList{"train", "--train", declared} + kTrain + release);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.json()["private"].toBool());
    QCOMPARE(run.json()["noise_source"].toString(), QString("release"));

    // The same rows with a text column: its categories are read off the file.
    const QString path = dir.filePath("colours.csv");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,colour,label\n");
    const char* colours[] = {"red", "green", "blue"};
    for (int i = 0; i < 60; ++i)
      file.write(QString("%1,%2,%3\n").arg(0.1 + 0.01 * (i % 7)).arg(colours[i % 3]).arg(i % 2).toUtf8());
    file.close();
    const QString bundle = dir.filePath("colours.dpmodel");
    run = runCli(QStringList{"train", "--train", path, "--out", bundle, "--model", "logreg", "--mechanism", "output",
                             "--norm-bound", "2", "--json"} + release);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(!run.json()["private"].toBool());
    QVERIFY(!run.json()["mechanism_guarantee_holds"].toBool());
    const auto inspected = runCli({"inspect", bundle, "--json"});
    QVERIFY2(inspected.exitCode == 0, qPrintable(describe(inspected)));
    const QJsonObject manifest = inspected.json()["manifest"].toObject();
    QVERIFY(!manifest["private"].toBool());
    QVERIFY(manifest["guarantee_covers"].toString().startsWith("nothing"));
    QVERIFY(manifest["privacy"].toObject()["not_private"].toVariant().toStringList().join(" ").contains("colour"));

    // Experiment noise: replayable, so not private either, and the text says so.
    const auto text = runCli(QStringList{"train", "--train", declared, "--model", "logreg", "--mechanism", "output",
                                         "--norm-bound", "1", "--classes", "0,1", "--test-fraction", "0", "--noise",
                                         "experiment"});
    QVERIFY2(text.out.contains("NOT PRIVATE") && text.out.contains("replayable"), qPrintable(text.out));
  }

  // A LIBSVM file's dimension is its largest index unless --features declares it, for
  // train's --train as for info.
  void libsvmDimensionIsMarkedUnlessDeclared() {
    const QString a9a = QString::fromStdString(dpstudio::test::fixture("a9a_head.libsvm"));
    auto run = runCli(QStringList{"train", "--train", a9a, "--test-fraction", "0"} + kTrain);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(marks(run).contains("dimension"));
    QVERIFY(run.json()["features"].toInt() < 123);  // the head never uses the last indices

    run = runCli(QStringList{"train", "--train", a9a, "--test-fraction", "0", "--features", "123", "--classes",
                             "-1,+1"} + kTrain);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["features"].toInt(), 123);
    QCOMPARE(marks(run), QStringList{});
    // A declared dimension below an index in the file is refused, not silently widened.
    QCOMPARE(runCli(QStringList{"train", "--train", a9a, "--features", "5"} + kTrain).exitCode, 3);
  }

  void infoLabelsMaxRowNormAsDataDerived() {
    auto run = runCli({"info", "builtin:iris", "--json"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.json().contains("max_row_norm"));  // docs/cli.md's key stays
    QCOMPARE(run.json()["max_row_norm_is_data_derived"].toBool(), true);
    run = runCli({"info", "builtin:iris"});
    QVERIFY(run.out.contains("(data-derived: not a public bound; do not use as R)"));
  }
};

QTEST_GUILESS_MAIN(TestCliStructure)
#include "test_cli_structure.moc"
