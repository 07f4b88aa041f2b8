#include "core/prediction/paillier/protocol_curator.h"

#include "core/crypto/dgk_comparison.h"

namespace dpstudio::multiparty::paillier {
namespace {

Error malformed(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "protocol"}; }

Envelope envelope(std::uint32_t to, MessageKind kind, crypto::ByteWriter& writer) {
  return Envelope{0, kCurator, to, kind, 0, writer.take()};
}

}  // namespace

ProtocolCurator::ProtocolCurator(const SessionSettings& settings) : settings_(settings) {}

Status ProtocolCurator::createKey(ProtocolNetwork& network) {
  auto key = crypto::generatePaillierKey(settings_.keyBits, random_, settings_.strength);
  if (!key) return key.error();
  key_ = std::move(key).value();
  for (int j = 1; j <= settings_.parties; ++j) {
    crypto::ByteWriter writer;
    writer.big(key_->publicKey.n);
    network.send(envelope(static_cast<std::uint32_t>(j), MessageKind::CuratorPublicKey, writer));
  }
  return Ok{};
}

Status ProtocolCurator::receivePartiesPublicKey(ProtocolNetwork& network) {
  auto payload = network.receive(1, kCurator, MessageKind::PartiesPublicKey);
  if (!payload) return payload.error();
  auto key = readPublicKey(payload.value(), "the parties'", settings_);
  if (!key) return key.error();
  partiesKey_ = std::move(key).value();
  return Ok{};
}

Status ProtocolCurator::blindAndPermute(ProtocolNetwork& network) {
  const std::size_t K = static_cast<std::size_t>(settings_.parties);
  std::vector<crypto::Ciphertext> blindedA(K);
  std::vector<mpz_class> blindedB(K);
  const mpz_class rangeR = (mpz_class(1) << (kBlindBits + 1)) + 1;  // r uniform in [−2^136, 2^136]
  for (std::size_t i = 0; i < K; ++i) {
    const std::uint32_t sender = static_cast<std::uint32_t>(i + 1);
    auto payload = network.receive(sender, kCurator, MessageKind::PositionShares);
    if (!payload) return payload.error();
    crypto::ByteReader reader(payload.value());
    auto a = readCiphertext(reader, "xi(a')", partiesKey_);
    if (!a) return a.error();
    auto b = readCiphertext(reader, "zeta(b')", key_->publicKey);
    if (!b) return b.error();
    if (auto done = reader.finish(); !done) return done.error();
    auto bPlain = crypto::decrypt(*key_, b.value());
    if (!bPlain) return bPlain.error();
    const mpz_class share = crypto::signedResidue(bPlain.value(), key_->publicKey.n);
    if (mpz_sizeinbase(share.get_mpz_t(), 2) > kShareBits + 1) return malformed("a size share is out of range");
    const mpz_class r = crypto::randomBelow(random_, rangeR) - (mpz_class(1) << kBlindBits);
    blindedA[i] = crypto::addPlain(partiesKey_, a.value(), r);  // ξ(a'_i + r_i)
    blindedB[i] = share - r;                                   // b'_i − r_i
  }
  permutation_ = crypto::randomPermutation(random_, K);
  blindedB_.assign(K, mpz_class(0));
  for (std::size_t k = 0; k < K; ++k) {
    blindedB_[k] = blindedB[permutation_[k]];
    crypto::ByteWriter writer;
    // Re-randomized: the parties must not recognise the ciphertext they sent.
    writer.big(crypto::rerandomize(partiesKey_, blindedA[permutation_[k]], random_).value);
    network.send(envelope(static_cast<std::uint32_t>(k + 1), MessageKind::BlindedShare, writer));
  }
  smallestSlot_ = 1;
  return Ok{};
}

Status ProtocolCurator::requestComparison(ProtocolNetwork& network, std::uint32_t slot) {
  // Our side of n_m ≤ n_k: b̃_k − b̃_m, shifted to be ≥ 0.
  mpz_class y = blindedB_[slot - 1] - blindedB_[smallestSlot_ - 1];
  y += mpz_class(1) << (kComparisonBits - 1);
  auto bits = crypto::dgkKeyHolderBits(key_->publicKey, y, kComparisonBits, random_);
  if (!bits) return bits.error();
  crypto::ByteWriter writer;
  writer.u32(smallestSlot_);
  writeCiphertexts(writer, bits.value());
  network.send(envelope(slot, MessageKind::ComparisonRequest, writer));
  return Ok{};
}

Status ProtocolCurator::finishComparison(ProtocolNetwork& network, std::uint32_t slot) {
  auto payload = network.receive(slot, kCurator, MessageKind::ComparisonReply);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto shareA = reader.u8("delta_A");
  if (!shareA) return shareA.error();
  if (shareA.value() > 1) return malformed("malformed message: delta_A is not a bit");
  auto blinded = readCiphertexts(reader, "DGK values", kComparisonBits + 1, key_->publicKey);
  if (!blinded) return blinded.error();
  if (auto done = reader.finish(); !done) return done.error();
  auto shareB = crypto::dgkKeyHolderZeroTest(*key_, kComparisonBits, blinded.value());
  if (!shareB) return shareB.error();
  const bool currentIsSmaller = (shareA.value() == 1) != shareB.value();  // [n_m ≤ n_k]
  if (!currentIsSmaller) smallestSlot_ = slot;
  return Ok{};
}

Status ProtocolCurator::sendSelection(ProtocolNetwork& network) {
  const std::size_t K = static_cast<std::size_t>(settings_.parties);
  for (int j = 1; j <= settings_.parties; ++j) {
    // A fresh encryption of π2⁻¹(u) for each party: 1 at the position of the smallest slot.
    std::vector<crypto::Ciphertext> selection;
    for (std::size_t position = 0; position < K; ++position) {
      auto c = crypto::encrypt(key_->publicKey, position == selectedPosition() ? 1 : 0, random_);
      if (!c) return c.error();
      selection.push_back(std::move(c).value());
    }
    crypto::ByteWriter writer;
    writeCiphertexts(writer, selection);
    network.send(envelope(static_cast<std::uint32_t>(j), MessageKind::SelectionVector, writer));
  }
  return Ok{};
}

Status ProtocolCurator::receiveBlindedNoise(ProtocolNetwork& network) {
  auto payload = network.receive(1, kCurator, MessageKind::BlindedNoise);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto blinded = readCiphertexts(reader, "zeta(eta + s)", static_cast<std::size_t>(settings_.features), key_->publicKey);
  if (!blinded) return blinded.error();
  if (auto done = reader.finish(); !done) return done.error();
  value_.clear();
  for (const crypto::Ciphertext& c : blinded.value()) {
    auto plain = crypto::decrypt(*key_, c);
    if (!plain) return plain.error();
    value_.push_back(crypto::reduceMod(settings_.parties * plain.value(), key_->publicKey.n));  // K·(η + s)
  }
  return Ok{};
}

Status ProtocolCurator::sendReshares(ProtocolNetwork& network) {
  resharing_.emplace(kCurator, settings_.parties + 1, key_->publicKey.n, settings_.keyBits);
  resharing_->sendShares(network, value_, random_);
  value_.clear();
  return Ok{};
}

Status ProtocolCurator::publishShare(ProtocolNetwork& network) { return resharing_->receiveAndPublish(network); }

void ProtocolCurator::abort(const std::string& reason) {
  abortReason_ = reason;
  key_.reset();
  blindedB_.clear();
  value_.clear();
  if (resharing_) resharing_->wipe();
}

}  // namespace dpstudio::multiparty::paillier
