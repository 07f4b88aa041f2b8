#include "core/prediction/paillier/protocol_parameters.h"

namespace dpstudio::multiparty::paillier {
namespace {

Error malformed(const std::string& message, const char* field) { return Error{ErrorKind::Internal, message, {}, 0, field}; }

}  // namespace

Result<crypto::FixedPoint> stageThreeCodec(const crypto::PaillierPublicKey& curatorKey, int parties) {
  return crypto::FixedPoint::create(curatorKey.n, kValueLimit, static_cast<unsigned>(2 * parties));
}

std::size_t maxBigBytes(unsigned keyBits) { return 2 * (keyBits + 7) / 8 + 16; }

void writeBigs(crypto::ByteWriter& writer, const std::vector<mpz_class>& values) {
  writer.u32(static_cast<std::uint32_t>(values.size()));
  for (const mpz_class& v : values) writer.big(v);
}

void writeCiphertexts(crypto::ByteWriter& writer, const std::vector<crypto::Ciphertext>& values) {
  writer.u32(static_cast<std::uint32_t>(values.size()));
  for (const crypto::Ciphertext& c : values) writer.big(c.value);
}

Result<std::vector<mpz_class>> readResidues(crypto::ByteReader& reader, const char* field, std::size_t count,
                                            const mpz_class& modulus, unsigned keyBits) {
  auto n = reader.u32(field);
  if (!n) return n.error();
  if (n.value() != count)
    return malformed("malformed message: " + std::to_string(n.value()) + " values of '" + field + "', expected " +
                         std::to_string(count),
                     field);
  std::vector<mpz_class> out;
  out.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    auto v = reader.big(field, maxBigBytes(keyBits));
    if (!v) return v.error();
    if (v.value() >= modulus) return malformed("malformed message: a value of '" + std::string(field) + "' is not reduced", field);
    out.push_back(std::move(v).value());
  }
  return out;
}

Result<std::vector<crypto::Ciphertext>> readCiphertexts(crypto::ByteReader& reader, const char* field,
                                                        std::size_t count, const crypto::PaillierPublicKey& key) {
  auto values = readResidues(reader, field, count, key.nSquared, key.bits());
  if (!values) return values.error();
  std::vector<crypto::Ciphertext> out;
  out.reserve(count);
  for (mpz_class& v : values.value()) {
    crypto::Ciphertext c{std::move(v)};
    if (auto valid = crypto::checkCiphertext(key, c); !valid)
      return malformed("malformed message: '" + std::string(field) + "': " + valid.error().message, field);
    out.push_back(std::move(c));
  }
  return out;
}

Result<crypto::Ciphertext> readCiphertext(crypto::ByteReader& reader, const char* field,
                                          const crypto::PaillierPublicKey& key) {
  auto v = reader.big(field, maxBigBytes(key.bits()));
  if (!v) return v.error();
  crypto::Ciphertext c{std::move(v).value()};
  if (auto valid = crypto::checkCiphertext(key, c); !valid)
    return malformed("malformed message: '" + std::string(field) + "': " + valid.error().message, field);
  return c;
}

void writeSigned(crypto::ByteWriter& writer, const mpz_class& v) {
  writer.u8(v < 0 ? 1 : 0);
  writer.big(abs(v));
}

Result<mpz_class> readSigned(crypto::ByteReader& reader, const char* field, unsigned maxBits) {
  auto sign = reader.u8(field);
  if (!sign) return sign.error();
  if (sign.value() > 1) return malformed("malformed message: bad sign byte in '" + std::string(field) + "'", field);
  auto magnitude = reader.big(field, (maxBits + 7) / 8);
  if (!magnitude) return magnitude.error();
  if (mpz_sizeinbase(magnitude.value().get_mpz_t(), 2) > maxBits && magnitude.value() != 0)
    return malformed("malformed message: '" + std::string(field) + "' is out of range", field);
  return sign.value() == 1 ? mpz_class(-magnitude.value()) : magnitude.value();
}

Result<crypto::PaillierPublicKey> readPublicKey(const crypto::Bytes& payload, const std::string& whose,
                                                const SessionSettings& settings) {
  crypto::ByteReader reader(payload);
  auto n = reader.big((whose + " key").c_str(), (settings.keyBits + 7) / 8 + 1);
  if (!n) return n.error();
  if (auto done = reader.finish(); !done) return done.error();
  const unsigned bits = static_cast<unsigned>(mpz_sizeinbase(n.value().get_mpz_t(), 2));
  if (auto size = crypto::checkKeySize(bits, settings.strength); !size) return size.error();
  if (n.value() % 2 == 0) return malformed(whose + " public key is not an RSA modulus", "protocol");
  return crypto::PaillierPublicKey{n.value(), n.value() * n.value()};
}

}  // namespace dpstudio::multiparty::paillier
