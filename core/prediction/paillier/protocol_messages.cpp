#include "core/prediction/paillier/protocol_messages.h"

namespace dpstudio::multiparty::paillier {
namespace {

constexpr unsigned char kMagic[4] = {'D', 'P', 'A', 'G'};

Error malformed(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "message"}; }

}  // namespace

std::string messageKindName(MessageKind kind) {
  switch (kind) {
    case MessageKind::CuratorPublicKey: return "curator public key";
    case MessageKind::PartiesKeyPair: return "parties' key pair";
    case MessageKind::PartiesPublicKey: return "parties' public key";
    case MessageKind::Permutation: return "permutation pi1";
    case MessageKind::SizeShare: return "size share";
    case MessageKind::PositionShares: return "position shares";
    case MessageKind::BlindedShare: return "blinded share";
    case MessageKind::BlindedShareBroadcast: return "blinded share broadcast";
    case MessageKind::ComparisonRequest: return "comparison request";
    case MessageKind::ComparisonReply: return "comparison reply";
    case MessageKind::SelectionVector: return "selection vector";
    case MessageKind::NoiseContribution: return "noise contribution";
    case MessageKind::BlindedNoise: return "blinded noise";
    case MessageKind::Reshare: return "reshare";
    case MessageKind::PublishedShare: return "published share";
  }
  return "unknown";
}

std::string messageStage(MessageKind kind) {
  switch (kind) {
    case MessageKind::CuratorPublicKey:
    case MessageKind::PartiesKeyPair:
    case MessageKind::PartiesPublicKey:
    case MessageKind::Permutation: return "setup";
    case MessageKind::SizeShare:
    case MessageKind::PositionShares:
    case MessageKind::BlindedShare:
    case MessageKind::BlindedShareBroadcast: return "stage 1: blind and permute the sizes";
    case MessageKind::ComparisonRequest:
    case MessageKind::ComparisonReply: return "stage 1: secure comparisons";
    case MessageKind::SelectionVector:
    case MessageKind::NoiseContribution: return "stage 2: oblivious noise selection";
    case MessageKind::BlindedNoise:
    case MessageKind::Reshare: return "stage 3: additive shares of K*w_s";
    case MessageKind::PublishedShare: return "publication";
  }
  return "unknown";
}

std::string messageReveals(MessageKind kind) {
  switch (kind) {
    case MessageKind::CuratorPublicKey: return "Charlie's public key pk' (public)";
    case MessageKind::PartiesKeyPair:
      return "the parties' key pair (pk, sk) of xi: every party can decrypt xi; Charlie never receives sk";
    case MessageKind::PartiesPublicKey: return "the parties' public key pk (public)";
    case MessageKind::Permutation: return "the parties' permutation pi1 (parties only; Charlie never sees it)";
    case MessageKind::SizeShare:
      return "a_j, a uniform 96-bit additive share of n_j (alone it says nothing about n_j), and zeta(b_j), the other "
             "share encrypted under Charlie's key (the receiving party cannot decrypt it)";
    case MessageKind::PositionShares:
      return "xi(a'_i), which Charlie cannot decrypt, and zeta(b'_i) re-randomized: Charlie learns b'_i = n - a, a "
             "random share, at a position permuted by pi1, which he does not know";
    case MessageKind::BlindedShare:
      return "xi(a~_k) = xi(a' + r) permuted by pi2: P_k learns a~_k, hidden by Charlie's 136-bit r (statistical "
             "distance <= 2^-40)";
    case MessageKind::BlindedShareBroadcast:
      return "a~_k, as above: statistically hidden by Charlie's r; the parties know neither r nor pi2";
    case MessageKind::ComparisonRequest:
      return "Paillier encryptions under pk' of the bits of Charlie's side of one comparison: P_k cannot decrypt them";
    case MessageKind::ComparisonReply:
      return "DGK values blinded by random units and shuffled, and P_k's coin delta_A: Charlie learns only whether "
             "n <= n' for two slots permuted by pi2(pi1), whose owners he does not know";
    case MessageKind::SelectionVector:
      return "zeta(pi2^-1(u)), the encrypted indicator of the smallest slot: the parties cannot decrypt it";
    case MessageKind::NoiseContribution:
      return "psi_j = zeta(v_j * eta_j), encrypted under Charlie's key and re-randomized: P1 cannot decrypt it";
    case MessageKind::BlindedNoise:
      return "zeta(eta + s): Charlie learns eta + s mod n', uniformly random because P1's s is";
    case MessageKind::Reshare:
      return "a uniformly random share mod n' of the sender's stage-3 value: alone it reveals nothing";
    case MessageKind::PublishedShare:
      return "the sender's final additive share of K*w_s: uniformly random alone; all K+1 shares sum to K*w_s, the "
             "differentially private release";
  }
  return "unknown";
}

Bytes encodeEnvelope(const Envelope& envelope) {
  crypto::ByteWriter writer;
  for (unsigned char c : kMagic) writer.u8(c);
  writer.u8(kEnvelopeVersion);
  writer.u64(envelope.session);
  writer.u32(envelope.sender);
  writer.u32(envelope.receiver);
  writer.u8(static_cast<std::uint8_t>(envelope.kind));
  writer.u32(envelope.sequence);
  writer.u32(static_cast<std::uint32_t>(envelope.payload.size()));
  Bytes out = writer.take();
  out.insert(out.end(), envelope.payload.begin(), envelope.payload.end());
  return out;
}

Result<Envelope> decodeEnvelope(const Bytes& bytes) {
  crypto::ByteReader reader(bytes);
  for (unsigned char expected : kMagic) {
    auto c = reader.u8("magic");
    if (!c) return c.error();
    if (c.value() != expected) return malformed("malformed message: not a dpstudio aggregation message (bad magic)");
  }
  auto version = reader.u8("version");
  if (!version) return version.error();
  if (version.value() != kEnvelopeVersion)
    return malformed("malformed message: envelope version " + std::to_string(version.value()) + ", expected " +
                     std::to_string(kEnvelopeVersion));
  Envelope out;
  auto session = reader.u64("session");
  auto sender = session ? reader.u32("sender") : Result<std::uint32_t>(session.error());
  auto receiver = sender ? reader.u32("receiver") : Result<std::uint32_t>(sender.error());
  auto kind = receiver ? reader.u8("kind") : Result<std::uint8_t>(receiver.error());
  auto sequence = kind ? reader.u32("sequence") : Result<std::uint32_t>(kind.error());
  auto length = sequence ? reader.u32("payload length") : Result<std::uint32_t>(sequence.error());
  if (!length) return length.error();
  if (kind.value() < static_cast<std::uint8_t>(MessageKind::CuratorPublicKey) ||
      kind.value() > static_cast<std::uint8_t>(MessageKind::PublishedShare))
    return malformed("malformed message: unknown message kind " + std::to_string(kind.value()));
  if (reader.remaining() != length.value())
    return malformed(reader.remaining() < length.value()
                         ? "truncated message: the payload has " + std::to_string(reader.remaining()) + " of its " +
                               std::to_string(length.value()) + " bytes"
                         : "malformed message: " + std::to_string(reader.remaining() - length.value()) +
                               " bytes after the payload");
  out.session = session.value();
  out.sender = sender.value();
  out.receiver = receiver.value();
  out.kind = static_cast<MessageKind>(kind.value());
  out.sequence = sequence.value();
  out.payload.assign(bytes.end() - static_cast<std::ptrdiff_t>(length.value()), bytes.end());
  return out;
}

}  // namespace dpstudio::multiparty::paillier
