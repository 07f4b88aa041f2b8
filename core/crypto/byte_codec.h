#pragma once
// The byte encoding of protocol messages: big-endian fixed-width integers and
// length-prefixed non-negative big integers and strings. Readers are strict: reading past
// the end (a truncated message), a length beyond what remains, or bytes left over after the
// last field are errors that say which field was being read.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::crypto {

using Bytes = std::vector<unsigned char>;

class ByteWriter {
 public:
  void u8(std::uint8_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void big(const mpz_class& v);  // v ≥ 0: u32 byte count, then the magnitude, big-endian
  void text(const std::string& v);
  const Bytes& bytes() const { return bytes_; }
  Bytes take() { return std::move(bytes_); }

 private:
  Bytes bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const Bytes& bytes) : bytes_(bytes) {}
  Result<std::uint8_t> u8(const char* field);
  Result<std::uint32_t> u32(const char* field);
  Result<std::uint64_t> u64(const char* field);
  // Refuses more than maxBytes of magnitude (a length field cannot make us allocate 4 GB).
  Result<mpz_class> big(const char* field, std::size_t maxBytes);
  Result<std::string> text(const char* field, std::size_t maxBytes);
  // Error unless every byte was read.
  Status finish() const;
  std::size_t remaining() const { return bytes_.size() - at_; }

 private:
  Status need(std::size_t count, const char* field) const;
  const Bytes& bytes_;
  std::size_t at_ = 0;
};

}  // namespace dpstudio::crypto
