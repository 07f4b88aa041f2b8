#pragma once
// The messages of paper 004's protocol (§3.2) as bytes, so that the in-process loopback
// (loopback_network.h) and a later socket transport carry the same thing.
//
// Envelope, big-endian:  "DPAG" | version u8 = 1 | session u64 | sender u32 | receiver u32 |
//                        kind u8 | sequence u32 | payload length u32 | payload
// `sequence` counts the messages on one (sender → receiver) channel from 0: a receiver
// refuses a replayed (old) or skipped sequence number. The session id is drawn fresh for
// each run, so a message of another run is refused too.
//
// Participants: 0 is the curator Charlie, 1..K the parties P1..PK, K+1 the public board the
// final shares are published to.

#include <cstdint>
#include <string>

#include "core/crypto/byte_codec.h"

namespace dpstudio::multiparty::paillier {

using crypto::Bytes;

inline constexpr std::uint32_t kCurator = 0;
inline constexpr std::uint8_t kEnvelopeVersion = 1;

enum class MessageKind : std::uint8_t {
  CuratorPublicKey = 1,  // setup: Charlie → P_j, pk' (Charlie's key ζ)
  PartiesKeyPair,        // setup: P1 → P_j, the parties' key (pk, sk) of ξ
  PartiesPublicKey,      // setup: P1 → Charlie, pk
  Permutation,           // setup: P1 → P_j, π1
  SizeShare,             // stage 1: P_j → P_π1(j), a_j and ζ(b_j)
  PositionShares,        // stage 1: P_i → Charlie, ξ(a'_i) and ζ(b'_i)
  BlindedShare,          // stage 1: Charlie → P_k, ξ(ã_k)
  BlindedShareBroadcast, // stage 1: P_k → P_l, ã_k
  ComparisonRequest,     // stage 1: Charlie → P_k, Enc(bits of Charlie's side)
  ComparisonReply,       // stage 1: P_k → Charlie, blinded DGK values and δ_A
  SelectionVector,       // stage 2: Charlie → P_j, ζ(π2⁻¹(u))
  NoiseContribution,     // stage 2: P_j → P1, ψ_j = ζ(v_j·η_j)
  BlindedNoise,          // stage 3: P1 → Charlie, ζ(η + s)
  Reshare,               // stage 3: X → Y, a random share of X's value
  PublishedShare,        // publication: X → public, X's final share of K·ŵ_s
};

std::string messageKindName(MessageKind kind);  // "size share", …
std::string messageStage(MessageKind kind);     // "setup", "stage 1: find the smallest party", …
// What the receiver (and anyone reading the transcript) learns from this message, in words.
std::string messageReveals(MessageKind kind);

struct Envelope {
  std::uint64_t session = 0;
  std::uint32_t sender = 0;
  std::uint32_t receiver = 0;
  MessageKind kind = MessageKind::CuratorPublicKey;
  std::uint32_t sequence = 0;
  Bytes payload;
};

Bytes encodeEnvelope(const Envelope& envelope);
// Strict: wrong magic or version, an unknown kind, a truncated or over-long message are
// errors naming what was wrong. (Session, parties and sequence are checked by the receiver.)
Result<Envelope> decodeEnvelope(const Bytes& bytes);

}  // namespace dpstudio::multiparty::paillier
