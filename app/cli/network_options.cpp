#include "app/cli/network_options.h"

#include "core/util/atomic_file.h"

namespace dpstudio::cli {

void addNetworkOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"cert", "This participant's TLS certificate (PEM). Required: there is no plaintext mode.", "FILE"},
      {"key", "The certificate's private key (PEM, unencrypted).", "FILE"},
      {"ca", "The certificate(s) to trust (PEM): the class's CA. Every peer's certificate must be signed by it and "
             "name the peer's role as its subject CN (dpstudio-curator, dpstudio-party-J), checked on every "
             "connection in both directions; host names are not checked (see --peer-fingerprint).", "FILE"},
      {"peer-fingerprint", "Pin a peer's certificate: ROLE=SHA256, e.g. dpstudio-curator=AB:CD:.. (what `openssl x509 "
                           "-noout -fingerprint -sha256 -in FILE` prints); that role is then accepted only with exactly "
                           "that certificate. Repeat for several roles.", "ROLE=SHA256"},
      {"timeout", "Seconds any wait may last (a connection, a peer's message, the last flush); then this "
                  "participant aborts and tells the others (default 120).", "S"},
      {"transcript", "Write this process's own messages (receiver, stage, bytes, what they reveal) as JSON to FILE, "
                     "also when the protocol aborts.", "FILE"},
  });
}

Result<multiparty::paillier::NetworkRunOptions> networkOptions(const Command& command) {
  multiparty::paillier::NetworkRunOptions options;
  const QCommandLineParser& parser = command.parser();
  for (const char* name : {"cert", "key", "ca"})
    if (!parser.isSet(name) || parser.value(name).isEmpty())
      return Error{ErrorKind::Usage, std::string("--") + name + " is required (TLS only; see --help)", {}, 0, name};
  options.tls.certificate = parser.value("cert").toStdString();
  options.tls.privateKey = parser.value("key").toStdString();
  options.tls.trusted = parser.value("ca").toStdString();
  for (const QString& pin : parser.values("peer-fingerprint")) {
    const qsizetype equals = pin.indexOf('=');
    const std::string role = pin.left(equals).trimmed().toStdString();
    const auto fingerprint =
        equals > 0 ? multiparty::paillier::normalizeFingerprint(pin.mid(equals + 1).trimmed().toStdString()) : std::nullopt;
    if (equals <= 0 || !multiparty::paillier::isParticipantRole(role) || !fingerprint)
      return Error{ErrorKind::Usage,
                   "--peer-fingerprint '" + pin.toStdString() + "' is not ROLE=SHA256 (ROLE dpstudio-curator or "
                   "dpstudio-party-J, SHA256 64 hex digits, colons allowed)",
                   {}, 0, "peer-fingerprint"};
    if (!options.tls.pinned.emplace(role, *fingerprint).second)
      return Error{ErrorKind::Usage, "--peer-fingerprint pins " + role + " twice", {}, 0, "peer-fingerprint"};
  }
  auto timeout = command.number("timeout", options.timeoutSeconds);
  if (!timeout) return timeout.error();
  if (!(timeout.value() > 0 && timeout.value() <= 86400))
    return Error{ErrorKind::Usage, "must be in (0, 86400] seconds", {}, 0, "timeout"};
  options.timeoutSeconds = timeout.value();
  if (parser.isSet("transcript") && parser.value("transcript").isEmpty())
    return Error{ErrorKind::Usage, "--transcript needs a file name", {}, 0, "transcript"};
  return options;
}

Status writeOwnTranscript(const Command& command, const multiparty::paillier::ProtocolTranscript& transcript) {
  if (!command.parser().isSet("transcript")) return Ok{};
  return writeFileAtomically(QByteArray::fromStdString(transcript.toJson()), command.parser().value("transcript"),
                             "the protocol transcript");
}

}  // namespace dpstudio::cli
