#include "core/crypto/fixed_point.h"

#include <cmath>
#include <sstream>

namespace dpstudio::crypto {
namespace {

Error codecError(const std::string& message) { return Error{ErrorKind::InvalidPrivacy, message, {}, 0, "fixed_point"}; }

std::string show(double x) {
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

// x·2^40 rounded to the nearest integer, exactly: ldexp is exact, nearbyint is exact on
// doubles, and mpz_set_d converts an integral double exactly.
mpz_class scaled(double x) {
  mpz_class out;
  mpz_set_d(out.get_mpz_t(), std::nearbyint(std::ldexp(x, FixedPoint::kScaleBits)));
  return out;
}

}  // namespace

mpz_class signedResidue(const mpz_class& v, const mpz_class& n) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), v.get_mpz_t(), n.get_mpz_t());
  if (2 * r > n) r -= n;
  return r;
}

Result<FixedPoint> FixedPoint::create(const mpz_class& modulus, double magnitudeLimit, unsigned weight) {
  if (!(std::isfinite(magnitudeLimit) && magnitudeLimit > 0))
    return codecError("the fixed-point magnitude limit must be finite and > 0, found " + show(magnitudeLimit));
  if (weight == 0) return codecError("the fixed-point weight must be >= 1");
  mpz_class bound = scaled(magnitudeLimit) * weight;
  if (2 * bound >= modulus)
    return codecError("the modulus is too small for " + std::to_string(weight) + " values of magnitude up to " +
                      show(magnitudeLimit) + " at scale 2^" + std::to_string(kScaleBits));
  return FixedPoint(modulus, magnitudeLimit, std::move(bound));
}

Result<mpz_class> FixedPoint::encode(double x) const {
  if (!std::isfinite(x)) return codecError("cannot encode a non-finite value (" + show(x) + ")");
  if (std::abs(x) > limit_)
    return codecError("refusing to encode " + show(x) + ": its magnitude exceeds the declared limit " + show(limit_) +
                      " (the encrypted sums could wrap around the modulus)");
  mpz_class v = scaled(x);
  if (v < 0) v += modulus_;  // n − |x|·2^40
  return v;
}

Result<double> FixedPoint::decode(const mpz_class& residue) const {
  if (residue < 0 || residue >= modulus_) return codecError("a fixed-point residue must be in [0, n)");
  const mpz_class v = signedResidue(residue, modulus_);
  mpz_class magnitude = abs(v);
  if (magnitude > bound_)
    return codecError("fixed-point overflow: the decoded value lies outside the declared range (a sum wrapped "
                      "around the modulus or a share was corrupted); refusing to return it");
  // mpz_get_d truncates toward zero: within one ulp of v, so the result is within a relative
  // 2^-52 of v/2^40 (plus the encoding's 2^-41 absolute).
  return std::ldexp(v.get_d(), -kScaleBits);
}

}  // namespace dpstudio::crypto
