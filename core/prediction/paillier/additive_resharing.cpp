#include "core/prediction/paillier/additive_resharing.h"

#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {

AdditiveResharing::AdditiveResharing(std::uint32_t self, int participants, mpz_class modulus, unsigned keyBits)
    : self_(self), participants_(participants), modulus_(std::move(modulus)), keyBits_(keyBits) {}

void AdditiveResharing::sendShares(ProtocolNetwork& network, const std::vector<mpz_class>& value,
                                   crypto::RandomBytes& random) {
  kept_ = value;
  for (int other = 0; other < participants_; ++other) {
    if (static_cast<std::uint32_t>(other) == self_) continue;
    std::vector<mpz_class> share(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) {
      share[i] = crypto::randomBelow(random, modulus_);
      kept_[i] = crypto::reduceMod(kept_[i] - share[i], modulus_);
    }
    crypto::ByteWriter writer;
    writeBigs(writer, share);
    network.send(Envelope{0, self_, static_cast<std::uint32_t>(other), MessageKind::Reshare, 0, writer.take()});
  }
}

Status AdditiveResharing::receiveAndPublish(ProtocolNetwork& network) {
  for (int other = 0; other < participants_; ++other) {
    if (static_cast<std::uint32_t>(other) == self_) continue;
    auto payload = network.receive(static_cast<std::uint32_t>(other), self_, MessageKind::Reshare);
    if (!payload) return payload.error();
    crypto::ByteReader reader(payload.value());
    auto share = readResidues(reader, "reshare", kept_.size(), modulus_, keyBits_);
    if (!share) return share.error();
    if (auto done = reader.finish(); !done) return done.error();
    for (std::size_t i = 0; i < kept_.size(); ++i) kept_[i] = crypto::reduceMod(kept_[i] + share.value()[i], modulus_);
  }
  crypto::ByteWriter writer;
  writeBigs(writer, kept_);
  network.send(Envelope{0, self_, static_cast<std::uint32_t>(participants_), MessageKind::PublishedShare, 0, writer.take()});
  wipe();
  return Ok{};
}

}  // namespace dpstudio::multiparty::paillier
