#include "core/mechanisms/substitution_rdp.h"

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "core/privacy/rdp_accountant.h"
#include "core/privacy/rdp_sampled_gaussian.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Per-step add/remove RDP at each order asked for, each order computed once; NaN where
// the accountant's series does not converge (it then skips the order too).
class StepRdp {
 public:
  StepRdp(double q, double sigma) : q_(q), sigma_(sigma) {}

  Result<double> at(double order) {
    if (auto found = cache_.find(order); found != cache_.end()) return found->second;
    auto value = privacy::sampledGaussianRdp(q_, sigma_, order);
    if (!value && value.error().kind != ErrorKind::Internal) return value.error();
    const double stored = value ? value.value() : kNaN;
    cache_.emplace(order, stored);
    return stored;
  }

 private:
  double q_, sigma_;
  std::map<double, double> cache_;
};

}  // namespace

Result<SubstitutionAccount> accountSubstitution(double q, double sigma, long long steps, double delta) {
  if (!(q > 0 && q <= 1)) return privacy::invalidParameter("q", "in (0, 1]", q);
  if (auto ok = privacy::requirePositive("sigma", sigma); !ok) return ok.error();
  if (steps < 1) return privacy::invalidParameter("steps", "a whole number >= 1", static_cast<double>(steps));
  if (auto ok = privacy::requireOpenUnit("delta", delta); !ok) return ok.error();

  const std::vector<double> orders = privacy::defaultRdpOrders();
  const double T = static_cast<double>(steps);
  std::vector<double> substitution(orders.size()), addRemove(orders.size());
  StepRdp step(q, sigma);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double alpha = orders[i];
    auto plain = step.at(alpha);
    if (!plain) return plain.error();
    addRemove[i] = T * plain.value();
    if (q >= 1) {
      // No subsampling: the Gaussian mechanism of sensitivity 2 (in units of ν), exactly.
      substitution[i] = T * 2.0 * alpha / (sigma * sigma);
      continue;
    }
    auto toNeighbour = step.at(2 * alpha);
    auto fromNeighbour = step.at(2 * alpha - 1);
    if (!toNeighbour) return toNeighbour.error();
    if (!fromNeighbour) return fromNeighbour.error();
    substitution[i] = T * ((alpha - 0.5) / (alpha - 1) * toNeighbour.value() + fromNeighbour.value());
  }
  using privacy::RdpConversion;
  auto improved = privacy::rdpToEpsilon(orders, substitution, delta, RdpConversion::Improved);
  auto classic = privacy::rdpToEpsilon(orders, substitution, delta, RdpConversion::Classic);
  auto reference = privacy::rdpToEpsilon(orders, addRemove, delta, RdpConversion::Improved);
  for (const auto* r : {&improved, &classic, &reference})
    if (!*r) return r->error();
  return SubstitutionAccount{improved.value().epsilon, improved.value().order, classic.value().epsilon,
                             reference.value().epsilon};
}

Result<SubstitutionCalibration> calibrateSubstitution(double q, long long steps, double delta,
                                                      double targetEpsilon) {
  if (auto ok = privacy::requirePositive("target_epsilon", targetEpsilon); !ok) return ok.error();
  auto first = accountSubstitution(q, 1.0, steps, delta);  // validates everything but σ
  if (!first) return first.error();

  // ε(σ) falls as σ grows, towards the floor the largest order can certify. Bracket by
  // doubling and halving, then bisect geometrically; keep the upper end (ε ≤ target).
  constexpr double kMaxSigma = 1e8;
  double hi = 1.0;
  SubstitutionAccount hiAccount = first.value();
  while (hiAccount.epsilon > targetEpsilon) {
    hi *= 2.0;
    if (hi > kMaxSigma)
      return privacy::invalidParameter("target_epsilon",
                                       "reachable (above the floor these RDP orders can certify at this delta, ~" +
                                           privacy::formatNumber(hiAccount.epsilon) + ")",
                                       targetEpsilon);
    auto account = accountSubstitution(q, hi, steps, delta);
    if (!account) return account.error();
    hiAccount = account.value();
  }
  double lo = hi;
  for (;;) {
    lo *= 0.5;
    auto account = accountSubstitution(q, lo, steps, delta);
    if (!account) return account.error();
    if (account.value().epsilon > targetEpsilon) break;
    hi = lo;
    hiAccount = account.value();
    if (lo < 1e-12) return SubstitutionCalibration{hi, hiAccount};
  }
  while (hi - lo > 1e-9 * hi) {
    const double mid = std::sqrt(lo) * std::sqrt(hi);
    auto account = accountSubstitution(q, mid, steps, delta);
    if (!account) return account.error();
    if (account.value().epsilon <= targetEpsilon) {
      hi = mid;
      hiAccount = account.value();
    } else {
      lo = mid;
    }
  }
  return SubstitutionCalibration{hi, hiAccount};
}

}  // namespace dpstudio::mech
