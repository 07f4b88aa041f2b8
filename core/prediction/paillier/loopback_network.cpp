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
  const std::string who = transcript_.participantName(receiver) + " refused a message from " +
                          transcript_.participantName(sender) + " (expected '" + messageKindName(kind) + "'): ";
  auto fail = [&](const std::string& why) { return Error{ErrorKind::Internal, who + why, {}, 0, "protocol"}; };
  auto& queue = queues_[channel];
  if (queue.empty()) return fail("no message arrived (the sender disconnected or the message was lost)");
  const Bytes bytes = std::move(queue.front());
  queue.pop_front();
  auto envelope = decodeEnvelope(bytes);
  if (!envelope) return fail(envelope.error().message);
  const Envelope& e = envelope.value();
  if (e.session != session_) return fail("it belongs to another session");
  if (e.sender != sender || e.receiver != receiver) return fail("its sender or receiver field does not match the channel");
  const std::uint32_t expected = received_[channel];
  if (e.sequence < expected)
    return fail("replayed message (sequence " + std::to_string(e.sequence) + ", already received up to " +
                std::to_string(expected - 1) + ")");
  if (e.sequence > expected)
    return fail("out-of-order message (sequence " + std::to_string(e.sequence) + ", expected " +
                std::to_string(expected) + ")");
  if (e.kind != kind) return fail("it is a '" + messageKindName(e.kind) + "' message");
  ++received_[channel];
  return e.payload;
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
