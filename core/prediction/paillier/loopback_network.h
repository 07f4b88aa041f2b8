#pragma once
// The in-process transport of the protocol (the default): one FIFO of byte strings per
// (sender → receiver) channel, like one connection each. Participants hand it envelopes; it
// encodes them, records them in the transcript, and delivers the bytes; receivers get bytes
// back and check them (checkArrivedEnvelope). The socket transport (tls/tls_network.h)
// replaces it when each participant is a process of its own: nothing but bytes crosses it.
//
// A test can tamper with the bytes in flight (truncate, corrupt, duplicate, drop).
// Not thread-safe: the coordinator drives the participants one step at a time.

#include <deque>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "core/prediction/paillier/protocol_network.h"
#include "core/prediction/paillier/protocol_transcript.h"

namespace dpstudio::multiparty::paillier {

// Called on every message sent: returns the byte strings actually delivered (the sent bytes
// unchanged when not tampering; none to drop it; two to replay it).
using Tamper = std::function<std::vector<Bytes>(const Envelope& sent, Bytes bytes)>;

class LoopbackNetwork final : public ProtocolNetwork {
 public:
  LoopbackNetwork(std::uint64_t session, ProtocolTranscript& transcript, Tamper tamper = {});

  void send(Envelope envelope) override;
  Result<Bytes> receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind) override;
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
