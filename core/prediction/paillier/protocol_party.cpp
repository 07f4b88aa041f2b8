#include "core/prediction/paillier/protocol_party.h"

#include "core/crypto/dgk_comparison.h"
#include "core/util/parallel.h"

namespace dpstudio::multiparty::paillier {
namespace {

Error malformed(const std::string& message) { return Error{ErrorKind::Internal, message, {}, 0, "protocol"}; }

Envelope envelope(std::uint32_t from, std::uint32_t to, MessageKind kind, crypto::ByteWriter& writer) {
  return Envelope{0, from, to, kind, 0, writer.take()};
}

}  // namespace

ProtocolParty::ProtocolParty(std::uint32_t id, const SessionSettings& settings, LocalModel local,
                             std::unique_ptr<privacy::NoiseSource> noise)
    : id_(id), settings_(settings), w_(std::move(local.w)), rows_(local.rows), noise_(std::move(noise)) {}

Status ProtocolParty::receiveCuratorKey(ProtocolNetwork& network) {
  auto payload = network.receive(kCurator, id_, MessageKind::CuratorPublicKey);
  if (!payload) return payload.error();
  // The key is public, but its size is the product's rule: a short key from Charlie aborts.
  auto key = readPublicKey(payload.value(), "Charlie's", settings_);
  if (!key) return key.error();
  curatorKey_ = std::move(key).value();
  return Ok{};
}

Status ProtocolParty::createPartiesKeyAndPermutation(ProtocolNetwork& network) {
  auto key = crypto::generatePaillierKey(settings_.keyBits, random_, settings_.strength);
  if (!key) return key.error();
  partiesKey_ = std::move(key).value();
  permutation_ = crypto::randomPermutation(random_, static_cast<std::size_t>(settings_.parties));
  for (int j = 2; j <= settings_.parties; ++j) {
    crypto::ByteWriter keyPair;
    keyPair.big(partiesKey_->p);
    keyPair.big(partiesKey_->q);
    network.send(envelope(id_, static_cast<std::uint32_t>(j), MessageKind::PartiesKeyPair, keyPair));
    crypto::ByteWriter permutation;
    permutation.u32(static_cast<std::uint32_t>(permutation_.size()));
    for (std::size_t position : permutation_) permutation.u32(static_cast<std::uint32_t>(position));
    network.send(envelope(id_, static_cast<std::uint32_t>(j), MessageKind::Permutation, permutation));
  }
  crypto::ByteWriter publicKey;
  publicKey.big(partiesKey_->publicKey.n);
  network.send(envelope(id_, kCurator, MessageKind::PartiesPublicKey, publicKey));
  return Ok{};
}

Status ProtocolParty::receivePartiesKeyAndPermutation(ProtocolNetwork& network) {
  auto keyPayload = network.receive(1, id_, MessageKind::PartiesKeyPair);
  if (!keyPayload) return keyPayload.error();
  crypto::ByteReader keyReader(keyPayload.value());
  auto p = keyReader.big("p", settings_.keyBits / 8 + 1);
  if (!p) return p.error();
  auto q = keyReader.big("q", settings_.keyBits / 8 + 1);
  if (!q) return q.error();
  if (auto done = keyReader.finish(); !done) return done.error();
  auto key = crypto::paillierKeyFromPrimes(p.value(), q.value(), settings_.strength);
  if (!key) return malformed("the parties' key from P1 is not a valid Paillier key: " + key.error().message);
  if (auto size = crypto::checkKeySize(key.value().publicKey.bits(), settings_.strength); !size) return size.error();
  partiesKey_ = std::move(key).value();

  auto permutationPayload = network.receive(1, id_, MessageKind::Permutation);
  if (!permutationPayload) return permutationPayload.error();
  crypto::ByteReader reader(permutationPayload.value());
  auto count = reader.u32("permutation length");
  if (!count) return count.error();
  if (count.value() != static_cast<std::uint32_t>(settings_.parties)) return malformed("malformed message: π1 has the wrong length");
  std::vector<bool> seen(count.value(), false);
  permutation_.clear();
  for (std::uint32_t k = 0; k < count.value(); ++k) {
    auto position = reader.u32("permutation");
    if (!position) return position.error();
    if (position.value() >= count.value() || seen[position.value()]) return malformed("malformed message: π1 is not a permutation");
    seen[position.value()] = true;
    permutation_.push_back(position.value());
  }
  return reader.finish();
}

Status ProtocolParty::sendSizeShares(ProtocolNetwork& network) {
  const mpz_class a = crypto::randomBits(random_, kShareBits);
  const mpz_class b = mpz_class(static_cast<long>(rows_)) - a;  // n_j = a_j + b_j
  auto encryptedB = crypto::encrypt(curatorKey_, crypto::reduceMod(b, curatorKey_.n), random_);
  if (!encryptedB) return encryptedB.error();
  crypto::ByteWriter writer;
  writer.big(a);
  writer.big(encryptedB.value().value);
  network.send(envelope(id_, static_cast<std::uint32_t>(position() + 1), MessageKind::SizeShare, writer));
  return Ok{};
}

Status ProtocolParty::sendPositionShares(ProtocolNetwork& network) {
  // The party whose shares land at our position (position = id − 1).
  std::uint32_t source = 0;
  for (std::size_t j = 0; j < permutation_.size(); ++j)
    if (permutation_[j] == id_ - 1) source = static_cast<std::uint32_t>(j + 1);
  auto payload = network.receive(source, id_, MessageKind::SizeShare);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto a = reader.big("a", kShareBits / 8);
  if (!a) return a.error();
  auto b = readCiphertext(reader, "zeta(b)", curatorKey_);
  if (!b) return b.error();
  if (auto done = reader.finish(); !done) return done.error();
  heldShareA_ = a.value();
  auto encryptedA = crypto::encrypt(partiesKey_->publicKey, heldShareA_, random_);
  if (!encryptedA) return encryptedA.error();
  crypto::ByteWriter writer;
  writer.big(encryptedA.value().value);
  // Re-randomized: Charlie cannot match it to the ciphertext P_source made.
  writer.big(crypto::rerandomize(curatorKey_, b.value(), random_).value);
  network.send(envelope(id_, kCurator, MessageKind::PositionShares, writer));
  return Ok{};
}

Status ProtocolParty::receiveBlindedShare(ProtocolNetwork& network) {
  auto payload = network.receive(kCurator, id_, MessageKind::BlindedShare);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto c = readCiphertext(reader, "xi(a~)", partiesKey_->publicKey);
  if (!c) return c.error();
  if (auto done = reader.finish(); !done) return done.error();
  auto plain = crypto::decrypt(*partiesKey_, c.value());
  if (!plain) return plain.error();
  const mpz_class blinded = crypto::signedResidue(plain.value(), partiesKey_->publicKey.n);
  if (mpz_sizeinbase(blinded.get_mpz_t(), 2) > kBlindBits + 1)
    return malformed("Charlie's blinded share is out of range");
  blinded_.assign(static_cast<std::size_t>(settings_.parties), mpz_class(0));
  blinded_[id_ - 1] = blinded;
  for (int l = 1; l <= settings_.parties; ++l) {
    if (static_cast<std::uint32_t>(l) == id_) continue;
    crypto::ByteWriter writer;
    writeSigned(writer, blinded);
    network.send(envelope(id_, static_cast<std::uint32_t>(l), MessageKind::BlindedShareBroadcast, writer));
  }
  return Ok{};
}

Status ProtocolParty::receiveBlindedShareBroadcasts(ProtocolNetwork& network) {
  for (int l = 1; l <= settings_.parties; ++l) {
    if (static_cast<std::uint32_t>(l) == id_) continue;
    auto payload = network.receive(static_cast<std::uint32_t>(l), id_, MessageKind::BlindedShareBroadcast);
    if (!payload) return payload.error();
    crypto::ByteReader reader(payload.value());
    auto v = readSigned(reader, "a~", kBlindBits + 1);
    if (!v) return v.error();
    if (auto done = reader.finish(); !done) return done.error();
    blinded_[static_cast<std::size_t>(l - 1)] = v.value();
  }
  return Ok{};
}

Status ProtocolParty::answerComparison(ProtocolNetwork& network) {
  auto payload = network.receive(kCurator, id_, MessageKind::ComparisonRequest);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto slot = reader.u32("slot");
  if (!slot) return slot.error();
  if (slot.value() < 1 || slot.value() > static_cast<std::uint32_t>(settings_.parties) || slot.value() == id_)
    return malformed("malformed message: comparison against slot " + std::to_string(slot.value()));
  auto bits = readCiphertexts(reader, "comparison bits", kComparisonBits + 1, curatorKey_);
  if (!bits) return bits.error();
  if (auto done = reader.finish(); !done) return done.error();
  // n_m ≤ n_k  ⇔  ã_m − ã_k ≤ b̃_k − b̃_m: our side is ã_m − ã_k, shifted to be ≥ 0.
  mpz_class x = blinded_[slot.value() - 1] - blinded_[id_ - 1];
  x += mpz_class(1) << (kComparisonBits - 1);
  auto evaluation = crypto::dgkEvaluate(curatorKey_, x, kComparisonBits, bits.value(), random_);
  if (!evaluation) return evaluation.error();
  crypto::ByteWriter writer;
  writer.u8(evaluation.value().shareA ? 1 : 0);
  writeCiphertexts(writer, evaluation.value().blinded);
  network.send(envelope(id_, kCurator, MessageKind::ComparisonReply, writer));
  return Ok{};
}

Status ProtocolParty::contributeNoise(ProtocolNetwork& network) {
  auto payload = network.receive(kCurator, id_, MessageKind::SelectionVector);
  if (!payload) return payload.error();
  crypto::ByteReader reader(payload.value());
  auto selection = readCiphertexts(reader, "selection", static_cast<std::size_t>(settings_.parties), curatorKey_);
  if (!selection) return selection.error();
  if (auto done = reader.finish(); !done) return done.error();
  // ζ(v_j): undo π1 by reading our own position (the parties' step 2.2).
  const crypto::Ciphertext mine = selection.value()[position()];

  // η_j calibrated for our own n_j: when we are the smallest party, this is exactly the
  // calibration of the release (calibrateMultiparty with n_(1) = n_j).
  auto calibration = calibrateMultiparty(settings_.options, rows_, settings_.features);
  if (!calibration) return calibration.error();
  // η_j is added to the released average, as in the one-process release (release_granularity.h).
  mech::enlargeNoiseForRelease(calibration.value(), *noise_);
  auto draw = mech::drawReportedNoise(calibration.value(), *noise_);
  if (!draw) return draw.error();
  calibration_ = std::move(calibration).value();
  noiseNorm_ = draw.value().norm;
  noiseDrawn_ = draw.value().noise;
  auto codec = stageThreeCodec(curatorKey_, settings_.parties);
  if (!codec) return codec.error();
  const std::size_t d = static_cast<std::size_t>(settings_.features);
  std::vector<mpz_class> encodedNoise, nonces;
  for (std::size_t i = 0; i < d; ++i) {
    auto encoded = codec.value().encode(draw.value().noise[static_cast<Index>(i)]);
    if (!encoded) return Error{ErrorKind::InvalidPrivacy, "P" + std::to_string(id_) + "'s noise: " + encoded.error().message, {}, 0, "noise"};
    encodedNoise.push_back(std::move(encoded).value());
    nonces.push_back(crypto::randomUnit(random_, curatorKey_.n));
  }
  // ζ(v_j)^η_j(i), re-randomized so that P1 cannot test guesses of η_j against it: d
  // exponentiations with a secret exponent (mpz_powm_sec), in parallel.
  psi_.assign(d, crypto::Ciphertext{});
  parallelFor(static_cast<Index>(d), [&](Index i) {
    const auto k = static_cast<std::size_t>(i);
    psi_[k] = crypto::rerandomizeWithNonce(curatorKey_, crypto::multiplyPlain(curatorKey_, mine, encodedNoise[k]), nonces[k]);
  });
  if (id_ != 1) {
    crypto::ByteWriter writer;
    writeCiphertexts(writer, psi_);
    network.send(envelope(id_, 1, MessageKind::NoiseContribution, writer));
    psi_.clear();
  }
  return Ok{};
}

Status ProtocolParty::sendBlindedNoise(ProtocolNetwork& network) {
  const std::size_t d = static_cast<std::size_t>(settings_.features);
  for (int j = 2; j <= settings_.parties; ++j) {
    auto payload = network.receive(static_cast<std::uint32_t>(j), id_, MessageKind::NoiseContribution);
    if (!payload) return payload.error();
    crypto::ByteReader reader(payload.value());
    auto contribution = readCiphertexts(reader, "psi", d, curatorKey_);
    if (!contribution) return contribution.error();
    if (auto done = reader.finish(); !done) return done.error();
    for (std::size_t i = 0; i < d; ++i) psi_[i] = crypto::add(curatorKey_, psi_[i], contribution.value()[i]);
  }
  blindS_.clear();
  std::vector<crypto::Ciphertext> blinded;
  for (std::size_t i = 0; i < d; ++i) {
    blindS_.push_back(crypto::randomBelow(random_, curatorKey_.n));
    auto encryptedS = crypto::encrypt(curatorKey_, blindS_.back(), random_);
    if (!encryptedS) return encryptedS.error();
    blinded.push_back(crypto::add(curatorKey_, psi_[i], encryptedS.value()));
  }
  psi_.clear();
  crypto::ByteWriter writer;
  writeCiphertexts(writer, blinded);
  network.send(envelope(id_, kCurator, MessageKind::BlindedNoise, writer));
  return Ok{};
}

Status ProtocolParty::sendReshares(ProtocolNetwork& network) {
  auto codec = stageThreeCodec(curatorKey_, settings_.parties);
  if (!codec) return codec.error();
  const mpz_class K = settings_.parties;
  std::vector<mpz_class> value;
  for (Index i = 0; i < w_.size(); ++i) {
    auto encoded = codec.value().encode(w_[i]);
    if (!encoded) return Error{ErrorKind::InvalidPrivacy, "P" + std::to_string(id_) + "'s model: " + encoded.error().message, {}, 0, "model"};
    // P1 holds ŵ_1 − K·s (paper 004 §3.2 stage 3.1); the others ŵ_j.
    value.push_back(id_ == 1 ? crypto::reduceMod(encoded.value() - K * blindS_[static_cast<std::size_t>(i)], curatorKey_.n)
                             : encoded.value());
  }
  blindS_.clear();
  resharing_.emplace(id_, settings_.parties + 1, curatorKey_.n, settings_.keyBits);
  resharing_->sendShares(network, value, random_);
  return Ok{};
}

Status ProtocolParty::publishShare(ProtocolNetwork& network) { return resharing_->receiveAndPublish(network); }

void ProtocolParty::abort(const std::string& reason) {
  abortReason_ = reason;
  partiesKey_.reset();
  heldShareA_ = 0;
  blinded_.clear();
  psi_.clear();
  blindS_.clear();
  w_.setZero();
  noiseDrawn_.setZero();
  if (resharing_) resharing_->wipe();
}

}  // namespace dpstudio::multiparty::paillier
