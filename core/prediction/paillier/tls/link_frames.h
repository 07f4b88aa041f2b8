#pragma once
// What travels on one TLS connection between two participant processes: frames, each
//     length u32 (big-endian, of what follows) | type u8 | body
// A protocol message (an Envelope, protocol_messages.h) is one Envelope frame; the others
// set the session up and end it. No Qt here: the bytes only.
//
//   CuratorHello  Charlie → P_j: session u64 | K u32 | j u32 | K addresses (text, "host:port")
//   PartyHello    P_j → Charlie: j u32 | session u64 | parameters (text, sessionParametersText) |
//                 noise (text, "release" or "experiment": where P_j's η_j comes from, so that
//                 Charlie can say whether the release is private)
//   PeerHello     P_j → P_i (i < j, P_j dials): session u64 | j u32
//   Envelope      a protocol message
//   Abort         sender u32 | reason (text): the sender stopped; the receiver stops too
//   Done          (empty): the sender ran all its steps and is about to close
//
// Size: a frame longer than the limit (frameLimit) is refused before it is buffered, so a
// forged length cannot make a receiver allocate more.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/crypto/byte_codec.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::multiparty::paillier {

using crypto::Bytes;

enum class FrameType : std::uint8_t { CuratorHello = 1, PartyHello, PeerHello, Envelope, Abort, Done };
std::string frameTypeName(FrameType type);

// Before the session's parameters are known (the hellos), frames are at most this long.
inline constexpr std::size_t kSetupFrameLimit = 1 << 20;
// The largest protocol message of a session with these parameters, with room: the longest
// payload is a vector of max(d, K, 141) big integers mod n² (2·keyBits/8 + 16 bytes each,
// maxBigBytes) plus their length prefixes, and the envelope's 30-byte header. For d = 123
// and 2048-bit keys that is about 75 kB; d = 784 (MNIST) about 420 kB.
std::size_t frameLimit(unsigned keyBits, int parties, std::int64_t features);

struct Frame {
  FrameType type = FrameType::Envelope;
  Bytes body;
};

Bytes encodeFrame(FrameType type, const Bytes& body);

// Splits complete frames off the front of `buffer` (bytes as they arrived). Stops at an
// incomplete frame, which stays in the buffer. Errors: a length over `limit`, an empty or
// unknown frame.
Result<std::vector<Frame>> takeFrames(Bytes& buffer, std::size_t limit);

struct CuratorHello {
  std::uint64_t session = 0;
  std::uint32_t parties = 0;
  std::uint32_t you = 0;
  std::vector<std::string> addresses;  // of P1..PK, as Charlie reached them
};
struct PartyHello {
  std::uint32_t party = 0;
  std::uint64_t session = 0;
  std::string parameters;
  privacy::NoiseKind noise = privacy::NoiseKind::Release;
};
struct PeerHello {
  std::uint64_t session = 0;
  std::uint32_t party = 0;
};
struct AbortNotice {
  std::uint32_t sender = 0;
  std::string reason;
};

Bytes encodeCuratorHello(const CuratorHello& hello);
Bytes encodePartyHello(const PartyHello& hello);
Bytes encodePeerHello(const PeerHello& hello);
Bytes encodeAbort(const AbortNotice& notice);
Result<CuratorHello> decodeCuratorHello(const Bytes& body);
Result<PartyHello> decodePartyHello(const Bytes& body);
Result<PeerHello> decodePeerHello(const Bytes& body);
Result<AbortNotice> decodeAbort(const Bytes& body);

// The receiver field of an envelope, read without decoding it (to queue it on its channel);
// nullopt when the bytes are too short to hold an envelope header.
std::optional<std::uint32_t> peekEnvelopeReceiver(const Bytes& body);

}  // namespace dpstudio::multiparty::paillier
