// `train --out`, `predict` and `inspect` (issue 12): exit codes, JSON keys, the stateful
// budget spent and recorded or refused as a whole, bad bundles exiting 5, and no drawn noise
// norm in any release-mode output.

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QByteArray>
#include <QIODevice>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_files.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

using dpstudio::test::irisHead;

QString describe(const CliRun& run) {
  return QString("exit %1\nstdout: %2\nstderr: %3").arg(run.exitCode).arg(run.out.left(2000), run.err);
}

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestCliBundle : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString model_;

 private slots:
  void initTestCase() {
    model_ = dir_.filePath("softmax.dpmodel");
    const auto run = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "output",
                             "--unit-rows", "--epsilon", "5", "--noise", "release", "--out", model_, "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["bundle"].toString(), model_);
    QVERIFY(QFile::exists(model_));
  }

  void predictPrintsRowsAndAccuracy() {
    const auto run = runCli({"predict", "--model", model_, "--data", "builtin:iris", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    QCOMPARE(json["rows"].toInt(), 150);
    QVERIFY(json["accuracy"].toDouble() >= 0 && json["accuracy"].toDouble() <= 1);
    QCOMPARE(json["predictions"].toArray().size(), 150);
    QVERIFY(!json.contains("budget_remaining"));  // a released model has no budget

    const QString preds = dir_.filePath("preds.csv");
    const auto text = runCli({"predict", "--model", model_, "--data", "builtin:iris", "--out", preds});
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY(text.out.contains("rows            150"));
    QVERIFY(text.out.contains("accuracy"));
    const QStringList lines = QString::fromUtf8(bytesOf(preds)).trimmed().split('\n');
    QCOMPARE(lines.size(), 151);
    QCOMPARE(lines.front(), QString("row,predicted,label"));
    QVERIFY(lines[1].startsWith("1,"));
  }

  // predict's accuracy on all of iris is train's on its two parts together: the bundle
  // applies the same preprocessing and model.
  void predictAgreesWithTrain() {
    const QString bundle = dir_.filePath("nonprivate.dpmodel");
    const auto trained = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "none",
                                 "--unit-rows", "--out", bundle, "--json"});
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const QJsonObject t = trained.json();
    const double correct = t["train_accuracy"].toDouble() * t["train_rows"].toInt() +
                           t["test_accuracy"].toDouble() * t["test_rows"].toInt();
    const auto predicted = runCli({"predict", "--model", bundle, "--data", "builtin:iris", "--json"});
    QCOMPARE(predicted.exitCode, 0);
    QCOMPARE(qRound(predicted.json()["accuracy"].toDouble() * 150), qRound(correct));
    QVERIFY(correct > 140);
  }

  void predictRefusesDataOfAnotherShape() {
    const auto run = runCli({"predict", "--model", model_, "--data", "builtin:wine", "--json"});
    QCOMPARE(run.exitCode, 3);
    QVERIFY(run.json()["error"].toObject()["message"].toString().contains("features"));
  }

  // Issue 32 item 6: by default the test accuracy is an experiment on a copy of the predictor,
  // with experiment noise and not charged, so the exported predictor keeps its whole budget
  // and no ledger entry is made until its first real answer.
  void exportedPredictorKeepsItsWholeBudget() {
    const QString bundle = dir_.filePath("whole.dpmodel");
    const QString ledger = dir_.filePath("whole-ledger.json");
    const auto trained = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism",
                                 "prediction", "--budget", "20", "--epsilon", "20", "--lambda", "0.1", "--unit-rows", "--out", bundle,
                                 "--ledger", ledger, "--json"});
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const QJsonObject out = trained.json();
    QCOMPARE(out["evaluation"].toString(), QString("experiment"));
    QCOMPARE(out["answered"].toInt(), 20);
    QVERIFY(out["test_accuracy"].isDouble());
    QCOMPARE(out["budget_remaining"].toInt(), 20);
    QVERIFY(!out["private"].toBool());  // what it printed is an experiment
    QVERIFY(out["test_accuracy_note"].toString().contains("NOT private"));
    QCOMPARE(runCli({"inspect", bundle, "--json"}).json()["budget_remaining"].toInt(), 20);
    QVERIFY(out["ledger"].toObject()["recorded"].toArray().isEmpty());
    // Replayable: the same seeds give the same answers.
    const auto again = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "prediction",
                               "--budget", "20", "--epsilon", "20", "--lambda", "0.1", "--unit-rows", "--json"});
    QCOMPARE(again.json()["test_accuracy"].toDouble(), out["test_accuracy"].toDouble());
    QCOMPARE(runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "prediction",
                     "--unit-rows", "--evaluation", "sometimes"}).exitCode, 2);
  }

  // Issue 32 item 5: new rows come without labels, and a labelled file may hold one class.
  // Rows whose columns are the model's inputs are predicted (no accuracy, no label column in
  // --out); --unlabelled says so outright; a one-class file is scored.
  void predictLabelsUnlabelledRowsAndScoresOneClass() {
    const QString rows =
        dpstudio::test::writeFile(dir_, "new_rows.csv", "a,b,c,d\n5.1,3.5,1.4,0.2\n7.0,3.2,4.7,1.4\n6.3,3.3,6.0,2.5\n");
    const QString preds = dir_.filePath("new_preds.csv");
    const auto guessed = runCli({"predict", "--model", model_, "--data", rows, "--out", preds, "--json"});
    QVERIFY2(guessed.exitCode == 0, qPrintable(describe(guessed)));
    QCOMPARE(guessed.json()["rows"].toInt(), 3);
    QVERIFY(guessed.json()["accuracy"].isNull());
    QVERIFY(!guessed.json()["labelled"].toBool());
    QVERIFY(guessed.json()["warnings"].toArray().first().toString().contains("read without labels"));
    const QStringList lines = QString::fromUtf8(bytesOf(preds)).split('\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines.front(), QString("row,predicted"));
    const auto told = runCli({"predict", "--model", model_, "--data", rows, "--unlabelled", "--json"});
    QVERIFY2(told.exitCode == 0, qPrintable(describe(told)));
    QCOMPARE(told.json()["predictions"], guessed.json()["predictions"]);
    QVERIFY(!told.json().contains("warnings"));
    // Unlabelled rows of another width are refused by the model, naming both widths.
    const auto wider = runCli({"predict", "--model", model_, "--data", irisHead(dir_, 3), "--unlabelled", "--json"});
    QCOMPARE(wider.exitCode, 3);
    QVERIFY2(wider.json()["error"].toObject()["message"].toString().contains("model takes 4"), qPrintable(describe(wider)));
    // One class: scored, not refused ("classification needs at least two" was the error).
    const QString setosa =
        dpstudio::test::writeFile(dir_, "setosa.csv", "a,b,c,d,label\n5.1,3.5,1.4,0.2,setosa\n4.9,3.0,1.4,0.2,setosa\n");
    const auto one = runCli({"predict", "--model", model_, "--data", setosa, "--json"});
    QVERIFY2(one.exitCode == 0, qPrintable(describe(one)));
    QVERIFY(one.json()["labelled"].toBool());
    QVERIFY(one.json()["accuracy"].isDouble());
    // train --test takes a one-class test file too.
    const auto trained = runCli({"train", "--train", "builtin:iris", "--test", setosa, "--model", "softmax",
                                 "--unit-rows", "--json"});
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
  }

  void inspectPrintsManifestAndPrivacy() {
    const auto json = runCli({"inspect", model_, "--json"});
    QVERIFY2(json.exitCode == 0, qPrintable(describe(json)));
    const QJsonObject manifest = json.json()["manifest"].toObject();
    QCOMPARE(manifest["format"].toString(), QString("dpstudio-model"));
    QCOMPARE(manifest["kind"].toString(), QString("model"));
    const QJsonObject privacy = json.json()["privacy"].toObject();
    QCOMPARE(privacy["mechanism"].toString(), QString("output"));
    QCOMPARE(privacy["epsilon"].toDouble(), 5.0);
    QCOMPARE(privacy["noise_source"].toString(), QString("release"));
    const auto text = runCli({"inspect", model_});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("guarantee       epsilon 5, delta 0 under substitution of one training example"));
    QVERIFY(text.out.contains("weights.npy (4, 3)"));
  }

  // Issue 12: a release-mode run prints no drawn noise norm, and its bundle holds none.
  void releaseModeOutputHasNoNoiseNorm() {
    const QString bundle = dir_.filePath("release.dpmodel");
    const auto run = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "loss",
                             "--unit-rows", "--noise", "release", "--out", bundle, "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(!run.out.contains("\"noise_norm\""));
    QVERIFY(!run.out.contains("\"noise_norms\""));
    const auto text = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "loss",
                              "--unit-rows", "--noise", "release"});
    QVERIFY(!text.out.contains("noise drawn"));
    const auto inspected = runCli({"inspect", bundle, "--json"});
    QVERIFY(!inspected.out.contains("\"noise_norm\"") && !inspected.out.contains("train_accuracy"));
    // Experiment mode keeps the diagnostic, marked as such.
    const auto experiment = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism", "loss",
                                    "--unit-rows", "--noise", "experiment", "--json"});
    QVERIFY(experiment.json()["report"].toObject().contains("noise_norm"));
  }

  // Issue 30 bugs 1 and 3: a private predictor's answers are a release, so `predict` draws
  // them from the OS CSPRNG unless asked for an experiment. Before the fix it used the seeded
  // generator with seed 1: two copies of one bundle gave bit-identical noisy labels on 569
  // rows, so anyone could regenerate the noise. With ε/B = 1/2000 per answer the noise
  // dominates the scores, so two release runs agreeing on all 569 labels is (far) below 2^-100.
  void predictDrawsReleaseNoiseByDefault() {
    const QString bundle = dir_.filePath("answers.dpmodel");
    const auto trained = runCli({"train", "--train", "builtin:breast_cancer", "--model", "logreg", "--mechanism",
                                 "prediction", "--budget", "2000", "--epsilon", "1", "--unit-rows", "--out", bundle,
                                 "--json"});
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const auto copyOf = [&](const QString& name) {
      const QString path = dir_.filePath(name);
      QFile::remove(path);
      QFile::copy(bundle, path);
      return path;
    };
    const auto predict = [&](const QString& path, const QStringList& extra) {
      return runCli(QStringList{"predict", "--model", path, "--data", "builtin:breast_cancer", "--json"} + extra);
    };
    const auto first = predict(copyOf("copy1.dpmodel"), {});
    const auto second = predict(copyOf("copy2.dpmodel"), {});
    QVERIFY2(first.exitCode == 0, qPrintable(describe(first)));
    QCOMPARE(first.json()["rows"].toInt(), 569);
    QCOMPARE(first.json()["noise_source"].toString(), QString("release"));
    QVERIFY(first.json()["answers_private"].toBool());
    QVERIFY(first.json()["predictions"].toArray() != second.json()["predictions"].toArray());

    // An experiment is asked for by name; it replays, and says it is not private.
    const auto replay = predict(copyOf("copy3.dpmodel"), {"--noise", "experiment", "--seed", "3"});
    const auto again = predict(copyOf("copy4.dpmodel"), {"--noise", "experiment", "--seed", "3"});
    QVERIFY2(replay.exitCode == 0, qPrintable(describe(replay)));
    QCOMPARE(replay.json()["predictions"].toArray(), again.json()["predictions"].toArray());
    QVERIFY(!replay.json()["answers_private"].toBool());
    QVERIFY(replay.json()["not_private"].toString().contains("seed 3"));
    const auto text = runCli({"predict", "--model", copyOf("copy5.dpmodel"), "--data", "builtin:breast_cancer",
                              "--noise", "experiment", "--out", dir_.filePath("experiment.csv")});
    QVERIFY(text.out.contains("NOT PRIVATE     experiment noise (seed 1)"));
    // A seed alone is not an experiment by accident: it is refused, nothing spent.
    const QString untouched = copyOf("copy6.dpmodel");
    const QByteArray before = bytesOf(untouched);
    const auto seedOnly = predict(untouched, {"--seed", "3"});
    QCOMPARE(seedOnly.exitCode, 2);
    QVERIFY(seedOnly.json()["error"].toObject()["message"].toString().contains("--noise experiment"));
    QCOMPARE(bytesOf(untouched), before);
  }

  // A private predictor: each row spends an answer, recorded in the bundle; more rows than
  // remain is refused as a whole (exit 4), nothing spent, nothing written.
  void statefulBudgetIsSpentAndRecorded() {
    const QString bundle = dir_.filePath("predictor.dpmodel");
    const auto trained = runCli({"train", "--train", "builtin:iris", "--model", "softmax", "--mechanism",
                                 "prediction", "--budget", "50", "--unit-rows", "--evaluation", "charged", "--out",
                                 bundle, "--json"});
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    QCOMPARE(trained.json()["evaluation"].toString(), QString("charged"));
    const int remaining = trained.json()["budget_remaining"].toInt();
    QCOMPARE(remaining, 50 - trained.json()["answered"].toInt());
    QCOMPARE(runCli({"inspect", bundle, "--json"}).json()["budget_remaining"].toInt(), remaining);

    const auto five = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 5), "--json"});
    QVERIFY2(five.exitCode == 0, qPrintable(describe(five)));
    QCOMPARE(five.json()["rows"].toInt(), 5);
    QCOMPARE(five.json()["budget_remaining"].toInt(), remaining - 5);
    QCOMPARE(runCli({"inspect", bundle, "--json"}).json()["budget_remaining"].toInt(), remaining - 5);

    const QByteArray before = bytesOf(bundle);
    const QString preds = dir_.filePath("refused.csv");
    const auto tooMany = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, remaining - 4), "--out", preds,
                                 "--json"});
    QCOMPARE(tooMany.exitCode, 4);
    QVERIFY(tooMany.json()["error"].toObject()["message"].toString().contains("budget"));
    QCOMPARE(bytesOf(bundle), before);  // nothing spent
    QVERIFY(!QFile::exists(preds));     // nothing written

    const auto rest = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, remaining - 5), "--json"});
    QCOMPARE(rest.exitCode, 0);
    QCOMPARE(rest.json()["budget_remaining"].toInt(), 0);
    QCOMPARE(runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 3)}).exitCode, 4);
  }

  void subsampleAndMultipartyExport() {
    const QString teachers = dir_.filePath("teachers.dpmodel");
    auto run = runCli({"train", "--train", "builtin:iris", "--model", "logreg", "--mechanism", "subsample",
                       "--teachers", "5", "--budget", "60", "--out", teachers});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.contains("bundle          written to " + teachers));
    QCOMPARE(runCli({"inspect", teachers, "--json"}).json()["manifest"].toObject()["kind"].toString(),
             QString("subsample-aggregate"));
    const QString parties = dir_.filePath("parties.dpmodel");
    run = runCli({"train", "--train", "builtin:blobs:classes=2,dim=3,per_class=100", "--model", "logreg",
                  "--mechanism", "multiparty", "--parties", "3", "--unit-rows", "--out", parties});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject privacy = runCli({"inspect", parties, "--json"}).json()["privacy"].toObject();
    QCOMPARE(privacy["mechanism"].toString(), QString("multiparty"));
    QVERIFY(!privacy["derived"].toObject().contains("distance_to_all_data"));
  }

  void badBundlesExitFive_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("not a zip") << QByteArray("hello, world") << "not a zip archive";
    QTest::newRow("empty file") << QByteArray() << "not a zip archive";
  }
  void badBundlesExitFive() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    const QString path = dir_.filePath("bad.dpmodel");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    for (const QStringList& args : {QStringList{"inspect", path, "--json"},
                                    QStringList{"predict", "--model", path, "--data", "builtin:iris", "--json"}}) {
      const auto run = runCli(args);
      QCOMPARE(run.exitCode, 5);
      QCOMPARE(run.json()["error"].toObject()["code"].toInt(), 5);
      QVERIFY2(run.json()["error"].toObject()["message"].toString().contains(message), qPrintable(run.out));
    }
    // A truncated real bundle, in text mode: the message names the file.
    QFile good(model_);
    QVERIFY(good.open(QIODevice::ReadOnly));
    const QByteArray cut = good.readAll().left(200);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(cut);
    f.close();
    const auto text = runCli({"inspect", path});
    QCOMPARE(text.exitCode, 5);
    QVERIFY(text.err.contains(path + ": not a zip archive, or a truncated one"));
    QCOMPARE(runCli({"inspect", dir_.filePath("missing.dpmodel")}).exitCode, 5);
  }

  void usageErrors() {
    QCOMPARE(runCli({"predict", "--data", "builtin:iris"}).exitCode, 2);
    QCOMPARE(runCli({"predict", "--model", model_}).exitCode, 2);
    QCOMPARE(runCli({"inspect"}).exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestCliBundle)
#include "test_cli_bundle.moc"
