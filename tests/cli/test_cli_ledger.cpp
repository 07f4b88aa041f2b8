// `--ledger FILE|default` (issue 13 §4): every release of `train` (a model, a private
// predictor's answers, each multiparty release) and of `predict` with a private predictor's
// bundle is appended to the ledger file, before anything of it is shown; without --ledger
// nothing is written; sweeps and audits have no --ledger; two processes appending at once
// lose nothing; a corrupt ledger is set aside and reported, a newer one refuses the run;
// copies of a bundle add up their answers in the ledger and are refused past B (issue 30).

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QByteArray>
#include <QFileInfo>
#include <QIODevice>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTest>

#include <set>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_files.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

using dpstudio::test::irisHead;

QString describe(const CliRun& run) {
  return QString("exit %1\nstdout: %2\nstderr: %3").arg(run.exitCode).arg(run.out.left(3000), run.err);
}

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonArray entriesOf(const QString& ledger) {
  return QJsonDocument::fromJson(bytesOf(ledger)).object()["entries"].toArray();
}

const QStringList kIris{"--train", "builtin:iris", "--unit-rows", "--model", "softmax"};
const QStringList kBinary{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept",
                          "--model", "logreg", "--lambda", "0.01"};

QStringList train(const QStringList& data, const QStringList& more) { return QStringList{"train"} + data + more; }

}  // namespace

