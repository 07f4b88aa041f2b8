#include "core/prediction/paillier/protocol_network.h"

namespace dpstudio::multiparty::paillier {

Error protocolError(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "protocol"}; }

std::string refusalPrefix(const std::string& receiverName, const std::string& senderName, MessageKind kind) {
  return receiverName + " refused a message from " + senderName + " (expected '" + messageKindName(kind) + "'): ";
}

Result<Envelope> checkArrivedEnvelope(const Bytes& bytes, std::uint64_t session, std::uint32_t sender,
                                      std::uint32_t receiver, MessageKind kind, std::uint32_t expectedSequence,
                                      const std::string& who) {
  auto fail = [&](const std::string& why) { return protocolError(who + why); };
  auto envelope = decodeEnvelope(bytes);
  if (!envelope) return fail(envelope.error().message);
  const Envelope& e = envelope.value();
  if (e.session != session) return fail("it belongs to another session");
  if (e.sender != sender || e.receiver != receiver) return fail("its sender or receiver field does not match the channel");
  if (e.sequence < expectedSequence)
    return fail("replayed message (sequence " + std::to_string(e.sequence) + ", already received up to " +
                std::to_string(expectedSequence - 1) + ")");
  if (e.sequence > expectedSequence)
    return fail("out-of-order message (sequence " + std::to_string(e.sequence) + ", expected " +
                std::to_string(expectedSequence) + ")");
  if (e.kind != kind) return fail("it is a '" + messageKindName(e.kind) + "' message");
  return envelope;
}

}  // namespace dpstudio::multiparty::paillier
