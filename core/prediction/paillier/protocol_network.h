#pragma once
// What the participants of paper 004's protocol talk through: they hand it envelopes and ask
// it for the next message on one (sender → receiver) channel. Two transports implement it:
// LoopbackNetwork (every participant in one process, the default) and TlsNetwork
// (core/prediction/paillier/tls/: one participant per process, over TCP with TLS). Only
// bytes cross either, and both check what arrives with checkArrivedEnvelope, so a message
// refused by one is refused by the other with the same words.

#include <cstdint>
#include <string>

#include "core/prediction/paillier/protocol_messages.h"

namespace dpstudio::multiparty::paillier {

class ProtocolNetwork {
 public:
  virtual ~ProtocolNetwork() = default;
  // Fills in the session and the channel's sequence number, records the message in the
  // transcript and delivers it (or queues it for delivery).
  virtual void send(Envelope envelope) = 0;
  // The next message on (sender → receiver), checked to be `kind` from this session with the
  // channel's next sequence number; its payload. Errors say who refused what and why.
  virtual Result<Bytes> receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind) = 0;
};

// The receiver's checks on one arrived message, shared by every transport: it decodes, is of
// `session`, names the channel's endpoints, carries the channel's next sequence number
// (`expectedSequence`; an older one is a replay) and is of `kind`. `who` opens every error
// ("P2 refused a message from Charlie (expected 'blinded share'): ").
Result<Envelope> checkArrivedEnvelope(const Bytes& bytes, std::uint64_t session, std::uint32_t sender,
                                      std::uint32_t receiver, MessageKind kind, std::uint32_t expectedSequence,
                                      const std::string& who);

// The opening of a refusal: "<receiver> refused a message from <sender> (expected '<kind>'): ".
std::string refusalPrefix(const std::string& receiverName, const std::string& senderName, MessageKind kind);

Error protocolError(const std::string& message);  // ErrorKind::Internal, field "protocol"

}  // namespace dpstudio::multiparty::paillier
