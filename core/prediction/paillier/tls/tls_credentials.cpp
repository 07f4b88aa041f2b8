#include "core/prediction/paillier/tls/tls_credentials.h"

#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>

namespace dpstudio::multiparty::paillier {
namespace {

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

Result<QSslConfiguration> loadTlsConfiguration(const TlsFiles& files) {
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

}  // namespace dpstudio::multiparty::paillier
