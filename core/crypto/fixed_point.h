#pragma once
// Fixed-point encoding of reals as Paillier plaintexts (residues mod n).
//
//   encode(x) = round(x · 2^40) mod n      (negative x ↦ n − round(|x|·2^40))
//   decode(v) = v'/2^40, v' = v if v < n/2, else v − n
//
// Resolution 2^-40 ≈ 9.1e-13 (each encoding is within 2^-41 of x). A codec is made for a
// declared magnitude limit L and a weight W: the caller promises to combine at most W
// encodings with coefficients in absolute value summing to W (e.g. K local models plus K·η:
// W = 2K), so every result stays within W·L·2^40 < n/2 and decodes to the right sign.
// encode() refuses |x| > L and non-finite x; decode() refuses a residue outside ±W·L·2^40,
// which can only come from a combination that broke the promise (or a corrupted message):
// the codec refuses rather than return a wrapped number.

#include <gmpxx.h>

#include "core/util/result.h"

namespace dpstudio::crypto {

class FixedPoint {
 public:
  static constexpr int kScaleBits = 40;

  // Errors: L not finite and > 0, W = 0, or W·L·2^40 ≥ n/2 (the modulus is too small).
  static Result<FixedPoint> create(const mpz_class& modulus, double magnitudeLimit, unsigned weight);

  Result<mpz_class> encode(double x) const;
  // v in [0, n); returns the real it encodes (refuses a residue beyond the declared range).
  Result<double> decode(const mpz_class& residue) const;

  const mpz_class& modulus() const { return modulus_; }
  double magnitudeLimit() const { return limit_; }

 private:
  FixedPoint(mpz_class modulus, double limit, mpz_class bound) : modulus_(std::move(modulus)), limit_(limit), bound_(std::move(bound)) {}
  mpz_class modulus_;
  double limit_;
  mpz_class bound_;  // W·L·2^40, the largest magnitude a decoded residue may have
};

// v mod n read as a signed integer in (−n/2, n/2].
mpz_class signedResidue(const mpz_class& v, const mpz_class& n);

}  // namespace dpstudio::crypto
