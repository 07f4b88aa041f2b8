// `dpstudio-cli sweep` and `sweep-merge` as a script runs them: the trial table, the JSON
// summary and the plot of a small sweep; shards merged into the same summary; bad input
// refused with the right exit code, the field named, and nothing written.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QSet>
#include <QTemporaryDir>
#include <QIODevice>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMap>
#include <QRgb>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"

using dpstudio::test::runCli;

namespace {

QStringList smallSweep() {
  return {"sweep", "--train", "builtin:breast_cancer", "--unit-rows", "--model", "logreg", "--lambda", "1e-2",
          "--mechanisms", "output,prediction", "--budget", "20", "--axis", "epsilon", "--values", "0.1,1,10",
          "--repeats", "3", "--seed", "5"};
}

int lines(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return -1;
  return file.readAll().count('\n');
}

// (mechanism, value) → mean, from a sweep's JSON.
QMap<QString, double> means(const QJsonObject& json) {
  QMap<QString, double> out;
  for (const QJsonValue& v : json["points"].toArray()) {
    const QJsonObject p = v.toObject();
    out[p["mechanism"].toString() + "@" + QString::number(p["value"].toDouble())] = p["mean"].toDouble();
  }
  return out;
}

}  // namespace

class TestCliSweep : public QObject {
  Q_OBJECT

 private slots:
  void smallSweepWritesTableSummaryAndPlot() {
    QTemporaryDir dir;
    const QString csv = dir.filePath("trials.csv"), png = dir.filePath("curve.png"), svg = dir.filePath("curve.svg");
    const auto run = runCli(smallSweep() << "--out" << csv << "--plot" << png << "--json");
    QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
    const QJsonObject json = run.json();
    // output and prediction and the non-private reference, 3 values, 3 repetitions.
    QCOMPARE(json["trials"].toInt(), 27);
    QCOMPARE(json["total_trials"].toInt(), 27);
    QVERIFY(json["complete"].toBool());
    QVERIFY(json["not_a_release"].toString().contains("not a private release"));
    const QJsonArray points = json["points"].toArray();
    QCOMPARE(points.size(), 6);  // the reference is a line, not points, on the ε axis
    for (const QJsonValue& v : points) {
      const QJsonObject p = v.toObject();
      for (const char* key : {"mechanism", "axis", "value", "mean", "std", "count"}) QVERIFY(p.contains(key));
      QCOMPARE(p["axis"].toString(), QString("epsilon"));
      QCOMPARE(p["count"].toInt(), 3);
    }
    // The non-private model and (issue 32 item 4) always answering the most common class.
    const QJsonArray references = json["references"].toArray();
    QCOMPARE(references.size(), 2);
    QCOMPARE(references[1].toObject()["label"].toString(), QString("always the most common class"));
    QVERIFY(references[1].toObject()["accuracy"].toDouble() > 0.2);
    QVERIFY(json["seconds"].toDouble() > 0);
    // The shared work: one baseline, polished once to output perturbation's τ; no perturbed
    // problem to warm-start here (output perturbation releases the minimizer itself).
    const QJsonObject work = json["shared_work"].toObject();
    QCOMPARE(work["baselines"].toInt(), 1);
    QCOMPARE(work["exact_minimizers"].toInt(), 1);
    QCOMPARE(work["warm_starts"].toInt(), 0);
    const auto m = means(json);
    QVERIFY2(m["output@10"] > m["output@0.1"], "output perturbation does better at epsilon 10 than at 0.1");
    // Two lines of header, one row per trial.
    QCOMPARE(lines(csv), 2 + 27);
    QImage image(png);
    QVERIFY(!image.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
      for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, "the plot is not blank");
    // Text output, and SVG.
    const auto text = runCli(smallSweep() << "--plot" << svg);
    QVERIFY2(text.exitCode == 0, qPrintable(text.err));
    QVERIFY(text.out.contains("not a private release"));
    QVERIFY(text.err.contains("27/27 trials"));  // progress on stderr
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QVERIFY(svgFile.readAll().contains("<svg"));
  }

