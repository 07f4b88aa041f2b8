#include "core/prediction/paillier/loopback_network.h"

namespace dpstudio::multiparty::paillier {

LoopbackNetwork::LoopbackNetwork(std::uint64_t session, ProtocolTranscript& transcript, Tamper tamper)
    : session_(session), transcript_(transcript), tamper_(std::move(tamper)) {}

void LoopbackNetwork::send(Envelope envelope) {
  const Channel channel{envelope.sender, envelope.receiver};
  envelope.session = session_;
  envelope.sequence = sent_[channel]++;
  Bytes bytes = encodeEnvelope(envelope);
  transcript_.record(envelope, bytes.size());
  std::vector<Bytes> deliveries;
  if (tamper_)
    deliveries = tamper_(envelope, std::move(bytes));
  else
    deliveries.push_back(std::move(bytes));
  for (Bytes& delivered : deliveries) queues_[channel].push_back(std::move(delivered));
}

Result<Bytes> LoopbackNetwork::receive(std::uint32_t sender, std::uint32_t receiver, MessageKind kind) {
  const Channel channel{sender, receiver};
  const std::string who =
      refusalPrefix(transcript_.participantName(receiver), transcript_.participantName(sender), kind);
  auto& queue = queues_[channel];
  if (queue.empty()) return protocolError(who + "no message arrived (the sender disconnected or the message was lost)");
  const Bytes bytes = std::move(queue.front());
  queue.pop_front();
  auto envelope = checkArrivedEnvelope(bytes, session_, sender, receiver, kind, received_[channel], who);
  if (!envelope) return envelope.error();
  ++received_[channel];
  return std::move(envelope.value().payload);
}

Status LoopbackNetwork::checkDrained() const {
  for (const auto& [channel, queue] : queues_)
    if (!queue.empty())
      return Error{ErrorKind::Internal,
                   transcript_.participantName(channel.second) + " received an unexpected extra message from " +
                       transcript_.participantName(channel.first) + " (a replay?)",
                   {}, 0, "protocol"};
  return Ok{};
}

}  // namespace dpstudio::multiparty::paillier
