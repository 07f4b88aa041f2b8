// Paper 004's protocol with every participant a process of its own over TLS
// (`dpstudio-cli party` ×3 and `dpstudio-cli curator`, on loopback, ports chosen by the OS):
// the release equals the one-process (threads) mode's for the same seeds, to the
// fixed-point precision; what a forged Charlie sends (an oversized frame, a malformed
// message, a message of another session, a replayed one, a frame cut short) is refused; a
// party killed mid-protocol makes every other participant abort within the timeout, with a
// message naming it and no released model written; a certificate the peers do not trust is
// refused. The certificates are made at test time by `openssl` (installer/deps.sh installs it).

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <variant>

#include "core/bundle/bundle_reader.h"
#include "core/prediction/paillier/protocol_messages.h"
#include "core/prediction/paillier/tls/link_frames.h"
#include "core/prediction/paillier/tls/tls_credentials.h"
#include "tests/cli/cli_runner.h"

using dpstudio::test::runCli;

namespace {

const QStringList kData{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept"};
const QStringList kPrivacy{"--model", "logreg", "--lambda", "0.01", "--epsilon", "2", "--seed", "7"};
const QString kSplit = "0.2,0.5,0.3";
constexpr int kWaitMs = 55000;
constexpr std::uint64_t kSession = 0x5eed;  // the forged Charlie's session

// A self-signed certificate for localhost / 127.0.0.1 and its key, in `dir` as NAME.pem and
// NAME.key; the certificate is its own CA.
bool makeCertificate(const QString& dir, const QString& name, QString* error) {
  QProcess openssl;
  openssl.start("openssl", {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                            "-keyout", dir + "/" + name + ".key", "-out", dir + "/" + name + ".pem", "-days", "2",
                            "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"});
  if (!openssl.waitForFinished(20000) || openssl.exitCode() != 0) {
    *error = "openssl could not make a certificate (is the openssl package installed?): " +
             QString::fromUtf8(openssl.readAllStandardError()) + openssl.errorString();
    return false;
  }
  return true;
}

QStringList tls(const QString& dir, const QString& identity, const QString& trusted) {
  return {"--cert", dir + "/" + identity + ".pem", "--key", dir + "/" + identity + ".key", "--ca",
          dir + "/" + trusted + ".pem"};
}

struct Participant {
  std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
  QString out, err;
  void collect() {
    out += QString::fromUtf8(process->readAllStandardOutput());
    err += QString::fromUtf8(process->readAllStandardError());
  }
  QString describe() const { return out.left(800) + " | " + err.left(800); }
};

// Starts party J of K and returns its port (the first line it prints), or 0.
quint16 startParty(Participant& party, int j, int K, const QStringList& extra) {
  party.process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                       QStringList{"party", "--listen", "0", "--party", QString::number(j), "--of", QString::number(K)} +
                           extra);
  QElapsedTimer clock;
  clock.start();
  while (!party.process->canReadLine() && clock.elapsed() < 30000)
    if (!party.process->waitForReadyRead(1000) && party.process->state() == QProcess::NotRunning) break;
  const QString line = QString::fromUtf8(party.process->readLine()).trimmed();
  party.out += line + "\n";
  return static_cast<quint16>(line.toUInt());
}

bool finished(Participant& p, int ms) {
  const bool done = p.process->waitForFinished(ms);
  p.collect();
  return done;
}

QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

}  // namespace

