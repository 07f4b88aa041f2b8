#pragma once
// The public parameters every participant of the protocol agrees on, and the payload
// helpers they share (vectors of big integers and ciphertexts, checked on arrival).

#include <Eigen/Core>

#include <vector>

#include "core/crypto/byte_codec.h"
#include "core/crypto/fixed_point.h"
#include "core/crypto/paillier.h"
#include "core/prediction/multiparty_options.h"

namespace dpstudio::multiparty::paillier {

// n_j = a_j + b_j with a_j uniform in [0, 2^96): b_j alone is within statistical distance
// n_j/2^96 ≤ 2^-33 of a uniform share for any n_j < 2^63.
inline constexpr unsigned kShareBits = 96;
// Charlie's blinding r_i is uniform in [−2^136, 2^136]: a'_i + r_i hides a'_i (< 2^96) to
// statistical distance 2^-40.
inline constexpr unsigned kBlindBits = 136;
// The compared differences (ã_m − ã_k and b̃_k − b̃_m) are below 2^138 in magnitude; shifted
// by 2^139 they are 140-bit non-negative integers (dgk_comparison.h).
inline constexpr unsigned kComparisonBits = 140;
// The fixed-point codec's magnitude limit for every model coordinate and noise coordinate
// (2^60 ≈ 1.2e18): a value beyond it aborts the protocol rather than wrapping.
inline constexpr double kValueLimit = 1152921504606846976.0;

struct SessionSettings {
  MultipartyOptions options;
  int parties = 0;      // K
  Index features = 0;   // d
  unsigned keyBits = crypto::kMinimumKeyBits;
  crypto::KeyStrength strength = crypto::KeyStrength::Production;
};

// The codec of stage 3: residues mod Charlie's n', weight 2K (K local models plus K·η).
Result<crypto::FixedPoint> stageThreeCodec(const crypto::PaillierPublicKey& curatorKey, int parties);

// At most this many bytes for one big integer in a payload (a ciphertext mod n² of the
// largest key we accept, with room): a forged length cannot make a receiver allocate more.
std::size_t maxBigBytes(unsigned keyBits);

void writeBigs(crypto::ByteWriter& writer, const std::vector<mpz_class>& values);
void writeCiphertexts(crypto::ByteWriter& writer, const std::vector<crypto::Ciphertext>& values);
// Exactly `count` values (the count is on the wire and must match), each in [0, modulus).
Result<std::vector<mpz_class>> readResidues(crypto::ByteReader& reader, const char* field, std::size_t count,
                                            const mpz_class& modulus, unsigned keyBits);
// Exactly `count` ciphertexts of `key` (crypto::checkCiphertext on each).
Result<std::vector<crypto::Ciphertext>> readCiphertexts(crypto::ByteReader& reader, const char* field,
                                                        std::size_t count, const crypto::PaillierPublicKey& key);

// One ciphertext of `key`, without a count prefix.
Result<crypto::Ciphertext> readCiphertext(crypto::ByteReader& reader, const char* field,
                                          const crypto::PaillierPublicKey& key);

// Signed integers on the wire: a sign byte (0 = non-negative, 1 = negative) and |v|.
// A peer's public key n from a key message: its size must obey the product's rule (a short
// key aborts the run) and n must be odd. `whose` names it in errors ("Charlie's").
Result<crypto::PaillierPublicKey> readPublicKey(const crypto::Bytes& payload, const std::string& whose,
                                                const SessionSettings& settings);

void writeSigned(crypto::ByteWriter& writer, const mpz_class& v);
// Refuses |v| ≥ 2^maxBits.
Result<mpz_class> readSigned(crypto::ByteReader& reader, const char* field, unsigned maxBits);

}  // namespace dpstudio::multiparty::paillier
