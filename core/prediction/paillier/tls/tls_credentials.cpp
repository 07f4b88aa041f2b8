#include "core/prediction/paillier/tls/tls_credentials.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>

#include <cctype>

#include "core/prediction/paillier/protocol_messages.h"
#include "core/prediction/paillier/protocol_network.h"

namespace dpstudio::multiparty::paillier {
namespace {

constexpr const char* kCuratorRole = "dpstudio-curator";
constexpr const char* kPartyRolePrefix = "dpstudio-party-";

Error tlsError(const std::string& message, const char* field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

Result<QByteArray> readPem(const std::string& path, const char* field) {
  if (path.empty()) return tlsError(std::string("--") + field + " is required (a PEM file)", field);
  QFile file(QString::fromStdString(path));
  if (!file.open(QIODevice::ReadOnly))
    return tlsError("cannot read " + path + ": " + file.errorString().toStdString(), field);
  return file.readAll();
}

}  // namespace

std::string participantRole(std::uint32_t participant) {
  return participant == kCurator ? kCuratorRole : kPartyRolePrefix + std::to_string(participant);
}

bool isParticipantRole(const std::string& role) {
  if (role == kCuratorRole) return true;
  const std::string prefix = kPartyRolePrefix;
  if (role.size() <= prefix.size() || role.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string number = role.substr(prefix.size());
  if (number.size() > 9 || number[0] == '0') return false;
  for (char c : number)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string certificateRole(const QSslCertificate& certificate) {
  const QStringList names = certificate.subjectInfo(QSslCertificate::CommonName);
  return names.size() == 1 ? names.front().toStdString() : std::string();
}

std::string certificateFingerprint(const QSslCertificate& certificate) {
  return certificate.digest(QCryptographicHash::Sha256).toHex().toStdString();
}

std::optional<std::string> normalizeFingerprint(const std::string& text) {
  std::string hex;
  for (char c : text) {
    if (c == ':') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  if (hex.size() != 64) return std::nullopt;
  return hex;
}

Result<QSslConfiguration> loadTlsConfiguration(const TlsFiles& files, const std::string& ownRole) {
  if (!QSslSocket::supportsSsl())
    return Error{ErrorKind::Internal, "TLS is not available: Qt's OpenSSL backend could not be loaded (libssl3)", {}, 0, "tls"};
  auto certificatePem = readPem(files.certificate, "cert");
  if (!certificatePem) return certificatePem.error();
  auto keyPem = readPem(files.privateKey, "key");
  if (!keyPem) return keyPem.error();
  auto trustedPem = readPem(files.trusted, "ca");
  if (!trustedPem) return trustedPem.error();

  const QList<QSslCertificate> certificates = QSslCertificate::fromData(certificatePem.value(), QSsl::Pem);
  if (certificates.isEmpty()) return tlsError(files.certificate + " holds no PEM certificate", "cert");
  // Checked here too (the peers check it on every connection) so that a mix-up of the
  // handed-out files fails at once, naming the file, rather than at the first peer.
  if (const std::string role = certificateRole(certificates.front()); role != ownRole)
    return tlsError(files.certificate + " is the certificate of '" + (role.empty() ? "(no single CN)" : role) +
                        "', not of '" + ownRole + "': this participant needs a certificate whose subject is CN=" +
                        ownRole + ", signed by the class's CA",
                    "cert");
  QSslKey key(keyPem.value(), QSsl::Rsa, QSsl::Pem);
  if (key.isNull()) key = QSslKey(keyPem.value(), QSsl::Ec, QSsl::Pem);
  if (key.isNull())
    return tlsError(files.privateKey + " holds no unencrypted RSA or EC private key in PEM", "key");
  const QList<QSslCertificate> trusted = QSslCertificate::fromData(trustedPem.value(), QSsl::Pem);
  if (trusted.isEmpty()) return tlsError(files.trusted + " holds no PEM certificate", "ca");

  QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
  configuration.setLocalCertificate(certificates.front());
  configuration.setLocalCertificateChain(certificates);
  configuration.setPrivateKey(key);
  // Only the class's CA: never the system's (a public CA would vouch for anyone's laptop).
  configuration.setCaCertificates(trusted);
  configuration.setPeerVerifyMode(QSslSocket::VerifyPeer);
  configuration.setProtocol(QSsl::TlsV1_2OrLater);
  return configuration;
}

Status checkPeerRole(const QSslCertificate& certificate, const std::string& role, const TlsFiles& files) {
  const std::string presented = certificateRole(certificate);
  if (presented != role)
    return protocolError("its certificate is for '" + (presented.empty() ? "(no single CN)" : presented) +
                         "', not '" + role + "' (each role has its own certificate)");
  if (const auto pin = files.pinned.find(role); pin != files.pinned.end() && certificateFingerprint(certificate) != pin->second)
    return protocolError("its certificate for '" + role + "' has SHA-256 fingerprint " +
                         certificateFingerprint(certificate) + ", not the one pinned by --peer-fingerprint (" +
                         pin->second + ")");
  return Ok{};
}

}  // namespace dpstudio::multiparty::paillier
