#pragma once
// What the tests of paper 004's protocol over TLS share (test_multiparty_paillier_tls*.cpp):
// the class's CA and per-role certificates made with the `openssl` command line as docs/cli.md's
// teacher instructions make them, party processes started on loopback, and a forged peer
// (a TLS client of the test's own) that says whatever hello or frame a test writes.

#include <QFile>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QStringList>

#include <memory>

#include "core/prediction/paillier/tls/link_frames.h"
#include "core/prediction/paillier/tls/tls_credentials.h"

namespace tls_test {

inline const QStringList kData{"--train", "builtin:blobs:classes=2,per_class=100", "--norm-bound", "10", "--intercept"};
inline const QStringList kModel{"--model", "logreg", "--lambda", "0.01", "--epsilon", "2"};
// Seeded noise, for the runs whose exact values are compared: a replay, NOT private.
inline const QStringList kExperiment{"--noise", "experiment", "--seed", "7"};
inline constexpr int kScale = DPSTUDIO_TEST_TIMEOUT_SCALE;  // ×4 under the sanitizers
inline constexpr std::uint64_t kSession = 0x5eed;  // the forged Charlie's session

inline QString role(int participant) {
  return participant == 0 ? QString("dpstudio-curator") : QString("dpstudio-party-%1").arg(participant);
}

inline bool openssl(const QStringList& args, QString* error) {
  QProcess process;
  process.start("openssl", args);
  if (!process.waitForFinished(20000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
    *error = "openssl " + args.first() + " failed (is the openssl package installed?): " +
             QString::fromUtf8(process.readAllStandardError()) + process.errorString();
    return false;
  }
  return true;
}

// A certificate authority in `dir`: CA.pem (self-signed, CN CA) and CA.key.
inline bool makeAuthority(const QString& dir, const QString& ca, QString* error) {
  return openssl({"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                  "-keyout", dir + "/" + ca + ".key", "-out", dir + "/" + ca + ".pem", "-subj", "/CN=" + ca},
                 error);
}

// ROLE's certificate signed by CA, as docs/cli.md's teacher instructions make it:
// CA-ROLE.pem and CA-ROLE.key, subject CN=ROLE, not a CA itself.
inline bool makeRoleCertificate(const QString& dir, const QString& ca, const QString& role, QString* error) {
  const QString base = dir + "/" + ca + "-" + role;
  const QString extensions = dir + "/role.ext";
  QFile ext(extensions);
  if (!ext.open(QIODevice::WriteOnly) ||
      ext.write("basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth,clientAuth\n") < 0) {
    *error = "cannot write " + extensions;
    return false;
  }
  ext.close();
  return openssl({"req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                  base + ".key", "-out", base + ".csr", "-subj", "/CN=" + role},
                 error) &&
         openssl({"x509", "-req", "-in", base + ".csr", "-CA", dir + "/" + ca + ".pem", "-CAkey", dir + "/" + ca + ".key",
                  "-CAcreateserial", "-days", "2", "-extfile", extensions, "-out", base + ".pem"},
                 error);
}

// --cert and --key of ROLE's certificate signed by `ca`, and --ca `trusted`.
inline QStringList tls(const QString& dir, const QString& role, const QString& ca = "class",
                const QString& trusted = "class") {
  return {"--cert", dir + "/" + ca + "-" + role + ".pem", "--key", dir + "/" + ca + "-" + role + ".key", "--ca",
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
inline quint16 startParty(Participant& party, int j, int K, const QStringList& extra) {
  party.process->start(QStringLiteral(DPSTUDIO_CLI_PATH),
                       QStringList{"party", "--listen", "0", "--party", QString::number(j), "--of", QString::number(K)} +
                           extra);
  QElapsedTimer clock;
  clock.start();
  while (!party.process->canReadLine() && clock.elapsed() < 30000 * kScale)
    if (!party.process->waitForReadyRead(1000) && party.process->state() == QProcess::NotRunning) break;
  const QString line = QString::fromUtf8(party.process->readLine()).trimmed();
  party.out += line + "\n";
  return static_cast<quint16>(line.toUInt());
}

inline bool finished(Participant& p, int ms) {
  const bool done = p.process->waitForFinished(ms);
  p.collect();
  return done;
}

inline QJsonObject readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(file.readAll()).object();
}

// The class's CA ("class") with a certificate per role (Charlie and P1..P3), and another CA
// ("other": another class's, or an intruder's) whose certificates claim Charlie's and P1's
// roles.
inline bool makeCertificates(const QString& dir, QString* error) {
  for (const QString ca : {"class", "other"}) {
    if (!makeAuthority(dir, ca, error)) return false;
    for (int participant = 0; participant <= (ca == "class" ? 3 : 1); ++participant)
      if (!makeRoleCertificate(dir, ca, role(participant), error)) return false;
  }
  return true;
}

// A TLS connection from the test to a party at 127.0.0.1:port, with WHO's certificate of
// the class; nullptr (and `error`) when the handshake fails. A forged peer: it says whatever
// hello the test writes.
inline std::unique_ptr<QSslSocket> connectAs(const QString& dir, const QString& who, quint16 port, QString* error) {
  auto configuration = dpstudio::multiparty::paillier::loadTlsConfiguration(
      {(dir + "/class-" + who + ".pem").toStdString(), (dir + "/class-" + who + ".key").toStdString(),
       (dir + "/class.pem").toStdString(), {}},
      who.toStdString());
  if (!configuration) {
    *error = QString::fromStdString(configuration.error().message);
    return nullptr;
  }
  auto socket = std::make_unique<QSslSocket>();
  socket->setSslConfiguration(configuration.value());
  // Like the product, this client does not check host names (the certificates name none).
  QSslSocket* raw = socket.get();
  QObject::connect(raw, &QSslSocket::sslErrors, raw, [raw](const QList<QSslError>& errors) {
    for (const QSslError& e : errors)
      if (e.error() != QSslError::HostNameMismatch) return;
    raw->ignoreSslErrors(errors);
  });
  socket->connectToHostEncrypted("127.0.0.1", port);
  if (!socket->waitForEncrypted(10000 * kScale)) {
    *error = socket->errorString();
    return nullptr;
  }
  return socket;
}

inline void writeFrame(QSslSocket& socket, dpstudio::multiparty::paillier::FrameType type,
                       const dpstudio::crypto::Bytes& body) {
  const auto bytes = dpstudio::multiparty::paillier::encodeFrame(type, body);
  socket.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
  socket.flush();
  socket.waitForBytesWritten(5000);
}

}  // namespace tls_test
