#include "core/privacy/rdp_accountant.h"

#include <cmath>
#include <limits>

#include "core/privacy/rdp_sampled_gaussian.h"
#include "core/privacy/validation.h"

namespace dpstudio::privacy {
namespace {

Status validateOrders(const std::vector<double>& orders) {
  if (orders.empty())
    return Error{ErrorKind::InvalidPrivacy, "order list must not be empty", {}, 0, "order"};
  for (double order : orders)
    if (!(std::isfinite(order) && order > 1)) return invalidParameter("order", "finite and > 1", order);
  return Ok{};
}

Status validateEvent(const SgmEvent& event) {
  if (!(event.q > 0 && event.q <= 1)) return invalidParameter("q", "in (0, 1]", event.q);
  if (auto ok = requirePositive("sigma", event.sigma); !ok) return ok;
  if (event.steps < 1)
    return invalidParameter("steps", "a whole number >= 1", static_cast<double>(event.steps));
  return Ok{};
}

Error forEvent(Error error, std::size_t index) {
  error.message += " (event " + std::to_string(index + 1) + ")";
  return error;
}

}  // namespace

std::vector<double> defaultRdpOrders() {
  std::vector<double> orders = {1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5};
  for (int order = 5; order <= 63; ++order) orders.push_back(order);
  orders.insert(orders.end(), {128, 256, 512});
  return orders;
}

Result<EpsilonAtOrder> rdpToEpsilon(const std::vector<double>& orders,
                                    const std::vector<double>& rdp, double delta,
                                    RdpConversion conversion) {
  if (auto ok = requireOpenUnit("delta", delta); !ok) return ok.error();
  if (orders.size() != rdp.size())
    return Error{ErrorKind::Internal, "orders and RDP values differ in length", {}, 0, "order"};
  const double logDelta = std::log(delta);
  EpsilonAtOrder best{std::numeric_limits<double>::infinity(), 0.0};
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double alpha = orders[i];
    if (!(alpha > 1) || !std::isfinite(rdp[i])) continue;
    const double epsilon =
        conversion == RdpConversion::Classic
            ? rdp[i] - logDelta / (alpha - 1)
            : rdp[i] + std::log1p(-1.0 / alpha) - (logDelta + std::log(alpha)) / (alpha - 1);
    if (epsilon < best.epsilon) best = {epsilon, alpha};
  }
  if (best.order == 0.0)
    return Error{ErrorKind::Internal, "no order has a finite RDP value", {}, 0, "order"};
  best.epsilon = std::max(best.epsilon, 0.0);
  return best;
}

RdpAccountant::RdpAccountant(std::vector<double> orders)
    : orders_(std::move(orders)), rdp_(orders_.size(), 0.0) {}

Status RdpAccountant::addEvent(const SgmEvent& event) {
  if (auto ok = validateOrders(orders_); !ok) return ok;
  if (auto ok = validateEvent(event); !ok) return ok;
  std::vector<double> updated = rdp_;
  for (std::size_t i = 0; i < orders_.size(); ++i) {
    auto step = sampledGaussianRdp(event.q, event.sigma, orders_[i]);
    if (!step) {
      if (step.error().kind != ErrorKind::Internal) return step.error();
      updated[i] = std::numeric_limits<double>::quiet_NaN();  // skipped, reported
      continue;
    }
    updated[i] += static_cast<double>(event.steps) * step.value();
  }
  rdp_ = std::move(updated);
  events_.push_back(event);
  return Ok{};
}

