#pragma once
// The in-process transport of the protocol: one FIFO of byte strings per (sender → receiver)
// channel, like one connection each. Participants hand it envelopes; it encodes them, records
// them in the transcript, and delivers the bytes; receivers get bytes back and check them
// (decodeEnvelope, then session, endpoints, kind and sequence). A socket transport can
// replace it: nothing but bytes crosses it.
//
// A test can tamper with the bytes in flight (truncate, corrupt, duplicate, drop).
// Not thread-safe: the coordinator drives the participants one step at a time.

#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "core/prediction/paillier/protocol_transcript.h"

namespace dpstudio::multiparty::paillier {

// Called on every message sent: returns the byte strings actually delivered (the sent bytes
// unchanged when not tampering; none to drop it; two to replay it).
using Tamper = std::function<std::vector<Bytes>(const Envelope& sent, Bytes bytes)>;

class LoopbackNetwork {
 public:
  LoopbackNetwork(std::uint64_t session, ProtocolTranscript& transcript, Tamper tamper = {});

  void send(Envelope envelope);  // fills in the session and the channel's sequence number
  // The next message on (sender → receiver), checked to be `kind` from this session with the
  // channel's next sequence number; its payload. Errors say who refused what and why.
  Result<Bytes> receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind);
  // Error if a message is still queued (e.g. a replayed copy nobody asked for).
  Status checkDrained() const;

 private:
  using Channel = std::pair<std::uint32_t, std::uint32_t>;
  std::uint64_t session_;
  ProtocolTranscript& transcript_;
  Tamper tamper_;
  std::map<Channel, std::deque<Bytes>> queues_;
  std::map<Channel, std::uint32_t> sent_, received_;
};

}  // namespace dpstudio::multiparty::paillier
