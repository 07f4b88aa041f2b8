// Paper 004's protocol over TLS (dpstudio-cli party / curator): who may connect as whom.
// Every role has its own certificate, signed by the class's CA, whose subject names the role
// (CN dpstudio-curator, dpstudio-party-J). A peer presenting another role's certificate (in
// either direction: a party's or Charlie's hello, a party Charlie or a party dials), one from
// another CA, or one that is not the pinned one (--peer-fingerprint) is refused with a clear
// error and nothing released; a participant refuses to start with another role's
// certificate; a party listens on 127.0.0.1 unless --listen-address says otherwise. Only
// the refusals run here (no protocol run: a second or less each); the certificates are made
// at test time by `openssl` (tls_fixtures.h).

#include <QFile>
#include <QJsonArray>
#include <QSslCertificate>
#include <QSslServer>
#include <QTemporaryDir>
#include <QtTest>

#include "core/prediction/paillier/protocol_messages.h"
#include "tests/cli/cli_runner.h"
#include "tests/prediction/tls_fixtures.h"

using dpstudio::test::runCli;
using namespace tls_test;

class TestMultipartyPaillierTlsRoles : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;

  QString path(const QString& name) const { return dir_.filePath(name); }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QString error;
    QVERIFY2(makeCertificates(dir_.path(), &error), qPrintable(error));
  }

  // Issue 30, 5: any certificate of the class's CA was accepted as whatever role its hello
  // claimed (a curator could dial P1 as P_K and receive the parties' secret key and
  // permutation). A peer's certificate must now name the role it claims.
  void rolesAreBoundToCertificates_data() {
    QTest::addColumn<QString>("certificate");
    QTest::addColumn<bool>("asCurator");  // a curator's hello, else a peer hello claiming P3 = P_K
    QTest::addColumn<QString>("message");
    QTest::newRow("P2's certificate as P3") << role(2) << false
                                            << "as P3: its certificate is for 'dpstudio-party-2', not 'dpstudio-party-3'";
    QTest::newRow("the curator's certificate as P_K")
        << role(0) << false << "as P3: its certificate is for 'dpstudio-curator', not 'dpstudio-party-3'";
    QTest::newRow("P2's certificate as Charlie")
        << role(2) << true << "as Charlie: its certificate is for 'dpstudio-party-2', not 'dpstudio-curator'";
  }
  void rolesAreBoundToCertificates() {
    using namespace dpstudio::multiparty::paillier;
    QFETCH(QString, certificate);
    QFETCH(bool, asCurator);
    QFETCH(QString, message);
    Participant party;
    const QString transcript = path("refused-p1.json");
    QFile::remove(transcript);
    const quint16 port = startParty(party, 1, 3,
                                    kData + kModel + tls(dir_.path(), role(1)) +
                                        QStringList{"--timeout", QString::number(10 * kScale), "--transcript", transcript});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    QString error;
    auto peer = connectAs(dir_.path(), certificate, port, &error);
    QVERIFY2(peer, qPrintable(error));
    const std::string address = "127.0.0.1:" + std::to_string(port);
    if (asCurator)
      writeFrame(*peer, FrameType::CuratorHello, encodeCuratorHello({kSession, 3, 1, {address, address, address}}));
    else
      writeFrame(*peer, FrameType::PeerHello, encodePeerHello({kSession, 3}));
    QVERIFY(finished(party, 20000 * kScale));
    QCOMPARE(party.process->exitCode(), 1);
    QVERIFY2(party.err.contains("P1 refused the connection with 127.0.0.1:") && party.err.contains(message) &&
                 party.err.contains("nothing was released"),
             qPrintable(party.describe()));
    // P1 answered nothing but its abort: no party hello (its parameters) went to the impostor.
    peer->waitForReadyRead(2000);
    dpstudio::crypto::Bytes received;
    const QByteArray bytes = peer->readAll();
    received.assign(bytes.begin(), bytes.end());
    auto frames = takeFrames(received, kSetupFrameLimit);
    QVERIFY(frames);
    for (const Frame& frame : frames.value()) QVERIFY(frame.type == FrameType::Abort);
    QVERIFY(readJson(transcript)["outcome"].toString().startsWith("aborted"));
    QVERIFY(readJson(transcript)["messages"].toArray().isEmpty());
  }

  // Issue 30, 5, the other direction: Charlie checks the role of every party he dials.
  void charlieChecksTheRoleOfEveryPartyHeDials() {
    // P2 listens with its own certificate; Charlie is told that it is P1.
    Participant party;
    const quint16 port = startParty(party, 2, 2,
                                    kData + kModel + tls(dir_.path(), role(2)) +
                                        QStringList{"--timeout", QString::number(10 * kScale)});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    QFile::remove(path("impostor-release.json"));
    const QString address = QString("127.0.0.1:%1").arg(port);
    const auto charlie = runCli(QStringList{"curator", "--parties", address + "," + address, "--out",
                                            path("impostor-release.json"), "--timeout", QString::number(10 * kScale)} +
                                    tls(dir_.path(), role(0)),
                                30000 * kScale);
    QVERIFY2(charlie.exitCode == 1, qPrintable(charlie.err));
    QVERIFY2(charlie.err.contains("Charlie refused the connection with " + address +
                                  " as P1: its certificate is for 'dpstudio-party-2', not 'dpstudio-party-1'") &&
                 charlie.err.contains("nothing was released"),
             qPrintable(charlie.err));
    QVERIFY(!QFile::exists(path("impostor-release.json")));
    QVERIFY(finished(party, 20000 * kScale));
    QVERIFY2(party.process->exitCode() != 0, qPrintable(party.describe()));
  }

  // Issue 30, 5, between parties: P2 checks the role of P1, whom it dials at the address
  // Charlie's hello gives (here a forged Charlie points it at a listener of his own).
  void aPartyChecksTheRoleOfThePartiesItDials() {
    using namespace dpstudio::multiparty::paillier;
    Participant party;
    const quint16 port = startParty(party, 2, 2,
                                    kData + kModel + tls(dir_.path(), role(2)) +
                                        QStringList{"--timeout", QString::number(10 * kScale)});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    auto configuration = loadTlsConfiguration({path("class-dpstudio-curator.pem").toStdString(),
                                               path("class-dpstudio-curator.key").toStdString(),
                                               path("class.pem").toStdString(), {}},
                                              role(0).toStdString());
    QVERIFY(configuration);
    QSslServer impostor;  // Charlie's own listener, posing as P1
    impostor.setSslConfiguration(configuration.value());
    QVERIFY(impostor.listen(QHostAddress::LocalHost));
    QString error;
    auto charlie = connectAs(dir_.path(), role(0), port, &error);
    QVERIFY2(charlie, qPrintable(error));
    const std::string p1 = "127.0.0.1:" + std::to_string(impostor.serverPort());
    writeFrame(*charlie, FrameType::CuratorHello,
               encodeCuratorHello({kSession, 2, 2, {p1, "127.0.0.1:" + std::to_string(port)}}));
    // The event loop runs meanwhile, so that the impostor's side of the handshake proceeds.
    QTRY_VERIFY_WITH_TIMEOUT(party.process->state() == QProcess::NotRunning, 20000 * kScale);
    party.collect();
    QCOMPARE(party.process->exitCode(), 1);
    QVERIFY2(party.err.contains("P2 refused the connection with " + QString::fromStdString(p1) +
                                " as P1: its certificate is for 'dpstudio-curator', not 'dpstudio-party-1'"),
             qPrintable(party.describe()));
  }

  // A participant refuses to start with a certificate of another role (the old README's
  // one certificate for the whole class among them), naming the file.
  void aCertificateMustNameItsOwnRole() {
    const auto run = runCli(QStringList{"party", "--listen", "0", "--party", "1", "--of", "2"} + kData + kModel +
                            tls(dir_.path(), role(2)));
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("class-dpstudio-party-2.pem is the certificate of 'dpstudio-party-2', not of "
                              "'dpstudio-party-1'"),
             qPrintable(run.err));
    const auto curator = runCli(QStringList{"curator", "--parties", "127.0.0.1:1"} + tls(dir_.path(), role(1)));
    QCOMPARE(curator.exitCode, 2);
    QVERIFY2(curator.err.contains("is the certificate of 'dpstudio-party-1', not of 'dpstudio-curator'"),
             qPrintable(curator.err));
  }

  void aCertificateOfAnotherCaIsRefused_data() {
    QTest::addColumn<bool>("partyIsOther");  // else Charlie's certificate is the other CA's
    QTest::newRow("a party's") << true;
    QTest::newRow("Charlie's") << false;
  }
  void aCertificateOfAnotherCaIsRefused() {
    // The certificate names the right role, but another CA signed it: the peer refuses it,
    // both stop, and nothing is released.
    QFETCH(bool, partyIsOther);
    QFile::remove(path("other-release.json"));
    Participant party;
    const quint16 port =
        startParty(party, 1, 1,
                   kData + kModel + tls(dir_.path(), role(1), partyIsOther ? "other" : "class") +
                       QStringList{"--timeout", QString::number(10 * kScale)});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    const auto charlie = runCli(QStringList{"curator", "--parties", QString("127.0.0.1:%1").arg(port), "--out",
                                            path("other-release.json"), "--timeout", QString::number(10 * kScale)} +
                                    tls(dir_.path(), role(0), partyIsOther ? "class" : "other"),
                                30000 * kScale);
    QVERIFY2(charlie.exitCode == 1, qPrintable(charlie.err));
    QVERIFY(finished(party, 20000 * kScale));
    QVERIFY2(party.process->exitCode() != 0, qPrintable(party.describe()));
    if (partyIsOther)
      QVERIFY2(charlie.err.contains("Charlie refused the TLS certificate of P1 (not trusted by --ca)"),
               qPrintable(charlie.err));
    else
      QVERIFY2(party.err.contains("P1 refused the TLS certificate of the connection with 127.0.0.1:") &&
                   party.err.contains("(not trusted by --ca)"),
               qPrintable(party.describe()));
    QVERIFY(!QFile::exists(path("other-release.json")));
  }

  // --peer-fingerprint: a pinned role is accepted with that certificate only (the accepted
  // case is releaseEqualsTheThreadsMode's).
  void aPinnedRoleRefusesAnotherCertificate() {
    Participant party;
    const quint16 port = startParty(party, 1, 1,
                                    kData + kModel + tls(dir_.path(), role(1)) +
                                        QStringList{"--timeout", QString::number(10 * kScale)});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    const auto p2 = QSslCertificate::fromPath(path("class-dpstudio-party-2.pem"));
    QCOMPARE(p2.size(), 1);
    const QString wrong = QString::fromLatin1(p2.front().digest(QCryptographicHash::Sha256).toHex());
    const auto charlie = runCli(QStringList{"curator", "--parties", QString("127.0.0.1:%1").arg(port), "--timeout",
                                            QString::number(10 * kScale), "--peer-fingerprint",
                                            "dpstudio-party-1=" + wrong.toUpper()} +
                                    tls(dir_.path(), role(0)),
                                30000 * kScale);
    QVERIFY2(charlie.exitCode == 1, qPrintable(charlie.err));
    QVERIFY2(charlie.err.contains("not the one pinned by --peer-fingerprint (" + wrong + ")"), qPrintable(charlie.err));
    QVERIFY(finished(party, 20000 * kScale));
    // A malformed pin is a usage error.
    for (const QString& pin : {QString("dpstudio-party-1=abcd"), QString("party-1=") + wrong, QString(wrong)}) {
      const auto bad = runCli(QStringList{"curator", "--parties", "127.0.0.1:1", "--peer-fingerprint", pin} +
                              tls(dir_.path(), role(0)));
      QVERIFY2(bad.exitCode == 2 && bad.err.contains("--peer-fingerprint"), qPrintable(pin + ": " + bad.err));
    }
  }

  // Issue 30, 5: `--listen` bound every interface. A party now listens on 127.0.0.1 unless
  // --listen-address says otherwise. Read from the kernel's socket table (Linux).
  void aPartyListensOnLoopbackByDefault() {
    if (!QFile::exists("/proc/net/tcp")) QSKIP("needs Linux's /proc/net/tcp");
    Participant party;
    const quint16 port = startParty(party, 1, 1,
                                    kData + kModel + tls(dir_.path(), role(1)) +
                                        QStringList{"--timeout", QString::number(10 * kScale)});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    QStringList listening;  // the local addresses of the sockets listening on `port`
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
      QFile file(table);
      if (!file.open(QIODevice::ReadOnly)) continue;
      for (const QByteArray& line : file.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 4 || fields[3] != "0A") continue;  // 0A: LISTEN
        const QList<QByteArray> local = fields[1].split(':');
        if (local.size() == 2 && local[1].toUInt(nullptr, 16) == port) listening << QString::fromLatin1(local[0]);
      }
    }
    party.process->kill();
    finished(party, 5000);
    QVERIFY2(!listening.isEmpty(), "the party's port is not in the socket table");
    QCOMPARE(listening, QStringList{"0100007F"});  // 127.0.0.1 only
    // An address that is not an IP address is a usage error.
    const auto bad = runCli(QStringList{"party", "--listen", "0", "--party", "1", "--of", "1", "--listen-address",
                                        "every-interface"} +
                            kData + kModel + tls(dir_.path(), role(1)));
    QVERIFY2(bad.exitCode == 2 && bad.err.contains("--listen-address 'every-interface' is not an IP address"),
             qPrintable(bad.err));
  }
};

QTEST_GUILESS_MAIN(TestMultipartyPaillierTlsRoles)
#include "test_multiparty_paillier_tls_roles.moc"
