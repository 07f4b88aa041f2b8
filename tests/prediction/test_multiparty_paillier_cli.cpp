// `dpstudio-cli train --mechanism multiparty --protocol paillier [--transcript FILE]`, run
// as a script would: the release goes through paper 004's protocol with the product's
// 2048-bit keys, the JSON says so, the transcript file is complete JSON, and misuse of the
// options is a usage error (exit 2). Three parties and two keep it to three comparisons.

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::CliRun;
using dpstudio::test::runCli;

namespace {

const QStringList kBinaryData{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept"};
const QStringList kMultiparty{"--model", "logreg", "--mechanism", "multiparty", "--party-split", "0.2,0.5,0.3",
                              "--lambda", "0.01", "--epsilon", "2"};

QString describe(const CliRun& run) { return run.out.left(600) + " | " + run.err.left(400); }

}  // namespace

class TestMultipartyPaillierCli : public QObject {
  Q_OBJECT
 private slots:
  void trainThroughThePaillierProtocol() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString transcriptPath = dir.filePath("transcript.json");
    const auto run = runCli(QStringList{"train"} + kBinaryData + kMultiparty +
                            QStringList{"--protocol", "paillier", "--transcript", transcriptPath, "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = run.json();
    QCOMPARE(json["protocol"].toString(), QString("paillier"));
    QCOMPARE(json["transcript"].toString(), transcriptPath);
    const QJsonObject report = json["report"].toObject();
    QVERIFY2(report["statement"].toString().contains("Paillier protocol"), qPrintable(report["statement"].toString()));
    double smallest = 1e300;
    for (const auto& size : json["parties"].toArray()) smallest = std::min(smallest, size.toDouble());
    QCOMPARE(json["smallest_party"].toDouble(), smallest);  // the party of fraction 0.2
    QCOMPARE(json["parties"].toArray()[0].toDouble(), smallest);

    QFile file(transcriptPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject transcript = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(transcript["outcome"].toString(), QString("released"));
    QCOMPARE(transcript["key_bits"].toInt(), 2048);
    QCOMPARE(transcript["parties"].toInt(), 3);
    // Issue 30 bug 4: the transcript records the noise source (release by default) and the
    // grid the release was rounded to, as the TLS participants' transcripts do.
    QVERIFY2(transcript["noise_source"].toString().startsWith("release"), qPrintable(transcript["noise_source"].toString()));
    QVERIFY(transcript["private"].toBool());
    QVERIFY(transcript["release_granularity"].toDouble() > 0);
    QCOMPARE(transcript["release_granularity"].toDouble(), report["release_granularity"].toDouble());
    const QJsonArray messages = transcript["messages"].toArray();
    QVERIFY(messages.size() > 30);
    QStringList senders;
    for (const auto& m : messages) senders << m.toObject()["sender"].toString();
    for (const char* who : {"Charlie", "P1", "P2", "P3"}) QVERIFY2(senders.contains(who), who);
    // Written atomically: only the transcript is in the folder (no temporary left behind).
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"transcript.json"});

    // The text output, with two parties (one comparison) to keep the test short.
    const auto text = runCli(QStringList{"train"} + kBinaryData +
                             QStringList{"--model", "logreg", "--mechanism", "multiparty", "--party-split", "0.4,0.6",
                                         "--protocol", "paillier"});
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY2(text.out.contains("protocol        paillier"), qPrintable(text.out));
  }

  void anAbortedRunStillWritesItsTranscript() {
    // epsilon 1e-20 makes every party's noise overflow the fixed-point codec (2^60) in stage
    // 2: the protocol aborts after the setup and stage 1 were sent, and the transcript says so.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString transcriptPath = dir.filePath("transcript.json");
    const auto run = runCli(QStringList{"train"} + kBinaryData +
                            QStringList{"--model", "logreg", "--mechanism", "multiparty", "--party-split", "0.4,0.6",
                                        "--lambda", "0.01", "--epsilon", "1e-20", "--protocol", "paillier",
                                        "--transcript", transcriptPath});
    QVERIFY2(run.exitCode != 0, qPrintable(describe(run)));
    QVERIFY2(run.err.contains("aborted"), qPrintable(describe(run)));
    QFile file(transcriptPath);
    QVERIFY2(file.open(QIODevice::ReadOnly), "no transcript after the abort");
    const QJsonObject transcript = QJsonDocument::fromJson(file.readAll()).object();
    QVERIFY2(transcript["outcome"].toString().startsWith("aborted: "), qPrintable(transcript["outcome"].toString()));
    QVERIFY(!transcript["messages"].toArray().isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"transcript.json"});
  }

  void trustedCuratorStaysTheDefault() {
    const auto run = runCli(QStringList{"train"} + kBinaryData + kMultiparty + QStringList{"--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(run.json()["protocol"].toString(), QString("trusted-curator"));
    QVERIFY(run.json()["transcript"].isNull());
    QVERIFY(run.json()["report"].toObject()["statement"].toString().contains("trusted curator"));
  }

  void misuseIsAUsageError_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("unknown protocol") << kMultiparty + QStringList{"--protocol", "yao"};
    QTest::newRow("transcript with the trusted curator") << kMultiparty + QStringList{"--transcript", "t.json"};
    QTest::newRow("protocol with a training mechanism")
        << QStringList{"--model", "logreg", "--mechanism", "output", "--protocol", "paillier"};
    QTest::newRow("protocol with private prediction")
        << QStringList{"--model", "logreg", "--mechanism", "prediction", "--protocol", "paillier"};
  }
  void misuseIsAUsageError() {
    QFETCH(QStringList, args);
    const auto run = runCli(QStringList{"train"} + kBinaryData + args + QStringList{"--json"});
    QVERIFY2(run.exitCode == 2, qPrintable(describe(run)));
    QVERIFY(run.json().contains("error"));
  }
};

QTEST_GUILESS_MAIN(TestMultipartyPaillierCli)
#include "test_multiparty_paillier_cli.moc"
