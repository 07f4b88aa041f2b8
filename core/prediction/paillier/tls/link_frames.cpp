#include "core/prediction/paillier/tls/link_frames.h"

#include <algorithm>

#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {
namespace {

constexpr std::size_t kMaxText = 64 * 1024;          // a reason, an address list entry, the parameters
constexpr std::size_t kEnvelopeHeaderBytes = 30;     // protocol_messages.h
constexpr std::size_t kReceiverOffset = 4 + 1 + 8 + 4;  // magic, version, session, sender

Error malformedFrame(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "frame"}; }

std::uint32_t readU32(const Bytes& bytes, std::size_t at) {
  return (std::uint32_t{bytes[at]} << 24) | (std::uint32_t{bytes[at + 1]} << 16) | (std::uint32_t{bytes[at + 2]} << 8) |
         std::uint32_t{bytes[at + 3]};
}

}  // namespace

std::string frameTypeName(FrameType type) {
  switch (type) {
    case FrameType::CuratorHello: return "curator hello";
    case FrameType::PartyHello: return "party hello";
    case FrameType::PeerHello: return "peer hello";
    case FrameType::Envelope: return "protocol message";
    case FrameType::Abort: return "abort";
    case FrameType::Done: return "done";
  }
  return "unknown";
}

std::size_t frameLimit(unsigned keyBits, int parties, std::int64_t features) {
  const std::size_t count = std::max<std::size_t>({static_cast<std::size_t>(std::max<std::int64_t>(features, 1)),
                                                   static_cast<std::size_t>(std::max(parties, 1)), 141});
  return kEnvelopeHeaderBytes + 64 + (count + 2) * (4 + maxBigBytes(keyBits));
}

Bytes encodeFrame(FrameType type, const Bytes& body) {
  crypto::ByteWriter writer;
  writer.u32(static_cast<std::uint32_t>(body.size() + 1));
  writer.u8(static_cast<std::uint8_t>(type));
  Bytes out = writer.take();
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

Result<std::vector<Frame>> takeFrames(Bytes& buffer, std::size_t limit) {
  std::vector<Frame> frames;
  std::size_t at = 0;
  while (buffer.size() - at >= 4) {
    const std::uint32_t length = readU32(buffer, at);
    if (length == 0) return malformedFrame("malformed frame: zero length");
    if (length > limit + 1)
      return malformedFrame("a frame of " + std::to_string(length) + " bytes, over the limit of " +
                            std::to_string(limit) + " bytes for this session");
    if (buffer.size() - at - 4 < length) break;
    const auto type = buffer[at + 4];
    if (type < static_cast<std::uint8_t>(FrameType::CuratorHello) || type > static_cast<std::uint8_t>(FrameType::Done))
      return malformedFrame("malformed frame: unknown frame type " + std::to_string(type));
    Frame frame;
    frame.type = static_cast<FrameType>(type);
    frame.body.assign(buffer.begin() + static_cast<std::ptrdiff_t>(at + 5),
                      buffer.begin() + static_cast<std::ptrdiff_t>(at + 4 + length));
    frames.push_back(std::move(frame));
    at += 4 + length;
  }
  buffer.erase(buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(at));
  return frames;
}

Bytes encodeCuratorHello(const CuratorHello& hello) {
  crypto::ByteWriter w;
  w.u64(hello.session);
  w.u32(hello.parties);
  w.u32(hello.you);
  for (const std::string& address : hello.addresses) w.text(address);
  return w.take();
}

Bytes encodePartyHello(const PartyHello& hello) {
  crypto::ByteWriter w;
  w.u32(hello.party);
  w.u64(hello.session);
  w.text(hello.parameters);
  w.text(privacy::NoiseProvenance{hello.noise, 0, {}}.kindName());
  return w.take();
}

Bytes encodePeerHello(const PeerHello& hello) {
  crypto::ByteWriter w;
  w.u64(hello.session);
  w.u32(hello.party);
  return w.take();
}

Bytes encodeAbort(const AbortNotice& notice) {
  crypto::ByteWriter w;
  w.u32(notice.sender);
  w.text(notice.reason.substr(0, kMaxText));
  return w.take();
}

Result<CuratorHello> decodeCuratorHello(const Bytes& body) {
  crypto::ByteReader r(body);
  CuratorHello hello;
  auto session = r.u64("session");
  if (!session) return session.error();
  auto parties = r.u32("K");
  if (!parties) return parties.error();
  auto you = r.u32("party id");
  if (!you) return you.error();
  if (parties.value() < 1 || parties.value() > 1000) return malformedFrame("malformed curator hello: K out of range");
  hello.session = session.value();
  hello.parties = parties.value();
  hello.you = you.value();
  for (std::uint32_t j = 0; j < hello.parties; ++j) {
    auto address = r.text("party address", kMaxText);
    if (!address) return address.error();
    hello.addresses.push_back(std::move(address).value());
  }
  if (auto done = r.finish(); !done) return done.error();
  return hello;
}

Result<PartyHello> decodePartyHello(const Bytes& body) {
  crypto::ByteReader r(body);
  PartyHello hello;
  auto party = r.u32("party id");
  if (!party) return party.error();
  auto session = r.u64("session");
  if (!session) return session.error();
  auto parameters = r.text("parameters", kMaxText);
  if (!parameters) return parameters.error();
  auto noise = r.text("noise", kMaxText);
  if (!noise) return noise.error();
  if (auto done = r.finish(); !done) return done.error();
  const auto kind = privacy::parseNoiseKind(noise.value());
  if (!kind) return malformedFrame("malformed party hello: its noise is '" + noise.value().substr(0, 40) +
                                   "', not release or experiment");
  hello.party = party.value();
  hello.session = session.value();
  hello.parameters = std::move(parameters).value();
  hello.noise = *kind;
  return hello;
}

Result<PeerHello> decodePeerHello(const Bytes& body) {
  crypto::ByteReader r(body);
  auto session = r.u64("session");
  if (!session) return session.error();
  auto party = r.u32("party id");
  if (!party) return party.error();
  if (auto done = r.finish(); !done) return done.error();
  return PeerHello{session.value(), party.value()};
}

Result<AbortNotice> decodeAbort(const Bytes& body) {
  crypto::ByteReader r(body);
  auto sender = r.u32("sender");
  if (!sender) return sender.error();
  auto reason = r.text("reason", kMaxText);
  if (!reason) return reason.error();
  if (auto done = r.finish(); !done) return done.error();
  return AbortNotice{sender.value(), std::move(reason).value()};
}

std::optional<std::uint32_t> peekEnvelopeReceiver(const Bytes& body) {
  if (body.size() < kEnvelopeHeaderBytes) return std::nullopt;
  return readU32(body, kReceiverOffset);
}

}  // namespace dpstudio::multiparty::paillier