class TestMultipartyPaillierTls : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

  // Three parties on the split the threads mode uses and Charlie; returns them started.
  std::vector<Participant> startSession(QStringList* addresses, int timeoutSeconds) {
    std::vector<Participant> parties(3);
    for (int j = 1; j <= 3; ++j) {
      const quint16 port =
          startParty(parties[static_cast<std::size_t>(j - 1)], j, 3,
                     kData + kPrivacy + tls(dir_.path(), "class", "class") +
                         QStringList{"--party-split", kSplit, "--timeout", QString::number(timeoutSeconds),
                                     "--transcript", path(QString("p%1.json").arg(j))});
      addresses->append(QString("127.0.0.1:%1").arg(port));
    }
    return parties;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QString error;
    QVERIFY2(makeCertificate(dir_.path(), "class", &error), qPrintable(error));
    QVERIFY2(makeCertificate(dir_.path(), "intruder", &error), qPrintable(error));
  }

  void releaseEqualsTheThreadsMode() {
    QElapsedTimer clock;
    clock.start();
    QStringList addresses;
    auto parties = startSession(&addresses, 60);
    for (const QString& address : addresses) QVERIFY2(!address.endsWith(":0"), qPrintable(parties[0].describe()));
    Participant charlie;
    charlie.process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                           QStringList{"curator", "--parties", addresses.join(','), "--out", path("release.json"),
                                       "--transcript", path("charlie.json"), "--timeout", "60", "--json"} +
                               tls(dir_.path(), "class", "class"));
    QVERIFY2(finished(charlie, kWaitMs), "the curator did not finish");
    for (auto& party : parties) QVERIFY2(finished(party, 10000), qPrintable(party.describe()));
    QVERIFY2(charlie.process->exitCode() == 0, qPrintable(charlie.describe()));
    for (auto& party : parties) QVERIFY2(party.process->exitCode() == 0, qPrintable(party.describe()));
    const double networkSeconds = static_cast<double>(clock.elapsed()) / 1000.0;

    // The same release in one process, with the same seeds.
    const auto threads = runCli(QStringList{"train"} + kData + kPrivacy +
                                QStringList{"--mechanism", "multiparty", "--party-split", kSplit, "--protocol",
                                            "paillier", "--out", path("threads.dpmodel"), "--json"});
    QVERIFY2(threads.exitCode == 0, qPrintable(threads.out.left(600) + threads.err.left(600)));
    auto bundle = dpstudio::bundle::readBundle(path("threads.dpmodel"));
    QVERIFY2(bundle, bundle ? "" : bundle.error().toString().c_str());
    const Eigen::VectorXd expected = std::get<dpstudio::bundle::BundleModel>(bundle.value().predictor).theta;
    const QJsonArray released = readJson(path("release.json"))["released"].toArray();
    QCOMPARE(released.size(), static_cast<qsizetype>(expected.size()));
    for (Eigen::Index i = 0; i < expected.size(); ++i)
      QVERIFY2(std::abs(released[i].toDouble() - expected[i]) <= 1e-9 * (1.0 + std::abs(expected[i])),
               qPrintable(QString("coordinate %1: %2 over TLS, %3 in one process")
                              .arg(i)
                              .arg(released[i].toDouble(), 0, 'g', 17)
                              .arg(expected[i], 0, 'g', 17)));

    // Each process wrote the transcript of its own messages.
    for (const char* name : {"charlie.json", "p1.json", "p2.json", "p3.json"}) {
      const QJsonObject transcript = readJson(path(name));
      QCOMPARE(transcript["outcome"].toString(), QString("released"));
      QVERIFY2(!transcript["messages"].toArray().isEmpty(), name);
    }
    const QString self = readJson(path("p2.json"))["messages"].toArray()[0].toObject()["sender"].toString();
    QCOMPARE(self, QString("P2"));
    qInfo("over TLS in %.1f s (4 processes), then the threads mode", networkSeconds);
  }

  void aKilledPartyAbortsEveryone() {
    for (const char* name : {"release.json", "p1.json", "p2.json", "p3.json", "charlie.json"}) QFile::remove(path(name));
    QStringList addresses;
    constexpr int kTimeout = 25;
    auto parties = startSession(&addresses, kTimeout);
    Participant charlie;
    charlie.process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                           QStringList{"curator", "--parties", addresses.join(','), "--out", path("release.json"),
                                       "--transcript", path("charlie.json"), "--timeout", QString::number(kTimeout)} +
                               tls(dir_.path(), "class", "class"));
    // P2 is killed once every connection is up: Charlie is making his key, the protocol runs.
    Participant& victim = parties[1];
    QElapsedTimer clock;
    clock.start();
    while (!victim.out.contains("joined the session") && clock.elapsed() < 30000) {
      victim.process->waitForReadyRead(200);
      victim.collect();
    }
    QVERIFY2(victim.out.contains("joined the session"), qPrintable(victim.describe()));
    victim.process->kill();
    clock.restart();
    QVERIFY(finished(charlie, (kTimeout + 5) * 1000));
    for (std::size_t j : {0u, 2u}) QVERIFY(finished(parties[j], (kTimeout + 5) * 1000));
    finished(victim, 5000);
    QVERIFY2(clock.elapsed() < kTimeout * 1000, "the others did not stop before the timeout");
    QVERIFY2(charlie.process->exitCode() != 0, qPrintable(charlie.describe()));
    QVERIFY2(charlie.err.contains("aborted") && charlie.err.contains("P2"), qPrintable(charlie.describe()));
    for (std::size_t j : {0u, 2u}) {
      QVERIFY2(parties[j].process->exitCode() != 0, qPrintable(parties[j].describe()));
      QVERIFY2(parties[j].err.contains("aborted"), qPrintable(parties[j].describe()));
    }
    // No release, and the survivors' transcripts say they aborted.
    QVERIFY(!QFile::exists(path("release.json")));
    for (const char* name : {"charlie.json", "p1.json", "p3.json"})
      QVERIFY2(readJson(path(name))["outcome"].toString().startsWith("aborted"), name);
    const QStringList left = QDir(dir_.path()).entryList(QDir::Files);
    for (const QString& file : left)
      QVERIFY2(file.endsWith(".pem") || file.endsWith(".key") || file.endsWith(".json") || file.endsWith(".dpmodel"),
               qPrintable("left behind: " + file));
  }

  // A forged Charlie (this test, with a trusted certificate) says hello properly, then sends
  // something a party must refuse: the party stops with an error naming what it refused.
  void aBadFrameIsRefused_data() {
    using namespace dpstudio;
    using namespace dpstudio::multiparty::paillier;
    QTest::addColumn<QByteArray>("bad");
    QTest::addColumn<QString>("message");
    auto frame = [](FrameType type, const Bytes& body) {
      const Bytes bytes = encodeFrame(type, body);
      return QByteArray(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()));
    };
    auto envelope = [](std::uint64_t session, MessageKind kind) {
      return encodeEnvelope(Envelope{session, kCurator, 1, kind, 0, Bytes{1, 2, 3}});
    };
    QTest::newRow("oversized") << QByteArray::fromHex("7fffffff04") << "over the limit of";
    Bytes garbage(40, 7);
    garbage[17] = garbage[18] = garbage[19] = 0;
    garbage[20] = 1;  // addressed to P1, so that it reaches the party's checks
    QTest::newRow("malformed") << frame(FrameType::Envelope, garbage) << "bad magic";
    QTest::newRow("another session") << frame(FrameType::Envelope, envelope(kSession + 1, MessageKind::CuratorPublicKey))
                                     << "it belongs to another session";
    // Charlie's key message twice: the party takes the first, and finds the copy where it
    // expects Charlie's next message (after making the parties' 2048-bit key, a few seconds).
    crypto::ByteWriter key;
    key.big((mpz_class(1) << 2047) + 1);  // odd, 2048 bits: what the party checks of a key
    const QByteArray keyMessage =
        frame(FrameType::Envelope, encodeEnvelope(Envelope{kSession, kCurator, 1, MessageKind::CuratorPublicKey, 0, key.take()}));
    QTest::newRow("replayed") << keyMessage + keyMessage << "replayed message (sequence 0";
    QTest::newRow("truncated") << frame(FrameType::Envelope, envelope(kSession, MessageKind::CuratorPublicKey)).left(20)
                               << "truncated message";
  }
  void aBadFrameIsRefused() {
    using namespace dpstudio::multiparty::paillier;
    QFETCH(QByteArray, bad);
    QFETCH(QString, message);
    Participant party;
    const quint16 port = startParty(party, 1, 1,
                                    kData + kPrivacy + tls(dir_.path(), "class", "class") +
                                        QStringList{"--timeout", "15"});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    auto configuration = loadTlsConfiguration({path("class.pem").toStdString(), path("class.key").toStdString(),
                                               path("class.pem").toStdString()});
    QVERIFY(configuration);
    QSslSocket charlie;
    charlie.setSslConfiguration(configuration.value());
    charlie.connectToHostEncrypted("127.0.0.1", port);
    QVERIFY2(charlie.waitForEncrypted(10000), qPrintable(charlie.errorString()));
    if (!bad.startsWith(QByteArray::fromHex("7fffffff"))) {
      const Bytes hello = encodeFrame(FrameType::CuratorHello,
                                      encodeCuratorHello({kSession, 1, 1, {"127.0.0.1:" + std::to_string(port)}}));
      charlie.write(reinterpret_cast<const char*>(hello.data()), static_cast<qint64>(hello.size()));
      QVERIFY(charlie.waitForReadyRead(10000));  // the party's hello: it joined
    }
    charlie.write(bad);
    charlie.flush();
    charlie.waitForBytesWritten(5000);
    if (message == "truncated message") {
      charlie.disconnectFromHost();
      if (charlie.state() != QAbstractSocket::UnconnectedState) charlie.waitForDisconnected(5000);
    }
    QVERIFY(finished(party, 20000));
    QCOMPARE(party.process->exitCode(), 1);
    QVERIFY2(party.err.contains("P1 refused") && party.err.contains(message), qPrintable(party.describe()));
  }

  void partiesThatDisagreeAreRefused() {
    // P2 was started with another epsilon: Charlie refuses to start, and tells both.
    std::vector<Participant> parties(2);
    QStringList addresses;
    for (int j = 1; j <= 2; ++j) {
      QStringList privacy = kPrivacy;
      if (j == 2) privacy[privacy.indexOf("--epsilon") + 1] = "1";
      const quint16 port = startParty(parties[static_cast<std::size_t>(j - 1)], j, 2,
                                      kData + privacy + tls(dir_.path(), "class", "class") +
                                          QStringList{"--timeout", "15"});
      addresses << QString("127.0.0.1:%1").arg(port);
    }
    const auto charlie = runCli(QStringList{"curator", "--parties", addresses.join(','), "--timeout", "15"} +
                                    tls(dir_.path(), "class", "class"),
                                30000);
    QCOMPARE(charlie.exitCode, 1);
    QVERIFY2(charlie.err.contains("the parties disagree on 'epsilon': P1 announced 2, P2 announced 1"),
             qPrintable(charlie.err));
    for (auto& party : parties) {
      QVERIFY(finished(party, 20000));
      QVERIFY2(party.process->exitCode() == 1 && party.err.contains("Charlie aborted"), qPrintable(party.describe()));
    }
  }

  void anUntrustedCertificateIsRefused() {
    // P1 presents a certificate Charlie's --ca did not sign: Charlie refuses it, and both stop.
    Participant party;
    const quint16 port = startParty(party, 1, 1,
                                    kData + kPrivacy + tls(dir_.path(), "intruder", "class") +
                                        QStringList{"--timeout", "15"});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    const auto charlie = runCli(QStringList{"curator", "--parties", QString("127.0.0.1:%1").arg(port),
                                            "--timeout", "15"} +
                                    tls(dir_.path(), "class", "class"),
                                30000);
    QVERIFY2(charlie.exitCode == 1, qPrintable(charlie.err));
    QVERIFY2(charlie.err.contains("refused the TLS certificate of P1"), qPrintable(charlie.err));
    QVERIFY(finished(party, 20000));
    QVERIFY2(party.process->exitCode() != 0, qPrintable(party.describe()));
  }
};

QTEST_GUILESS_MAIN(TestMultipartyPaillierTls)
#include "test_multiparty_paillier_tls.moc"
