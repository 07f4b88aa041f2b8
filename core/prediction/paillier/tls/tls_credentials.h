#pragma once
// The TLS identity of one participant process and whom it trusts, read from PEM files: its
// certificate and private key (--cert, --key) and the certificate authorities whose
// certificates it accepts from peers (--ca; a self-signed certificate can be its own CA).
// Every connection verifies the peer's certificate against them, in both directions; a
// plaintext peer fails the handshake.

#include <string>

#include "core/util/result.h"

class QSslConfiguration;

namespace dpstudio::multiparty::paillier {

struct TlsFiles {
  std::string certificate;  // PEM
  std::string privateKey;   // PEM, unencrypted (RSA or EC)
  std::string trusted;      // PEM: one or more CA certificates
};

// The configuration every socket of this process uses (TLS 1.2 or later, peer verified).
// Errors name the file and what is wrong with it; also an error when Qt has no TLS backend.
Result<QSslConfiguration> loadTlsConfiguration(const TlsFiles& files);

}  // namespace dpstudio::multiparty::paillier
