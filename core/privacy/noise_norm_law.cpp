#include "core/privacy/noise_norm_law.h"

#include <cmath>
#include <limits>
#include <numbers>

#include <boost/math/special_functions/gamma.hpp>

#include "core/privacy/noise.h"
#include "core/privacy/validation.h"
#include "core/util/number_text.h"

namespace dpstudio::privacy {
namespace {

// Boost.Math throws on domain and overflow errors by default; nothing may throw out of core.
// With errno_on_error a domain error gives NaN and an overflow ±∞, which the callers handle.
using NoThrow = boost::math::policies::policy<boost::math::policies::domain_error<boost::math::policies::errno_on_error>,
                                              boost::math::policies::overflow_error<boost::math::policies::errno_on_error>,
                                              boost::math::policies::evaluation_error<boost::math::policies::errno_on_error>>;

Status requireDimension(Eigen::Index m) {
  if (m >= 1) return Ok{};
  return invalidParameter("m", "a whole number >= 1 (the number of noise coordinates)", static_cast<double>(m));
}

// "18" → "₁₈" (UTF-8 subscript digits U+2080…U+2089).
std::string subscript(Eigen::Index value) {
  std::string out;
  for (char c : std::to_string(value)) {
    out += "\xE2\x82";
    out += static_cast<char>(0x80 + (c - '0'));
  }
  return out;
}

}  // namespace

Result<NoiseNormLaw> NoiseNormLaw::l2Laplace(double beta, Eigen::Index m) {
  if (auto ok = requirePositive("beta", beta); !ok) return ok.error();
  if (auto ok = requireDimension(m); !ok) return ok.error();
  return NoiseNormLaw(Family::L2Laplace, beta, m);
}

Result<NoiseNormLaw> NoiseNormLaw::gaussian(double sigma, Eigen::Index m) {
  if (auto ok = requirePositive("sigma", sigma); !ok) return ok.error();
  if (auto ok = requireDimension(m); !ok) return ok.error();
  return NoiseNormLaw(Family::Gaussian, sigma, m);
}

double NoiseNormLaw::pdf(double r) const {
  if (std::isnan(r)) return r;
  if (r < 0.0 || std::isinf(r)) return 0.0;
  const double m = static_cast<double>(m_);
  if (family_ == Family::L2Laplace)  // d/dr P(m, βr)
    return parameter_ * boost::math::gamma_p_derivative(m, parameter_ * r, NoThrow());
  const double sigma2 = parameter_ * parameter_;
  // The half-normal's mode: the chain rule below would be 0·∞ there.
  if (r == 0.0) return m_ == 1 ? std::sqrt(2.0 / std::numbers::pi) / parameter_ : 0.0;
  // d/dr P(m/2, r²/(2σ²)) = P'(m/2, x)·r/σ²
  return boost::math::gamma_p_derivative(m / 2.0, r * r / (2.0 * sigma2), NoThrow()) * r / sigma2;
}

double NoiseNormLaw::cdf(double r) const {
  if (std::isnan(r)) return r;
  if (r <= 0.0) return 0.0;
  if (std::isinf(r)) return 1.0;
  const double m = static_cast<double>(m_);
  if (family_ == Family::L2Laplace) return boost::math::gamma_p(m, parameter_ * r, NoThrow());
  return boost::math::gamma_p(m / 2.0, r * r / (2.0 * parameter_ * parameter_), NoThrow());
}

double NoiseNormLaw::quantile(double p) const {
  if (std::isnan(p)) return p;
  if (p <= 0.0) return 0.0;
  if (p >= 1.0) return std::numeric_limits<double>::infinity();
  const double m = static_cast<double>(m_);
  if (family_ == Family::L2Laplace) return boost::math::gamma_p_inv(m, p, NoThrow()) / parameter_;
  return parameter_ * std::sqrt(2.0 * boost::math::gamma_p_inv(m / 2.0, p, NoThrow()));
}

double NoiseNormLaw::mean() const {
  return family_ == Family::L2Laplace ? expectedNormL2Laplace(parameter_, m_) : expectedNormGaussian(parameter_, m_);
}

double NoiseNormLaw::sample(NoiseSource& source) const {
  const double m = static_cast<double>(m_);
  if (family_ == Family::L2Laplace) return source.gamma(m, 1.0 / parameter_);
  // ‖g‖² ~ χ²_m = Gamma(m/2, scale 2).
  return parameter_ * std::sqrt(source.gamma(m / 2.0, 2.0));
}

std::string NoiseNormLaw::describe() const {
  if (family_ == Family::L2Laplace)
    return "Gamma(m = " + std::to_string(m_) + ", \xCE\xB2 = " + briefNumber(parameter_) + ")";
  return "\xCF\x83\xC2\xB7\xCF\x87" + subscript(m_) + ", \xCF\x83 = " + briefNumber(parameter_);
}

}  // namespace dpstudio::privacy
