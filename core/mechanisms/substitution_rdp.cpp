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

// Adds one event's substitution and add/remove RDP at every order (NaN where a series did
// not converge: rdpToEpsilon then skips the order).
Status addEventRdp(const privacy::SgmEvent& event, const std::vector<double>& orders, std::vector<double>& substitution,
                   std::vector<double>& addRemove) {
  const double T = static_cast<double>(event.steps);
  StepRdp step(event.q, event.sigma);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double alpha = orders[i];
    auto plain = step.at(alpha);
    if (!plain) return plain.error();
    addRemove[i] += T * plain.value();
    if (event.q >= 1) {
      // No subsampling: the Gaussian mechanism of sensitivity 2 (in units of ν), exactly.
      substitution[i] += T * 2.0 * alpha / (event.sigma * event.sigma);
      continue;
    }
    auto toNeighbour = step.at(2 * alpha);
    auto fromNeighbour = step.at(2 * alpha - 1);
    if (!toNeighbour) return toNeighbour.error();
    if (!fromNeighbour) return fromNeighbour.error();
    substitution[i] += T * ((alpha - 0.5) / (alpha - 1) * toNeighbour.value() + fromNeighbour.value());
  }
  return Ok{};
}

}  // namespace

Result<std::vector<double>> substitutionRdpCurve(const privacy::SgmEvent& event, const std::vector<double>& orders) {
  std::vector<double> substitution(orders.size(), 0.0), addRemove(orders.size(), 0.0);
  if (auto added = addEventRdp(event, orders, substitution, addRemove); !added) return added.error();
  for (double& value : substitution)
    if (std::isnan(value)) value = std::numeric_limits<double>::infinity();
  return substitution;
}

Result<SubstitutionAccount> accountSubstitution(const std::vector<privacy::SgmEvent>& events, double delta) {
  if (events.empty())
    return Error{ErrorKind::InvalidPrivacy, "at least one event (q, sigma, steps) is needed", {}, 0, "steps"};
  for (std::size_t e = 0; e < events.size(); ++e) {
    const privacy::SgmEvent& event = events[e];
    Status ok = Ok{};
    if (!(event.q > 0 && event.q <= 1)) ok = privacy::invalidParameter("q", "in (0, 1]", event.q);
    else if (auto positive = privacy::requirePositive("sigma", event.sigma); !positive) ok = positive;
    else if (event.steps < 1)
      ok = privacy::invalidParameter("steps", "a whole number >= 1", static_cast<double>(event.steps));
    if (!ok) {
      Error error = ok.error();
      if (events.size() > 1) error.message += " (event " + std::to_string(e + 1) + ")";
      return error;
    }
  }
  if (auto ok = privacy::requireOpenUnit("delta", delta); !ok) return ok.error();

  const std::vector<double> orders = privacy::defaultRdpOrders();
  std::vector<double> substitution(orders.size(), 0.0), addRemove(orders.size(), 0.0);
  for (const privacy::SgmEvent& event : events)
    if (auto added = addEventRdp(event, orders, substitution, addRemove); !added) return added.error();
  using privacy::RdpConversion;
  auto improved = privacy::rdpToEpsilon(orders, substitution, delta, RdpConversion::Improved);
  auto classic = privacy::rdpToEpsilon(orders, substitution, delta, RdpConversion::Classic);
  auto reference = privacy::rdpToEpsilon(orders, addRemove, delta, RdpConversion::Improved);
  for (const auto* r : {&improved, &classic, &reference})
    if (!*r) return r->error();
  return SubstitutionAccount{improved.value().epsilon, improved.value().order, classic.value().epsilon,
                             reference.value().epsilon};
}

Result<SubstitutionAccount> accountSubstitution(double q, double sigma, long long steps, double delta) {
  return accountSubstitution(std::vector<privacy::SgmEvent>{{q, sigma, steps}}, delta);
}

Result<SubstitutionCalibration> calibrateSubstitution(const std::vector<privacy::SgmEvent>& events, double delta,
                                                      double targetEpsilon) {
  if (auto ok = privacy::requirePositive("target_epsilon", targetEpsilon); !ok) return ok.error();
  std::vector<privacy::SgmEvent> withSigma = events;
  auto accountAt = [&](double sigma) {
    for (privacy::SgmEvent& event : withSigma) event.sigma = sigma;
    return accountSubstitution(withSigma, delta);
  };
  auto first = accountAt(1.0);  // validates everything but σ
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
    auto account = accountAt(hi);
    if (!account) return account.error();
    hiAccount = account.value();
  }
  double lo = hi;
  for (;;) {
    lo *= 0.5;
    auto account = accountAt(lo);
    if (!account) return account.error();
    if (account.value().epsilon > targetEpsilon) break;
    hi = lo;
    hiAccount = account.value();
    if (lo < 1e-12) return SubstitutionCalibration{hi, hiAccount};
  }
  while (hi - lo > 1e-9 * hi) {
    const double mid = std::sqrt(lo) * std::sqrt(hi);
    auto account = accountAt(mid);
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

Result<SubstitutionCalibration> calibrateSubstitution(double q, long long steps, double delta,
                                                      double targetEpsilon) {
  return calibrateSubstitution(std::vector<privacy::SgmEvent>{{q, 1.0, steps}}, delta, targetEpsilon);
}

}  // namespace dpstudio::mech
