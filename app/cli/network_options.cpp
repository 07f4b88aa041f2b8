#include "app/cli/network_options.h"

#include "core/util/atomic_file.h"

namespace dpstudio::cli {

void addNetworkOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"cert", "This participant's TLS certificate (PEM). Required: there is no plaintext mode.", "FILE"},
      {"key", "The certificate's private key (PEM, unencrypted).", "FILE"},
      {"ca", "The certificate(s) to trust (PEM): the class's CA, or the shared self-signed certificate. Every peer's "
             "certificate must be signed by it, in both directions (host names are not checked).", "FILE"},
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
