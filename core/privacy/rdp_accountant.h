#pragma once
// The RDP accountant for DP-SGD (docs/algorithms.md §1.4, §3 E): composes several Poisson-subsampled
// Gaussian events — each (q, σ, steps), possibly all different — by adding their RDP
// curves order by order, converts the total to (ε, δ)-DP, and calibrates σ for a target ε.
// Pure functions and a value-type accountant; thread-safe as values are.

#include <string>
#include <vector>

#include "core/util/result.h"

namespace dpstudio::privacy {

// One run of `steps` DP-SGD steps at sampling rate q (in (0, 1]) and noise multiplier σ
// (> 0: noise std / clipping norm).
struct SgmEvent {
  double q = 0.0;
  double sigma = 0.0;
  long long steps = 0;  // ≥ 1
};

// 1.25, 1.5, 1.75, 2, 2.25, 2.5, 3, 3.5, 4, 4.5, 5, 6, …, 63, 128, 256, 512 (§1): the
// orders of the TensorFlow Privacy accountant, so results compare with published ones.
std::vector<double> defaultRdpOrders();

enum class RdpConversion {
  // Canonne, Kamath & Steinke 2020: ε = min_α RDP(α) + log((α−1)/α) − (log δ + log α)/(α−1).
  Improved,
  // Mironov 2017: ε = min_α RDP(α) + log(1/δ)/(α−1).
  Classic,
};

struct EpsilonAtOrder {
  double epsilon = 0.0;  // ≥ 0 (a negative minimum is reported as 0)
  double order = 0.0;    // the minimizing order
};

struct RdpReport {
  double delta = 0.0;
  EpsilonAtOrder improved;          // the headline ε
  EpsilonAtOrder classic;
  std::vector<double> orders;       // the orders used, ascending as given
  std::vector<double> rdp;          // total RDP at each used order
  std::vector<double> skippedOrders;  // orders whose series did not converge (normally none)
  std::string note;                 // "" or a sentence about skipped orders
};

// Converts a total RDP curve (orders and values of equal length, orders > 1) to ε at δ in
// (0, 1). Orders with a non-finite RDP are ignored; an error if none is left.
Result<EpsilonAtOrder> rdpToEpsilon(const std::vector<double>& orders,
                                    const std::vector<double>& rdp, double delta,
                                    RdpConversion conversion);

// Accumulates events. Errors (InvalidPrivacy) name "q", "sigma", "steps", "order", "delta"
// and, for event lists, say which event (1-based).
class RdpAccountant {
 public:
  // Orders must be finite and > 1 (checked by addEvent/report).
  explicit RdpAccountant(std::vector<double> orders = defaultRdpOrders());

  // Adds steps·RDP_step(α) at every order. Nothing changes on error.
  Status addEvent(const SgmEvent& event);
  Result<RdpReport> report(double delta) const;

  const std::vector<SgmEvent>& events() const { return events_; }
  const std::vector<double>& orders() const { return orders_; }

 private:
  std::vector<double> orders_;
  std::vector<double> rdp_;        // running totals; NaN marks a skipped order
  std::vector<SgmEvent> events_;
};

// ε of the composition of `events` at δ.
Result<RdpReport> accountSampledGaussian(const std::vector<SgmEvent>& events, double delta,
                                         const std::vector<double>& orders = defaultRdpOrders());

// The σ, shared by all events (their own sigma fields are ignored), for which the composed
// ε under `conversion` is at most targetEpsilon: geometric bisection to a relative bracket
// of 1e-10, returning the bracket's upper end, so ε(σ) ≤ target always holds (conservative;
// ε(σ·(1 − 1e-9)) may exceed it). Errors: target_epsilon not finite/positive, or below the
// smallest ε these orders can certify (then no σ ≤ 1e8 reaches it).
struct SigmaCalibration {
  double sigma = 0.0;
  RdpReport report;  // at the returned σ
};
Result<SigmaCalibration> calibrateSgmSigma(const std::vector<SgmEvent>& events, double delta,
                                           double targetEpsilon,
                                           RdpConversion conversion = RdpConversion::Improved,
                                           const std::vector<double>& orders = defaultRdpOrders());

}  // namespace dpstudio::privacy
