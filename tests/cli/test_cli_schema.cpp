// --schema (issue 32 item 1; docs/formats/schema.md) from the command line, as a newcomer
// would use it on their own CSV: `info --draft-schema` writes a draft that says it was read
// off the data; a reviewed schema trains with nothing marked as read off the data, its
// declared ranges giving R; the bundle keeps the schema, and `predict` reads new rows
// (no label column, categories in another mix) by it; what the schema declares is not
// declared twice on the command line.

#include <QFile>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_files.h"

using dpstudio::test::runCli;

namespace {

QString describe(const dpstudio::test::CliRun& run) {
  return QString("exit %1\nstdout: %2\nstderr: %3").arg(run.exitCode).arg(run.out, run.err);
}

using dpstudio::test::writeFile;

// People whose income class follows age, job and hours; an id column to ignore.
QByteArray people(int rows, quint32 seed) {
  QRandomGenerator rng(seed);
  const char* jobs[] = {"clerk", "engineer", "farmer", "nurse"};
  QByteArray text = "id,age,job,hours,income\n";
  for (int i = 0; i < rows; ++i) {
    const int age = 18 + static_cast<int>(rng.bounded(63));
    const int job = static_cast<int>(rng.bounded(4));
    const int hours = 10 + static_cast<int>(rng.bounded(61));
    const double score = (age - 40) / 20.0 + (job == 1 ? 1.5 : job == 2 ? -0.5 : 0.0) + (hours - 40) / 15.0 +
                         0.7 * (rng.generateDouble() - 0.5);
    text += QString("%1,%2,%3,%4,%5\n").arg(i).arg(age).arg(jobs[job]).arg(hours).arg(score > 0.3 ? "high" : "low").toUtf8();
  }
  return text;
}

const QByteArray kSchema = R"({
  "dpstudio_schema": 1,
  "label_column": "income",
  "classes": ["low", "high"],
  "ignore": ["id"],
  "features": [
    {"name": "age", "range": [17, 90]},
    {"name": "job", "categories": ["clerk", "engineer", "farmer", "nurse", "teacher"]},
    {"name": "hours", "range": [0, 100]}
  ]
})";

QStringList marks(const dpstudio::test::CliRun& run) {
  QStringList out;
  for (const auto& mark : run.json()["structure_from_data"].toArray()) out << mark.toString();
  return out;
}

}  // namespace

class TestCliSchema : public QObject {
  Q_OBJECT

 private slots:
  void reviewedSchemaTrainsExportsAndPredictsNewRows() {
    QTemporaryDir dir;
    const QString data = dir.filePath("people.csv"), schema = dir.filePath("schema.json");
    const QString bundle = dir.filePath("m.dpmodel"), preds = dir.filePath("preds.csv");
    writeFile(data, people(2000, 7));
    writeFile(schema, kSchema);
    // An ordered split reads no label: with the schema nothing at all is read off the rows.
    const auto train = runCli({"train", "--train", data, "--schema", schema, "--split", "ordered", "--model", "logreg",
                               "--mechanism", "objective", "--epsilon", "1", "--out", bundle, "--json"});
    QVERIFY2(train.exitCode == 0, qPrintable(describe(train)));
    QVERIFY2(marks(train).isEmpty(), qPrintable(describe(train)));
    const QJsonObject json = train.json();
    // age, 5 job indicators, hours; R = sqrt(3)/2 from three declared features.
    QCOMPARE(json["features"].toInt(), 7);
    bool derived = false;
    for (const auto& step : json["preprocessing"].toArray()) derived |= step.toString().contains("R = 0.866025");
    QVERIFY2(derived, qPrintable(train.out));
    QVERIFY2(json["test_accuracy"].toDouble() > 0.75, qPrintable(describe(train)));

    writeFile(dir.filePath("new.csv"), "id,age,job,hours\n1,25,teacher,20\n2,70,engineer,65\n3,44,farmer,40\n");
    const auto predicted = runCli({"predict", "--model", bundle, "--data", dir.filePath("new.csv"), "--out", preds});
    QVERIFY2(predicted.exitCode == 0, qPrintable(describe(predicted)));
    QVERIFY2(predicted.err.contains("no label column 'income'"), qPrintable(predicted.err));
    QFile out(preds);
    QVERIFY(out.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(out.readAll()).trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QString("row,predicted"));
    QCOMPARE(lines[2], QString("2,high"));  // old, an engineer, long hours

    // A category the schema does not declare: refused by file, line and column.
    writeFile(dir.filePath("pilot.csv"), "id,age,job,hours\n1,25,pilot,20\n");
    const auto pilot = runCli({"predict", "--model", bundle, "--data", dir.filePath("pilot.csv")});
    QCOMPARE(pilot.exitCode, 3);
    QVERIFY2(pilot.err.contains("pilot.csv:2") && pilot.err.contains("'pilot'"), qPrintable(pilot.err));
  }

  void aDraftIsMarkedUntilReviewed() {
    QTemporaryDir dir;
    const QString data = dir.filePath("people.csv"), draft = dir.filePath("draft.json");
    writeFile(data, people(400, 3));
    const auto info = runCli({"info", data, "--draft-schema", draft, "--json"});
    QVERIFY2(info.exitCode == 0, qPrintable(describe(info)));
    QVERIFY2(QJsonDocument(info.json()["warnings"].toArray()).toJson().contains("drafted_from_data"), qPrintable(info.out));
    QFile file(draft);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(file.readAll()).contains("\"drafted_from_data\": true"));
    const auto train = runCli({"train", "--train", data, "--schema", draft, "--split", "ordered", "--model", "logreg",
                               "--mechanism", "none", "--json"});
    QVERIFY2(train.exitCode == 0, qPrintable(describe(train)));
    QCOMPARE(marks(train), QStringList{"schema drafted from the data"});
  }

  void whatTheSchemaDeclaresIsNotDeclaredTwice() {
    QTemporaryDir dir;
    const QString data = dir.filePath("people.csv"), schema = dir.filePath("schema.json");
    writeFile(data, people(200, 5));
    writeFile(schema, kSchema);
    const QStringList base{"train", "--train", data, "--schema", schema, "--model", "logreg", "--mechanism", "none"};
    for (const QStringList& extra : {QStringList{"--label-column", "income"}, QStringList{"--classes", "low,high"},
                                     QStringList{"--feature-range", "0,1"}}) {
      const auto run = runCli(base + extra);
      QVERIFY2(run.exitCode == 2 && run.err.contains("the schema declares"), qPrintable(describe(run)));
    }
    writeFile(dir.filePath("typo.json"), R"({"dpstudio_schema": 1, "lable_column": "income"})");
    const auto typo = runCli({"info", data, "--schema", dir.filePath("typo.json")});
    QCOMPARE(typo.exitCode, 3);
    QVERIFY2(typo.err.contains("typo.json") && typo.err.contains("lable_column"), qPrintable(typo.err));
  }
};

QTEST_GUILESS_MAIN(TestCliSchema)
#include "test_cli_schema.moc"
