#pragma once
// The TLS identity of one participant process and whom it trusts, read from PEM files: its
// certificate and private key (--cert, --key) and the certificate authorities whose
// certificates it accepts from peers (--ca: the class's CA). Every connection verifies the
// peer's certificate against them, in both directions; a plaintext peer fails the handshake.
//
// Roles are bound to certificates: the certificate's subject common name (CN) names the one
// participant it may act as, "dpstudio-curator" or "dpstudio-party-J". A process refuses to
// start with a certificate of another role, and every connection checks the peer's role
// against the participant it dialled or the one its hello claims, so that a holder of any
// certificate from the class's CA can no longer act as another party (and, say, receive the
// parties' secret key as P_K). Host names are not checked (laptops are reached by IP address,
// which their certificates rarely name); a peer's certificate can be pinned instead
// (--peer-fingerprint ROLE=SHA256), which also stands when the CA signs for several classes.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/util/result.h"

class QSslCertificate;
class QSslConfiguration;

namespace dpstudio::multiparty::paillier {

struct TlsFiles {
  std::string certificate;  // PEM
  std::string privateKey;   // PEM, unencrypted (RSA or EC)
  std::string trusted;      // PEM: one or more CA certificates
  // Optional pins: role → SHA-256 of the DER certificate that role must present (64 lowercase
  // hex digits, normalizeFingerprint). Roles not listed are checked by --ca and their CN only.
  std::map<std::string, std::string> pinned;
};

// "dpstudio-curator" for Charlie (kCurator), "dpstudio-party-J" for P_J.
std::string participantRole(std::uint32_t participant);
// Whether `role` is one of the names above (J ≥ 1, no leading zeros).
bool isParticipantRole(const std::string& role);
// The role a certificate claims: its subject's common name when there is exactly one, else "".
std::string certificateRole(const QSslCertificate& certificate);
// SHA-256 of the certificate's DER encoding, 64 lowercase hex digits (what
// `openssl x509 -noout -fingerprint -sha256` prints, without the colons).
std::string certificateFingerprint(const QSslCertificate& certificate);
// "AB:CD:…" or "abcd…" (64 hex digits, colons optional) as 64 lowercase hex digits.
std::optional<std::string> normalizeFingerprint(const std::string& text);

// The configuration every socket of this process uses (TLS 1.2 or later, peer verified).
// `ownRole` is the participant this process is: its certificate must name that role. Errors
// name the file and what is wrong with it; also an error when Qt has no TLS backend.
Result<QSslConfiguration> loadTlsConfiguration(const TlsFiles& files, const std::string& ownRole);

// Whether a peer that presented `certificate` may act as `role`: the certificate names that
// role, and is the pinned one when the role is pinned. The error says what it names instead.
Status checkPeerRole(const QSslCertificate& certificate, const std::string& role, const TlsFiles& files);

}  // namespace dpstudio::multiparty::paillier
