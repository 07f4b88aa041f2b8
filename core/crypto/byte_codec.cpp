#include "core/crypto/byte_codec.h"

namespace dpstudio::crypto {
namespace {

Error malformed(const std::string& message, const char* field) {
  return Error{ErrorKind::Internal, message, {}, 0, field};
}

}  // namespace

void ByteWriter::u8(std::uint8_t v) { bytes_.push_back(v); }

void ByteWriter::u32(std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) bytes_.push_back(static_cast<unsigned char>(v >> shift));
}

void ByteWriter::u64(std::uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) bytes_.push_back(static_cast<unsigned char>(v >> shift));
}

void ByteWriter::big(const mpz_class& v) {
  std::size_t count = 0;
  const std::size_t size = (mpz_sizeinbase(v.get_mpz_t(), 2) + 7) / 8;
  Bytes magnitude(size);
  if (v != 0) mpz_export(magnitude.data(), &count, 1, 1, 1, 0, v.get_mpz_t());
  magnitude.resize(count);
  u32(static_cast<std::uint32_t>(count));
  bytes_.insert(bytes_.end(), magnitude.begin(), magnitude.end());
}

void ByteWriter::text(const std::string& v) {
  u32(static_cast<std::uint32_t>(v.size()));
  bytes_.insert(bytes_.end(), v.begin(), v.end());
}

Status ByteReader::need(std::size_t count, const char* field) const {
  if (remaining() < count)
    return malformed("truncated message: " + std::to_string(count) + " bytes needed for '" + field + "', " +
                         std::to_string(remaining()) + " left",
                     field);
  return Ok{};
}

Result<std::uint8_t> ByteReader::u8(const char* field) {
  if (auto ok = need(1, field); !ok) return ok.error();
  return bytes_[at_++];
}

Result<std::uint32_t> ByteReader::u32(const char* field) {
  if (auto ok = need(4, field); !ok) return ok.error();
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 8) | bytes_[at_++];
  return v;
}

Result<std::uint64_t> ByteReader::u64(const char* field) {
  if (auto ok = need(8, field); !ok) return ok.error();
  std::uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v = (v << 8) | bytes_[at_++];
  return v;
}

Result<mpz_class> ByteReader::big(const char* field, std::size_t maxBytes) {
  auto count = u32(field);
  if (!count) return count.error();
  if (count.value() > maxBytes)
    return malformed("malformed message: '" + std::string(field) + "' claims " + std::to_string(count.value()) +
                         " bytes, at most " + std::to_string(maxBytes) + " allowed",
                     field);
  if (auto ok = need(count.value(), field); !ok) return ok.error();
  mpz_class v;
  if (count.value() > 0) mpz_import(v.get_mpz_t(), count.value(), 1, 1, 1, 0, bytes_.data() + at_);
  at_ += count.value();
  return v;
}

Result<std::string> ByteReader::text(const char* field, std::size_t maxBytes) {
  auto count = u32(field);
  if (!count) return count.error();
  if (count.value() > maxBytes)
    return malformed("malformed message: '" + std::string(field) + "' is longer than " + std::to_string(maxBytes) +
                         " bytes",
                     field);
  if (auto ok = need(count.value(), field); !ok) return ok.error();
  std::string v(bytes_.begin() + static_cast<std::ptrdiff_t>(at_),
                bytes_.begin() + static_cast<std::ptrdiff_t>(at_ + count.value()));
  at_ += count.value();
  return v;
}

Status ByteReader::finish() const {
  if (remaining() != 0)
    return malformed("malformed message: " + std::to_string(remaining()) + " unexpected bytes after the last field",
                     "message");
  return Ok{};
}

}  // namespace dpstudio::crypto