  void shardsMergeIntoTheSameSummary() {
    QTemporaryDir dir;
    const auto whole = runCli(smallSweep() << "--json");
    QCOMPARE(whole.exitCode, 0);
    QStringList tables;
    for (int k = 1; k <= 2; ++k) {
      const QString path = dir.filePath(QString("shard%1.csv").arg(k));
      const auto shard = runCli(smallSweep() << "--shard" << QString("%1/2").arg(k) << "--out" << path
                                             << "--threads" << QString::number(k) << "--json");
      QVERIFY2(shard.exitCode == 0, qPrintable(shard.err));
      QCOMPARE(shard.json()["complete"].toBool(), true);
      tables << path;
    }
    const QString png = dir.filePath("merged.png");
    const auto merged = runCli(QStringList{"sweep-merge"} << tables << "--json" << "--plot" << png);
    QVERIFY2(merged.exitCode == 0, qPrintable(merged.err));
    QCOMPARE(merged.json()["trials"].toInt(), 27);
    QCOMPARE(merged.json()["fingerprint"], whole.json()["fingerprint"]);
    QCOMPARE(means(merged.json()), means(whole.json()));
    QVERIFY(QFile::exists(png));
    // A shard alone is an incomplete merge, said so.
    const auto half = runCli({"sweep-merge", tables[0], "--json"});
    QCOMPARE(half.exitCode, 0);
    QCOMPARE(half.json()["complete"].toBool(), false);
    // A shard of another sweep (another seed) is refused.
    const QString other = dir.filePath("other.csv");
    QStringList args = smallSweep();
    args[args.indexOf("--seed") + 1] = "6";
    QCOMPARE(runCli(args << "--shard" << "2/2" << "--out" << other).exitCode, 0);
    const auto refused = runCli({"sweep-merge", tables[0], other, "--json"});
    QCOMPARE(refused.exitCode, 3);
    QVERIFY(refused.json()["error"].toObject()["message"].toString().contains("different sweeps"));
  }

  void badInputIsRefusedAndNothingIsWritten() {
    QTemporaryDir dir;
    const QString csv = dir.filePath("t.csv"), png = dir.filePath("c.png");
    struct Case {
      QStringList change;  // option, value pairs replacing the small sweep's
      int exitCode;
      QString field;
    };
    const QList<Case> cases = {
        {{"--axis", "epsilons"}, 2, "axis"},
        {{"--values", "1,0"}, 4, "values"},
        {{"--values", "1,abc"}, 2, "values"},
        {{"--mechanisms", "output,telepathy"}, 2, "mechanism"},
        {{"--mechanisms", "output", "--axis", "budget", "--values", "10"}, 2, "axis"},  // no series has a budget
        {{"--repeats", "0"}, 2, "repeats"},
        {{"--shard", "3/2"}, 2, "shard"},
        {{"--mechanisms", "subsample", "--axis", "teachers", "--values", "100000"}, 4, "values"},
    };
    for (const Case& c : cases) {
      QStringList args = smallSweep();
      for (int i = 0; i < c.change.size(); i += 2) {
        const int at = args.indexOf(c.change[i]);
        if (at >= 0) args[at + 1] = c.change[i + 1];
        else args << c.change[i] << c.change[i + 1];
      }
      const auto run = runCli(args << "--out" << csv << "--plot" << png << "--json");
      QVERIFY2(run.exitCode == c.exitCode, qPrintable(c.change.join(' ') + ": " + run.out + run.err));
      const QJsonObject error = run.json()["error"].toObject();
      QVERIFY2(error["message"].toString().contains(c.field) || error["field"].toString() == c.field,
               qPrintable(c.change.join(' ') + ": " + run.out));
      QVERIFY2(QDir(dir.path()).entryList(QDir::Files).isEmpty(), qPrintable(c.change.join(' ')));
    }
    // An unsupported plot format is refused before any work.
    const auto svgz = runCli(smallSweep() << "--plot" << dir.filePath("c.jpg"));
    QCOMPARE(svgz.exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "test_cli_sweep.moc"
