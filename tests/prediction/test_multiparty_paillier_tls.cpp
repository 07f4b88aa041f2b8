// Paper 004's protocol with every participant a process of its own over TLS
// (`dpstudio-cli party` ×K and `dpstudio-cli curator`, on loopback, ports chosen by the OS):
//  - with `--noise experiment --seed S` the release equals the one-process (threads) mode's
//    for the same seeds, to the fixed-point precision, and two runs are identical: every
//    output and transcript marks it NOT private (also when only one party seeded its noise);
//  - by default (release noise) two runs release different vectors, rounded to the release
//    grid, which the outputs and Charlie's transcript record;
//  - what a forged Charlie sends (an oversized frame, a malformed message, a message of
//    another session, a replayed one, a frame cut short) is refused; a party killed
//    mid-protocol makes every other participant abort within the timeout, with a message
//    naming it and no released model written; parties that disagree are refused.
// Roles and certificates: test_multiparty_paillier_tls_roles.cpp. The certificates are made
// at test time by `openssl` (tls_fixtures.h; installer/deps.sh installs it).

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <memory>
#include <variant>

#include "core/bundle/bundle_reader.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/paillier/protocol_messages.h"
#include "core/privacy/release_granularity.h"
#include "tests/cli/cli_runner.h"
#include "tests/prediction/tls_fixtures.h"

using dpstudio::test::runCli;
using namespace tls_test;

namespace {

// A function, not a namespace-scope constant: kModel and kExperiment are inline variables of
// tls_fixtures.h, and a constant made of them here was initialised before them under clang's
// ASan build (an empty list: "choose --model"), which the standard's ordering does not rule out.
QStringList privacyArguments() { return kModel + kExperiment; }
const QString kSplit = "0.2,0.5,0.3";
const QString kTwoSplit = "0.4,0.6";
constexpr int kWaitMs = 55000 * kScale;

Eigen::VectorXd releasedVector(const QJsonObject& release) {
  const QJsonArray values = release["released"].toArray();
  Eigen::VectorXd out(values.size());
  for (qsizetype i = 0; i < values.size(); ++i) out[i] = values[i].toDouble();
  return out;
}

// What one run of K parties and Charlie left: Charlie's --out and stdout, and every
// transcript (index 0 Charlie's, j party j's). `failure` is empty when every process
// exited 0.
struct Session {
  QJsonObject release;
  QString charlieOut;
  std::vector<QJsonObject> transcripts;
  QString failure;
};
}  // namespace

class TestMultipartyPaillierTls : public QObject {
  Q_OBJECT
  QTemporaryDir dir_;
  std::vector<Session> releases_;  // two default (release-noise) runs, made once for the tests that read them

  QString path(const QString& name) const { return dir_.filePath(name); }

  // Three parties on the split the threads mode uses and Charlie; returns them started.
  std::vector<Participant> startSession(QStringList* addresses, int timeoutSeconds) {
    std::vector<Participant> parties(3);
    for (int j = 1; j <= 3; ++j) {
      const quint16 port =
          startParty(parties[static_cast<std::size_t>(j - 1)], j, 3,
                     kData + privacyArguments() + tls(dir_.path(), role(j)) +
                         QStringList{"--party-split", kSplit, "--timeout", QString::number(timeoutSeconds),
                                     "--transcript", path(QString("p%1.json").arg(j))});
      addresses->append(QString("127.0.0.1:%1").arg(port));
    }
    return parties;
  }

  // One run of K parties (kData, kModel, --party-split 0.4,0.6 for K = 2, and
  // partyArgs(j)) and Charlie (curatorArgs); files are named after `tag`.
  struct Run {
    QString tag;
    int parties = 0;
    QStringList partyArgs[4];  // index j: party j's own arguments
    QStringList curatorArgs;
  };