Result<RdpReport> RdpAccountant::report(double delta) const {
  if (auto ok = requireOpenUnit("delta", delta); !ok) return ok.error();
  if (auto ok = validateOrders(orders_); !ok) return ok.error();
  RdpReport report;
  report.delta = delta;
  for (std::size_t i = 0; i < orders_.size(); ++i) {
    if (std::isnan(rdp_[i])) {
      report.skippedOrders.push_back(orders_[i]);
    } else {
      report.orders.push_back(orders_[i]);
      report.rdp.push_back(rdp_[i]);
    }
  }
  if (!report.skippedOrders.empty()) {
    report.note = "orders skipped (their RDP series did not converge):";
    for (double order : report.skippedOrders) report.note += " " + formatNumber(order);
  }
  auto improved = rdpToEpsilon(report.orders, report.rdp, delta, RdpConversion::Improved);
  if (!improved) return improved.error();
  auto classic = rdpToEpsilon(report.orders, report.rdp, delta, RdpConversion::Classic);
  if (!classic) return classic.error();
  report.improved = improved.value();
  report.classic = classic.value();
  return report;
}

Result<RdpReport> accountSampledGaussian(const std::vector<SgmEvent>& events, double delta,
                                         const std::vector<double>& orders) {
  if (events.empty())
    return Error{ErrorKind::InvalidPrivacy, "at least one event (q, sigma, steps) is needed", {},
                 0, "steps"};
  if (auto ok = requireOpenUnit("delta", delta); !ok) return ok.error();
  RdpAccountant accountant(orders);
  for (std::size_t i = 0; i < events.size(); ++i)
    if (auto ok = accountant.addEvent(events[i]); !ok) return forEvent(ok.error(), i);
  return accountant.report(delta);
}

Result<SigmaCalibration> calibrateSgmSigma(const std::vector<SgmEvent>& events, double delta,
                                           double targetEpsilon, RdpConversion conversion,
                                           const std::vector<double>& orders) {
  if (auto ok = requirePositive("target_epsilon", targetEpsilon); !ok) return ok.error();
  if (events.empty())
    return Error{ErrorKind::InvalidPrivacy, "at least one event (q, steps) is needed", {}, 0,
                 "steps"};
  std::vector<SgmEvent> withSigma = events;
  auto evaluate = [&](double sigma) -> Result<RdpReport> {
    for (SgmEvent& event : withSigma) event.sigma = sigma;
    return accountSampledGaussian(withSigma, delta, orders);
  };
  auto epsilonOf = [&](const RdpReport& report) {
    return conversion == RdpConversion::Improved ? report.improved.epsilon : report.classic.epsilon;
  };
  // Validates everything but σ once, at σ = 1.
  auto first = evaluate(1.0);
  if (!first) return first.error();

  // ε(σ) falls as σ grows, towards the floor the largest order allows (e.g. ~0.008 at
  // δ = 1e-5 with order 512). Bracket by doubling and halving, then bisect.
  constexpr double kMaxSigma = 1e8;
  double hi = 1.0;
  RdpReport hiReport = first.value();
  while (epsilonOf(hiReport) > targetEpsilon) {
    hi *= 2.0;
    if (hi > kMaxSigma)
      return invalidParameter("target_epsilon",
                              "reachable (above the floor these RDP orders can certify at this "
                              "delta, ~" + formatNumber(epsilonOf(hiReport)) + ")",
                              targetEpsilon);
    auto report = evaluate(hi);
    if (!report) return report.error();
    hiReport = report.value();
  }
  double lo = hi;
  for (;;) {
    lo *= 0.5;
    auto report = evaluate(lo);
    if (!report) return report.error();
    if (epsilonOf(report.value()) > targetEpsilon) break;
    hi = lo;
    hiReport = report.value();
    if (lo < 1e-12) return SigmaCalibration{hi, hiReport};  // any σ will do
  }
  while (hi - lo > 1e-10 * hi) {
    const double mid = std::sqrt(lo) * std::sqrt(hi);
    auto report = evaluate(mid);
    if (!report) return report.error();
    if (epsilonOf(report.value()) <= targetEpsilon) {
      hi = mid;
      hiReport = report.value();
    } else {
      lo = mid;
    }
  }
  return SigmaCalibration{hi, hiReport};
}

}  // namespace dpstudio::privacy