class TestCliLedger : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  int n_ = 0;
  QString freshLedger() { return dir_.filePath(QString("ledger%1.json").arg(++n_)); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    // Whatever a test does, the user's own ledger is never touched.
    qputenv("DPSTUDIO_LEDGER_FILE", dir_.filePath("default-ledger.json").toUtf8());
  }

  void trainAppendsAnEntryPerRelease() {
    const QString ledger = freshLedger();
    const auto first = runCli(train(kIris, {"--mechanism", "output", "--epsilon", "0.5", "--ledger", ledger,
                                            "--dataset-name", "iris flowers", "--json"}));
    QVERIFY2(first.exitCode == 0, qPrintable(describe(first)));
    QJsonArray entries = entriesOf(ledger);
    QCOMPARE(entries.size(), 1);
    const QJsonObject entry = entries[0].toObject();
    QCOMPARE(entry["mechanism"].toString(), QString("Output perturbation (Softmax regression)"));
    QCOMPARE(entry["epsilon"].toDouble(), 0.5);
    QCOMPARE(entry["dataset"].toObject()["path"].toString(), QString("builtin:iris"));
    QCOMPARE(entry["dataset"].toObject()["name"].toString(), QString("iris flowers"));
    QVERIFY(entry["session"].toString().startsWith("dpstudio-cli train, "));
    // The output says what was recorded, and the dataset's total across sessions.
    const QJsonObject said = first.json()["ledger"].toObject();
    QCOMPARE(said["file"].toString(), ledger);
    QCOMPARE(said["recorded"].toArray().size(), 1);
    QCOMPARE(said["recorded"].toArray()[0].toObject()["id"], entry["id"]);
    QCOMPARE(said["datasets"].toArray()[0].toObject()["epsilon"].toDouble(), 0.5);

    const auto second = runCli(train(kIris, {"--mechanism", "loss", "--epsilon", "0.25", "--ledger", ledger}));
    QVERIFY2(second.exitCode == 0, qPrintable(describe(second)));
    QCOMPARE(entriesOf(ledger).size(), 2);
    QVERIFY2(second.out.contains("ledger total    iris flowers, builtin:iris: epsilon 0.75, delta 0 over 2 release(s)"),
             qPrintable(second.out));

    // A non-private run releases nothing private: nothing recorded.
    const QByteArray before = bytesOf(ledger);
    const auto none = runCli(train(kIris, {"--mechanism", "none", "--ledger", ledger}));
    QVERIFY2(none.exitCode == 0, qPrintable(describe(none)));
    QVERIFY(none.out.contains("nothing recorded"));
    QCOMPARE(bytesOf(ledger), before);
  }

  // DP-SGD with noise multiplier 0 guarantees nothing (ε = ∞): no total can hold it, so with
  // --ledger the run is refused before anything of it is shown.
  void aRunWithoutAGuaranteeIsRefused() {
    const QString ledger = freshLedger();
    const auto run = runCli(train(kIris, {"--mechanism", "dpsgd", "--delta", "1e-5", "--noise-multiplier", "0",
                                          "--epochs", "1", "--ledger", ledger}));
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains("epsilon = infinity"), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    QVERIFY(entriesOf(ledger).isEmpty());
  }

  void withoutLedgerNothingIsWritten() {
    const QString defaultFile = dir_.filePath("default-ledger.json");
    QFile::remove(defaultFile);
    const auto run = runCli(train(kIris, {"--mechanism", "output", "--json"}));
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.json()["ledger"].isNull());
    QVERIFY(!QFile::exists(defaultFile));
    QVERIFY(!QFile::exists(defaultFile + ".lock"));
    // --dataset-name means nothing without a ledger.
    QCOMPARE(runCli(train(kIris, {"--mechanism", "output", "--dataset-name", "x"})).exitCode, 2);
  }

  void ledgerDefaultIsThePerUserFile() {
    const QString defaultFile = dir_.filePath("default-ledger.json");
    QFile::remove(defaultFile);
    const auto run = runCli(train(kIris, {"--mechanism", "output", "--ledger", "default"}));
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(entriesOf(defaultFile).size(), 1);
  }

  // Multiparty with its all-data DP baseline makes two releases: two entries, the run's 2ε.
  void multipartyRecordsEachRelease() {
    const QString ledger = freshLedger();
    const auto run = runCli(train(kBinary, {"--mechanism", "multiparty", "--epsilon", "2", "--multiparty-baseline",
                                            "--ledger", ledger, "--json"}));
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonArray entries = entriesOf(ledger);
    QCOMPARE(entries.size(), 2);
    const QJsonArray releases = run.json()["releases"].toArray();
    QCOMPARE(entries[0].toObject()["epsilon"].toDouble(), releases[0].toObject()["epsilon"].toDouble());
    QCOMPARE(entries[1].toObject()["epsilon"].toDouble(), releases[1].toObject()["epsilon"].toDouble());
    QVERIFY(entries[1].toObject()["mechanism"].toString().contains("all-data DP baseline"));
    QCOMPARE(QJsonDocument::fromJson(bytesOf(ledger)).object()["total"].toObject()["epsilon"].toDouble(), 4.0);
  }

  // The answers are the release: the budget's entry holds its whole ε, opened by the test
  // answers; each later `predict` through its bundle records its own answers in an entry of
  // its own, at ε = 0, on the training data, and the budget's count is the sum.
  void predictorAnswersAndItsBundleCountAgainstOneBudget() {
    const QString ledger = freshLedger();
    const QString bundle = dir_.filePath("counted.dpmodel");
    const auto trained = runCli(train(kIris, {"--mechanism", "prediction", "--budget", "60", "--epsilon", "1",
                                              "--evaluation", "charged", "--out", bundle, "--ledger", ledger, "--json"}));
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const int answered = trained.json()["answered"].toInt();
    QVERIFY(answered > 0);
    QJsonArray entries = entriesOf(ledger);
    QCOMPARE(entries.size(), 1);
    QJsonObject budget = entries[0].toObject()["inference_budget"].toObject();
    QCOMPARE(budget["budget"].toInt(), 60);
    QCOMPARE(budget["answers"].toInt(), answered);
    QVERIFY(budget["opens"].toBool());
    QCOMPARE(entries[0].toObject()["epsilon"].toDouble(), 1.0);

    const auto predicted = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 5), "--ledger", ledger, "--json"});
    QVERIFY2(predicted.exitCode == 0, qPrintable(describe(predicted)));
    entries = entriesOf(ledger);
    QCOMPARE(entries.size(), 2);
    const QJsonObject answers = entries[1].toObject();
    QCOMPARE(answers["epsilon"].toDouble(), 0.0);  // the budget's ε is on the opening
    QCOMPARE(answers["inference_budget"].toObject()["answers"].toInt(), 5);
    QVERIFY(!answers["inference_budget"].toObject()["opens"].toBool());
    QCOMPARE(answers["dataset"].toObject()["path"].toString(), QString("builtin:iris"));  // the training data's
    QVERIFY(answers["session"].toString().startsWith("dpstudio-cli predict, "));
    QCOMPARE(predicted.json()["ledger"].toObject()["recorded"].toArray()[0].toObject()["id"], answers["id"]);
    QCOMPARE(predicted.json()["ledger"].toObject()["budgets"].toArray()[0].toObject()["used"].toInt(), answered + 5);

    // Without --ledger the bundle still counts its answers, the ledger does not move.
    QVERIFY(runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 2)}).exitCode == 0);
    QCOMPARE(entriesOf(ledger).size(), 2);
    const auto again = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 3), "--ledger", ledger});
    QVERIFY2(again.exitCode == 0, qPrintable(describe(again)));
    QCOMPARE(entriesOf(ledger).size(), 3);
    QVERIFY2(again.out.contains(QString("the ledger counts %1 of 60 given").arg(answered + 8)), qPrintable(again.out));
  }

  // Issue 30 item 7: each copy of a bundle carries its own count, and the ledger kept the
  // larger count of a budget's sessions, so two copies answering 569 rows each showed "711
  // given" of B = 1000 and could give 2·569. The ledger adds up every session's answers of a
  // budget, whatever copy gave them, and refuses past B: exit 4, nothing drawn, neither the
  // copy nor the ledger written.
  void twoCopiesOfABundleCannotTogetherExceedTheBudget() {
    const QString ledger = freshLedger();
    const QString original = dir_.filePath("original.dpmodel");
    const auto trained = runCli(train(kIris, {"--mechanism", "prediction", "--budget", "400", "--epsilon", "1",
                                              "--evaluation", "charged", "--out", original, "--ledger", ledger, "--json"}));
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const int answered = trained.json()["answered"].toInt();
    // Three copies, each able to answer all 150 rows by its own count; two fit in B, three do not.
    QVERIFY(answered + 2 * 150 <= 400 && answered + 3 * 150 > 400);
    QStringList copies;
    for (int i = 0; i < 3; ++i) {
      copies << dir_.filePath(QString("copy%1.dpmodel").arg(i));
      QVERIFY(QFile::copy(original, copies.back()));
    }
    for (int i = 0; i < 2; ++i) {
      const auto run = runCli({"predict", "--model", copies[i], "--data", "builtin:iris", "--ledger", ledger, "--json"});
      QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
      QCOMPARE(run.json()["budget_remaining"].toInt(), 400 - answered - 150);  // each copy's own count
    }
    const QByteArray ledgerBefore = bytesOf(ledger), copyBefore = bytesOf(copies[2]);
    const auto refused = runCli({"predict", "--model", copies[2], "--data", "builtin:iris", "--ledger", ledger, "--json"});
    QCOMPARE(refused.exitCode, 4);
    const QString message = refused.json()["error"].toObject()["message"].toString();
    QVERIFY2(message.contains("inference budget spent") &&
                 message.contains(QString("counts %1 of the 400 answers").arg(answered + 300)),
             qPrintable(describe(refused)));
    QCOMPARE(bytesOf(copies[2]), copyBefore);  // nothing drawn, the copy not rewritten
    QCOMPARE(bytesOf(ledger), ledgerBefore);

    // The ledger's count is the sum over the copies; every predict entry is on the training data.
    const QJsonObject file = QJsonDocument::fromJson(bytesOf(ledger)).object();
    const QJsonArray budgets = file["budgets"].toArray();
    QCOMPARE(budgets.size(), 1);
    QCOMPARE(budgets[0].toObject()["used"].toInt(), answered + 300);
    QCOMPARE(budgets[0].toObject()["remaining"].toInt(), 400 - answered - 300);
    const QJsonArray entries = file["entries"].toArray();
    QCOMPARE(entries.size(), 3);
    QCOMPARE(file["total"].toObject()["epsilon"].toDouble(), 1.0);  // the budget's ε once
    for (int i = 1; i < 3; ++i) {
      const QJsonObject e = entries[i].toObject();
      QCOMPARE(e["inference_budget"].toObject()["answers"].toInt(), 150);
      QCOMPARE(e["dataset"].toObject()["path"].toString(), QString("builtin:iris"));
      QVERIFY2(e["note"].toString().contains(QFileInfo(copies[i - 1]).absoluteFilePath()) &&
                   e["note"].toString().contains("to the rows of builtin:iris"),
               qPrintable(e["note"].toString()));
    }
    // Without the ledger a copy has only its own count, and answers: the ledger is the defence.
    const auto unledgered = runCli({"predict", "--model", copies[2], "--data", "builtin:iris", "--json"});
    QVERIFY2(unledgered.exitCode == 0, qPrintable(describe(unledgered)));
  }

  // A bundle this ledger has never seen: its budget is opened at its first answer here, with
  // its whole ε and the count the bundle had reached, on the name the user gives its data.
  void anUnseenBundleOpensItsBudget() {
    const QString ledger = freshLedger();
    const QString bundle = dir_.filePath("unseen.dpmodel");
    const auto trained = runCli(train(kIris, {"--mechanism", "prediction", "--budget", "60", "--epsilon", "2",
                                              "--evaluation", "charged", "--out", bundle, "--json"}));
    QVERIFY2(trained.exitCode == 0, qPrintable(describe(trained)));
    const int answered = trained.json()["answered"].toInt();
    const auto predicted = runCli({"predict", "--model", bundle, "--data", irisHead(dir_, 3), "--ledger", ledger,
                                   "--dataset-name", "iris flowers"});
    QVERIFY2(predicted.exitCode == 0, qPrintable(describe(predicted)));
    const QJsonArray entries = entriesOf(ledger);
    QCOMPARE(entries.size(), 1);
    const QJsonObject entry = entries[0].toObject();
    QCOMPARE(entry["epsilon"].toDouble(), 2.0);
    const QJsonObject budget = entry["inference_budget"].toObject();
    QVERIFY(budget["opens"].toBool());
    QCOMPARE(budget["answers"].toInt(), 3);
    QCOMPARE(budget["before"].toInt(), answered);  // counted: this ledger never saw them
    QCOMPARE(QJsonDocument::fromJson(bytesOf(ledger)).object()["budgets"].toArray()[0].toObject()["used"].toInt(),
             answered + 3);
    QCOMPARE(entry["dataset"].toObject()["name"].toString(), QString("iris flowers"));
    QVERIFY(entry["dataset"].toObject()["path"].isNull());  // a bundle never names its data
    QVERIFY(entry["note"].toString().contains(QFileInfo(bundle).absoluteFilePath()));
    // A released model answers deterministically: no release, nothing recorded.
    const QString model = dir_.filePath("model.dpmodel");
    QVERIFY(runCli(train(kIris, {"--mechanism", "output", "--out", model})).exitCode == 0);
    const QByteArray before = bytesOf(ledger);
    QVERIFY(runCli({"predict", "--model", model, "--data", irisHead(dir_, 3), "--ledger", ledger}).exitCode == 0);
    QCOMPARE(bytesOf(ledger), before);
  }

  void sweepsAndAuditsNeverWriteTheLedger() {
    const QString ledger = freshLedger();
    const auto sweep = runCli({"sweep", "--train", "builtin:iris", "--unit-rows", "--model", "softmax", "--mechanisms",
                               "output", "--axis", "epsilon", "--values", "1", "--repeats", "1", "--ledger", ledger});
    QCOMPARE(sweep.exitCode, 2);
    QVERIFY2(sweep.err.contains("ledger"), qPrintable(sweep.err));
    const auto audit = runCli({"audit", "--mechanism", "output", "--model", "logreg", "--trials", "10", "--ledger", ledger});
    QCOMPARE(audit.exitCode, 2);
    QVERIFY(!QFile::exists(ledger));
  }

  // Several processes appending at once (each re-reads, merges and writes under the lock):
  // every release of every one of them is in the file.
  void concurrentProcessesLoseNothing() {
    const QString ledger = freshLedger();
    constexpr int kProcesses = 6;
    std::vector<std::unique_ptr<QProcess>> processes;
    for (int i = 0; i < kProcesses; ++i) {
      auto process = std::make_unique<QProcess>();
      process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                     train(kIris, {"--mechanism", "output", "--epsilon", QString::number(0.125 * (i + 1)), "--ledger",
                                   ledger, "--json"}));
      processes.push_back(std::move(process));
    }
    std::set<QString> ids;
    for (auto& process : processes) {
      QVERIFY(process->waitForFinished(120000));
      QCOMPARE(process->exitCode(), 0);
      const QJsonObject said = QJsonDocument::fromJson(process->readAllStandardOutput()).object();
      ids.insert(said["ledger"].toObject()["recorded"].toArray()[0].toObject()["id"].toString());
    }
    const QJsonArray entries = entriesOf(ledger);
    QCOMPARE(entries.size(), kProcesses);
    std::set<QString> written;
    double total = 0;
    for (const QJsonValue& e : entries) {
      written.insert(e.toObject()["id"].toString());
      total += e.toObject()["epsilon"].toDouble();
    }
    QCOMPARE(written, ids);
    QCOMPARE(total, 0.125 * kProcesses * (kProcesses + 1) / 2);
  }

  void aCorruptLedgerIsReportedAndKeptAside() {
    const QString ledger = freshLedger();
    QFile f(ledger);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"dpstudio-ledger\", \"version\": 1, \"entries\": [");
    f.close();
    const auto run = runCli(train(kIris, {"--mechanism", "output", "--ledger", ledger}));
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY2(run.err.contains("warning: the privacy ledger " + ledger + " was corrupt"), qPrintable(run.err));
    QVERIFY(run.err.contains("kept aside as " + ledger + ".corrupt-"));
    QCOMPARE(entriesOf(ledger).size(), 1);
    const QStringList aside = QDir(dir_.path()).entryList({QFileInfo(ledger).fileName() + ".corrupt-*"});
    QCOMPARE(aside.size(), 1);
    QVERIFY(bytesOf(dir_.filePath(aside[0])).endsWith("\"entries\": ["));
  }

  // A ledger a later dpstudio wrote is left as it is, and the run refused before it
  // releases anything: nothing printed, no bundle.
  void aNewerLedgerRefusesTheRun() {
    const QString ledger = freshLedger();
    const QByteArray newer = "{\"format\": \"dpstudio-ledger\", \"version\": 9, \"entries\": []}";
    QFile f(ledger);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(newer);
    f.close();
    const QString bundle = dir_.filePath("refused.dpmodel");
    const auto run = runCli(train(kIris, {"--mechanism", "output", "--ledger", ledger, "--out", bundle}));
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.err.contains(ledger) && run.err.contains("version 9 is newer"), qPrintable(run.err));
    QVERIFY(run.out.isEmpty());
    QVERIFY(!QFile::exists(bundle));
    QCOMPARE(bytesOf(ledger), newer);
  }
};

QTEST_GUILESS_MAIN(TestCliLedger)
#include "test_cli_ledger.moc"