  // Runs these runs at the same time (a run keeps about one core busy: its participants
  // mostly wait for each other) and returns what each left.
  std::vector<Session> runSessions(const std::vector<Run>& runs) {
    struct Started {
      std::vector<Participant> parties;
      Participant charlie;
      QString failure;
    };
    std::vector<Started> started(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const Run& run = runs[r];
      Started& s = started[r];
      s.parties.resize(static_cast<std::size_t>(run.parties));
      QStringList addresses;
      for (int j = 1; j <= run.parties && s.failure.isEmpty(); ++j) {
        QStringList args = kData + kModel + tls(dir_.path(), role(j)) + run.partyArgs[j] +
                           QStringList{"--timeout", QString::number(60 * kScale), "--transcript",
                                       path(QString("%1-p%2.json").arg(run.tag).arg(j))};
        if (run.parties == 2) args += QStringList{"--party-split", kTwoSplit};
        Participant& party = s.parties[static_cast<std::size_t>(j - 1)];
        const quint16 port = startParty(party, j, run.parties, args);
        if (port == 0) s.failure = QString("P%1 did not start: ").arg(j) + party.describe();
        addresses << QString("127.0.0.1:%1").arg(port);
      }
      if (!s.failure.isEmpty()) continue;
      s.charlie.process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                               QStringList{"curator", "--parties", addresses.join(','), "--out",
                                           path(run.tag + "-release.json"), "--transcript",
                                           path(run.tag + "-charlie.json"), "--timeout", QString::number(60 * kScale)} +
                                   tls(dir_.path(), role(0)) + run.curatorArgs);
    }
    std::vector<Session> out(runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      Started& s = started[r];
      Session& session = out[r];
      session.failure = s.failure;
      if (s.failure.isEmpty() && !finished(s.charlie, kWaitMs))
        session.failure = "the curator did not finish: " + s.charlie.describe();
      for (auto& party : s.parties) {
        if (!s.failure.isEmpty()) party.process->kill();
        if (!finished(party, 10000 * kScale) || party.process->exitCode() != 0) session.failure += party.describe();
      }
      if (s.charlie.process->exitCode() != 0) session.failure += "Charlie: " + s.charlie.describe();
      const QString& tag = runs[r].tag;
      session.release = readJson(path(tag + "-release.json"));
      session.charlieOut = s.charlie.out;
      session.transcripts.push_back(readJson(path(tag + "-charlie.json")));
      for (int j = 1; j <= runs[r].parties; ++j)
        session.transcripts.push_back(readJson(path(QString("%1-p%2.json").arg(tag).arg(j))));
    }
    return out;
  }

  // Two runs of two parties with the default noise (no --noise, no --seed); Charlie prints
  // JSON in the first, text in the second.
  const std::vector<Session>& defaultRuns() {
    if (releases_.empty())
      releases_ = runSessions({{"default1", 2, {}, {"--json"}}, {"default2", 2, {}, {}}});
    return releases_;
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    QString error;
    QVERIFY2(makeCertificates(dir_.path(), &error), qPrintable(error));
  }

  void releaseEqualsTheThreadsMode() {
    QElapsedTimer clock;
    clock.start();
    QStringList addresses;
    auto parties = startSession(&addresses, 60 * kScale);
    for (const QString& address : addresses) QVERIFY2(!address.endsWith(":0"), qPrintable(parties[0].describe()));
    // A pinned certificate is accepted (Charlie pins P1's; test_multiparty_paillier_tls_roles
    // checks that another one is refused).
    const auto p1 = QSslCertificate::fromPath(path("class-dpstudio-party-1.pem"));
    QCOMPARE(p1.size(), 1);
    Participant charlie;
    charlie.process->start(
        QStringLiteral(DPSTUDIO_CLI_PATH),
        QStringList{"curator", "--parties", addresses.join(','), "--out", path("release.json"), "--transcript",
                    path("charlie.json"), "--timeout", QString::number(60 * kScale), "--json", "--peer-fingerprint",
                    "dpstudio-party-1=" + QString::fromLatin1(p1.front().digest(QCryptographicHash::Sha256).toHex(':'))} +
            tls(dir_.path(), role(0)));
    QVERIFY2(finished(charlie, kWaitMs), "the curator did not finish");
    for (auto& party : parties) QVERIFY2(finished(party, 10000 * kScale), qPrintable(party.describe()));
    QVERIFY2(charlie.process->exitCode() == 0, qPrintable(charlie.describe()));
    for (auto& party : parties) QVERIFY2(party.process->exitCode() == 0, qPrintable(party.describe()));
    const double networkSeconds = static_cast<double>(clock.elapsed()) / 1000.0;

    // The same release in one process, with the same seeds.
    const auto threads = runCli(QStringList{"train"} + kData + privacyArguments() +
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

  // Issue 30, 2: `party` drew every party's noise from seed 1 by default, so two runs
  // released the same "private" vector. Release noise is now the default.
  void defaultRunsReleaseFreshNoise() {
    const auto& runs = defaultRuns();
    for (const Session& run : runs) QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure.left(2000)));
    const Eigen::VectorXd first = releasedVector(runs[0].release), second = releasedVector(runs[1].release);
    QCOMPARE(first.size(), Eigen::Index(3));  // two blob features and the intercept
    QCOMPARE(second.size(), first.size());
    for (Eigen::Index i = 0; i < first.size(); ++i)
      QVERIFY2(first[i] != second[i], qPrintable(QString("coordinate %1 is %2 in both runs").arg(i).arg(first[i], 0, 'g', 17)));
    for (const Session& run : runs) {
      QCOMPARE(run.release["private"].toBool(), true);
      QVERIFY2(run.release["noise_source"].toString().startsWith("release"), qPrintable(run.release["noise_source"].toString()));
      QVERIFY(run.release["seeded_parties"].toArray().isEmpty());
      // Every transcript says where its noise came from; Charlie's that the release is private.
      QCOMPARE(run.transcripts[0]["private"].toBool(), true);
      for (const QJsonObject& transcript : run.transcripts) {
        QVERIFY2(transcript["noise_source"].toString().startsWith("release"),
                 qPrintable(transcript["noise_source"].toString()));
        QVERIFY(!transcript["noise_source"].toString().contains("NOT private"));
      }
    }
    QVERIFY2(runs[0].charlieOut.contains("\"private\": true"), qPrintable(runs[0].charlieOut.left(2000)));  // --json
    QVERIFY2(runs[1].charlieOut.contains("noise           release (every party drew its noise from its OS CSPRNG)"),
             qPrintable(runs[1].charlieOut));
  }

  // Issue 30, 2 and 3: `--noise experiment --seed S` replays the same release, which every
  // output and transcript marks NOT private.
  void anExperimentIsReplayableAndMarkedNotPrivate() {
    const std::vector<Session> runs = runSessions({{"experiment1", 2, {{}, kExperiment, kExperiment}, {"--json"}},
                                                   {"experiment2", 2, {{}, kExperiment, kExperiment}, {}}});
    for (const Session& run : runs) QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure.left(2000)));
    const Eigen::VectorXd first = releasedVector(runs[0].release), second = releasedVector(runs[1].release);
    QCOMPARE(first.size(), Eigen::Index(3));
    QVERIFY2(first == second, "two runs with the same seeds released different vectors");
    for (const Session& run : runs) {
      QCOMPARE(run.release["private"].toBool(true), false);
      QCOMPARE(run.release["release_granularity"].toDouble(-1), 0.0);  // not rounded: a replay
      QVERIFY(run.release["seeded_parties"].toArray() == (QJsonArray{"P1", "P2"}));
      QVERIFY2(run.release["noise_source"].toString().contains("NOT private") &&
                   run.release["note"].toString().startsWith("NOT private"),
               qPrintable(run.release["noise_source"].toString()));
      QCOMPARE(run.transcripts[0]["private"].toBool(true), false);
      QVERIFY(run.transcripts[0]["noise_source"].toString().contains("NOT private"));
      for (int j = 1; j <= 2; ++j) {
        const QString source = run.transcripts[static_cast<std::size_t>(j)]["noise_source"].toString();
        QVERIFY2(source.startsWith(QString("experiment (seed 7, P%1's stream): NOT private").arg(j)), qPrintable(source));
      }
    }
    QVERIFY2(runs[1].charlieOut.contains("noise           experiment (every party drew seeded noise): NOT private") &&
                 runs[1].charlieOut.contains("release grid    none"),
             qPrintable(runs[1].charlieOut));
  }

  // Issue 30, 3: nobody learns whose noise was selected, so one seeded party makes the
  // release NOT private, and Charlie says so, naming it.
  void oneSeededPartyMakesTheReleaseNotPrivate() {
    const Session run = runSessions({{"mixed", 2, {{}, kExperiment, {}}, {}}}).front();
    QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure.left(2000)));
    QCOMPARE(run.release["private"].toBool(true), false);
    QVERIFY(run.release["seeded_parties"].toArray() == QJsonArray{"P1"});
    QCOMPARE(run.release["release_granularity"].toDouble(-1), 0.0);
    QVERIFY2(run.charlieOut.contains("noise           experiment (P1 drew seeded noise, which may be the one "
                                     "selected): NOT private"),
             qPrintable(run.charlieOut));
    QCOMPARE(run.transcripts[0]["private"].toBool(true), false);
    QVERIFY(run.transcripts[1]["noise_source"].toString().contains("NOT private"));
    QVERIFY(run.transcripts[2]["noise_source"].toString().startsWith("release"));
  }

  // Issue 30, 4: Charlie published the decoded aggregate at full double precision. In
  // release mode it is now rounded with applyReleaseGranularity (as in one process), the
  // noise-scale term taken for the largest scale the public parameters allow (n_(1) = 1).
  void theReleaseIsRoundedToTheReleaseGrid() {
    using namespace dpstudio;
    const auto& runs = defaultRuns();
    for (const Session& run : runs) {
      QVERIFY2(run.failure.isEmpty(), qPrintable(run.failure.left(2000)));
      const Eigen::VectorXd released = releasedVector(run.release);
      const double grid = run.release["release_granularity"].toDouble();
      QVERIFY2(grid > 0, "no release grid recorded");
      int exponent = 0;
      QCOMPARE(std::frexp(grid, &exponent), 0.5);  // a power of two
      multiparty::MultipartyOptions options;
      options.lambda = 0.01;
      options.epsilon = 2;
      options.parties = 2;
      auto bound = multiparty::calibrateMultiparty(options, 1, released.size());
      QVERIFY(bound);
      const double expected =
          privacy::releaseGrid(multiparty::perCoordinateNoiseScale(bound.value()), released.cwiseAbs().maxCoeff()).value();
      QCOMPARE(grid, expected);
      QVERIFY(grid >= std::ldexp(privacy::floatSpacing(released.cwiseAbs().maxCoeff()), privacy::kReleaseGridUlpBits));
      for (Eigen::Index i = 0; i < released.size(); ++i)
        QVERIFY2(std::nearbyint(released[i] / grid) * grid == released[i],
                 qPrintable(QString("coordinate %1 = %2 is not a multiple of %3")
                                .arg(i)
                                .arg(released[i], 0, 'g', 17)
                                .arg(grid, 0, 'g', 17)));
      // Charlie's transcript records the grid and the noise source.
      QCOMPARE(run.transcripts[0]["release_granularity"].toDouble(), grid);
      QVERIFY(run.transcripts[0]["noise_source"].toString().startsWith("release"));
    }
    QVERIFY2(runs[1].charlieOut.contains("release grid    "), qPrintable(runs[1].charlieOut));
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
                               tls(dir_.path(), role(0)));
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
    // Nothing else left behind (no temporary of an atomic write): the certificates' files
    // (.csr, .srl, .ext from openssl), the transcripts and releases, the threads mode's bundle.
    const QStringList left = QDir(dir_.path()).entryList(QDir::Files);
    for (const QString& file : left)
      QVERIFY2(file.endsWith(".pem") || file.endsWith(".key") || file.endsWith(".csr") || file.endsWith(".srl") ||
                   file.endsWith(".ext") || file.endsWith(".json") || file.endsWith(".dpmodel"),
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
                                    kData + privacyArguments() + tls(dir_.path(), role(1)) +
                                        QStringList{"--timeout", "15"});
    QVERIFY2(port != 0, qPrintable(party.describe()));
    QString error;
    auto forged = connectAs(dir_.path(), role(0), port, &error);
    QVERIFY2(forged, qPrintable(error));
    QSslSocket& charlie = *forged;
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
      QStringList privacy = privacyArguments();
      if (j == 2) privacy[privacy.indexOf("--epsilon") + 1] = "1";
      const quint16 port = startParty(parties[static_cast<std::size_t>(j - 1)], j, 2,
                                      kData + privacy + tls(dir_.path(), role(j)) +
                                          QStringList{"--timeout", "15"});
      addresses << QString("127.0.0.1:%1").arg(port);
    }
    const auto charlie = runCli(QStringList{"curator", "--parties", addresses.join(','), "--timeout", "15"} +
                                    tls(dir_.path(), role(0)),
                                30000);
    QCOMPARE(charlie.exitCode, 1);
    QVERIFY2(charlie.err.contains("the parties disagree on 'epsilon': P1 announced 2, P2 announced 1"),
             qPrintable(charlie.err));
    // Every party stops with nothing released. Charlie's abort reaches at least one of them;
    // the other may first find its peer gone (P1 stopped already: "could not open a TLS
    // connection with P1"), a race of the two messages that ends the same way.
    int toldByCharlie = 0;
    for (auto& party : parties) {
      QVERIFY(finished(party, 20000));
      QVERIFY2(party.process->exitCode() == 1 && party.err.contains("aborted the Paillier protocol") &&
                   party.err.contains("nothing was released"),
               qPrintable(party.describe()));
      if (party.err.contains("Charlie aborted")) ++toldByCharlie;
    }
    QVERIFY(toldByCharlie >= 1);
  }
};

QTEST_GUILESS_MAIN(TestMultipartyPaillierTls)
#include "test_multiparty_paillier_tls.moc"
