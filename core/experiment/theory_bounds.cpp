#include "core/experiment/theory_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/models/huber.h"
#include "core/prediction/multiparty_options.h"

namespace dpstudio::experiment {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool positive(double x) { return std::isfinite(x) && x > 0.0; }
bool probability(double delta) { return std::isfinite(delta) && delta > 0.0 && delta < 1.0; }

// The excess risk of the model Φ = 0 (LMGC) is at most the objective there, every term of J
// being ≥ 0 at the minimizer: each example pays Σ_{c≠y} H_h(0) = (C−1)·H_h(0).
double lmgcZeroModelLoss(double classes, double h) { return (classes - 1.0) * huber::loss(0.0, h); }

const char* const kLmgcCaveat =
    "Paper 000's proofs rest on its Lemma 2 (J strongly convex), which does not hold for its objective: the "
    "Huber loss is not strongly convex and the trace regularizer is linear (docs/algorithms.md §3 D). The bounds are "
    "for the paper's noise, one (d+1)×(d+1) matrix b with ‖b‖ ~ Γ((d+1)², 2/ε).";
const char* const kLmgcCorrectedCaveat =
    " This series draws the corrected noise (loss perturbation over the symmetric matrices), which the "
    "theorems do not cover: the bound is drawn for reference.";
const char* const kAggregateCorrectedCaveat =
    "Derived for the paper's noise, Laplace of scale 2/(n_(1)ελ) per coordinate; this series draws the "
    "corrected ℓ2-Laplace noise (docs/algorithms.md §3 I), which the theorem does not cover: the bound is drawn for "
    "reference.";

}  // namespace

double lmgcEmpiricalExcessRiskBound(double d, double classes, double epsilon, double lambda, double delta) {
  if (!positive(d) || !positive(classes) || !positive(epsilon) || !positive(lambda) || !probability(delta))
    return kNaN;
  const double log = std::log(d / delta);
  return 8.0 * std::pow(d + 1.0, 4) * classes / (epsilon * epsilon * lambda) * log * log;
}

double lmgcTrueExcessRiskBound(double d, double classes, double n, double epsilon, double lambda, double delta) {
  if (!positive(n)) return kNaN;
  const double empirical = lmgcEmpiricalExcessRiskBound(d, classes, epsilon, lambda, delta);
  if (!std::isfinite(empirical)) return kNaN;
  const double trace = 4.0 * std::sqrt(d) * (d + 1.0) * (d + 1.0) * classes / (epsilon * lambda) * std::log(d / delta);
  const double generalization = 16.0 / (lambda * n) * (32.0 + std::log(1.0 / delta));
  return trace + empirical + generalization;
}

double aggregateDistanceBound(double parties, double smallestParty, double lambda) {
  if (!(std::isfinite(parties) && parties >= 1.0) || !positive(smallestParty) || !positive(lambda)) return kNaN;
  return (parties - 1.0) / (smallestParty * lambda);
}

double aggregateEmpiricalExcessRiskBound(double d, double parties, double smallestParty, double epsilon,
                                         double lambda, double delta) {
  if (!positive(d) || !(std::isfinite(parties) && parties >= 1.0) || !positive(smallestParty) ||
      !positive(epsilon) || !positive(lambda) || !probability(delta))
    return kNaN;
  const double K1 = parties - 1.0, n2 = smallestParty * smallestParty, l2 = lambda * lambda, l1 = lambda + 1.0;
  const double log = std::log(d / delta);
  return K1 * K1 * l1 / (2.0 * n2 * l2) + 2.0 * d * d * l1 / (n2 * epsilon * epsilon * l2) * log * log +
         2.0 * d * K1 * l1 / (n2 * epsilon * l2) * log;
}

double aggregateTrueExcessRiskBound(double d, double parties, double smallestParty, double n, double epsilon,
                                    double lambda, double delta) {
  if (!positive(n) || !std::isfinite(aggregateEmpiricalExcessRiskBound(d, parties, smallestParty, epsilon, lambda, delta)))
    return kNaN;
  const double K1 = parties - 1.0, n2 = smallestParty * smallestParty, l2 = lambda * lambda, l1 = lambda + 1.0;
  const double log = std::log(d / delta);
  return 2.0 * K1 * K1 * l1 / (2.0 * n2 * l2) + 4.0 * d * K1 * l1 / (n2 * epsilon * l2) * log +
         4.0 * d * d * l1 / (n2 * epsilon * epsilon * l2) * log * log +
         16.0 / (lambda * n) * (32.0 + std::log(1.0 / delta));
}

std::string quantityName(BoundedQuantity quantity) {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance: return "distance";
    case BoundedQuantity::EmpiricalExcessRisk: return "empirical-excess-risk";
    case BoundedQuantity::TrueExcessRisk: return "true-excess-risk";
  }
  return {};
}

std::string quantityTitle(BoundedQuantity quantity) {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance: return "Distance to the all-data model ‖ŵ − w*‖";
    case BoundedQuantity::EmpiricalExcessRisk: return "Empirical excess risk J(θ) − J(θ*)";
    case BoundedQuantity::TrueExcessRisk: return "True excess risk (estimated on the test rows)";
  }
  return {};
}

std::string quantitySymbol(BoundedQuantity quantity) {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance: return "‖ŵ − w*‖";
    case BoundedQuantity::EmpiricalExcessRisk: return "J(θ) − J(θ*)";
    case BoundedQuantity::TrueExcessRisk: return "test risk − θ*'s";
  }
  return {};
}

std::string quantityDefinition(BoundedQuantity quantity) {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance:
      return "Multiparty: ‖ŵ − w*‖, the parties' noiseless average against the minimizer of J on all the "
             "training rows (paper 004 Theorem 4.2). The same for every ε: no noise enters it. With one party ŵ "
             "is w*, up to the two solvers' tolerances.";
    case BoundedQuantity::EmpiricalExcessRisk:
      return "J(θ) − J(θ*) on the training rows, θ the released model, θ* the non-private minimizer, J the "
             "learner's regularized objective: LMGC Σℓ + λ(Σ tr Ψ + ½‖Φ‖²) (sum scale, as paper 000), "
             "multiparty (1/n)Σℓ + λ‖w‖² (paper 004).";
    case BoundedQuantity::TrueExcessRisk:
      return "The excess risk in expectation over the data, estimated on the test rows: LMGC the mean test "
             "loss minus Φ*'s (paper 000's L̃, no regularizer), multiparty the mean test loss + λ‖w‖² minus "
             "w*'s (paper 004's J̃).";
  }
  return {};
}

std::vector<PublishedBound> publishedBounds(const PrivacyPlan& plan, const BoundShape& shape, double delta) {
  std::vector<PublishedBound> out;
  if (shape.rows < 1 || shape.features < 1 || shape.classes < 2 || !probability(delta)) return out;
  const double n = static_cast<double>(shape.rows), d = static_cast<double>(shape.features);
  const double C = static_cast<double>(shape.classes);

  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    if (t->options.kind != mech::MechanismKind::DpLmgc || !t->tuneLambdas.empty()) return out;
    const double lambda = t->options.learner.lambda, epsilon = t->options.epsilon;
    std::string caveat = kLmgcCaveat;
    if (t->options.calibration == mech::Calibration::Corrected) caveat += kLmgcCorrectedCaveat;
    const double zero = lmgcZeroModelLoss(C, t->options.learner.huber);
    out.push_back({"Paper 000, Theorem 2", "8(d+1)⁴C/(ε²λ)·log²(d/δ)", BoundedQuantity::EmpiricalExcessRisk,
                   lmgcEmpiricalExcessRiskBound(d, C, epsilon, lambda, delta), caveat, n * zero,
                   "Excess risk of Φ = 0 (uses no data)",
                   "n(C−1)·H_h(0) = J(Φ = 0) ≥ its excess risk: a bound above it does not rule out a model that "
                   "learned nothing"});
    out.push_back({"Paper 000, Theorem 3",
                   "4√d(d+1)²C/(ελ)·log(d/δ) + 8(d+1)⁴C/(ε²λ)·log²(d/δ) + 16/(λn)·(32 + log(1/δ))",
                   BoundedQuantity::TrueExcessRisk, lmgcTrueExcessRiskBound(d, C, n, epsilon, lambda, delta), caveat,
                   zero, "Excess risk of Φ = 0 (uses no data)",
                   "(C−1)·H_h(0), the expected loss of Φ = 0, is at least its excess risk: a bound above it does "
                   "not rule out a model that learned nothing"});
    return out;
  }
  const auto* m = std::get_if<Multiparty>(&plan.choice);
  if (!m || m->options.model != ModelKind::LogisticRegression) return out;
  auto sizes = multiparty::partySizes(shape.rows, m->options);
  if (!sizes || sizes.value().empty()) return out;
  Index smallest = sizes.value().front();
  for (Index size : sizes.value()) smallest = std::min(smallest, size);
  const double K = static_cast<double>(m->options.partyCount()), n1 = static_cast<double>(smallest);
  const double lambda = m->options.lambda, epsilon = m->options.epsilon;
  const std::string noiseCaveat =
      m->options.calibration == mech::Calibration::Corrected ? kAggregateCorrectedCaveat : std::string();
  // Every minimizer of J(w) = (1/n)Σℓ + λ‖w‖² has λ‖w‖² ≤ J(0) = log 2: ‖w‖ ≤ √(log 2/λ), for
  // ŵ (an average of such) and w* alike.
  const double log2 = std::log(2.0);
  out.push_back({"Paper 004, Theorem 4.2", "(K−1)/(n_(1)λ)", BoundedQuantity::ParameterDistance,
                 aggregateDistanceBound(K, n1, lambda), {}, 2.0 * std::sqrt(log2 / lambda),
                 "Largest possible distance 2√(log 2/λ)",
                 "every minimizer of J has ‖w‖ ≤ √(log 2/λ), so no two are farther apart than 2√(log 2/λ)"});
  out.push_back({"Paper 004, Theorem 4.3",
                 "(K−1)²(λ+1)/(2n_(1)²λ²) + 2d²(λ+1)/(n_(1)²ε²λ²)·log²(d/δ) + 2d(K−1)(λ+1)/(n_(1)²ελ²)·log(d/δ)",
                 BoundedQuantity::EmpiricalExcessRisk,
                 aggregateEmpiricalExcessRiskBound(d, K, n1, epsilon, lambda, delta), noiseCaveat, log2,
                 "Excess risk of w = 0 (uses no data)",
                 "log 2 = J(w = 0) ≥ its excess risk: a bound above it does not rule out a model that learned "
                 "nothing"});
  out.push_back({"Paper 004, Theorem 4.4",
                 "2(K−1)²(λ+1)/(2n_(1)²λ²) + 4d(K−1)(λ+1)/(n_(1)²ελ²)·log(d/δ) + 4d²(λ+1)/(n_(1)²ε²λ²)·log²(d/δ) "
                 "+ 16/(λn)·(32 + log(1/δ))",
                 BoundedQuantity::TrueExcessRisk,
                 aggregateTrueExcessRiskBound(d, K, n1, n, epsilon, lambda, delta), noiseCaveat, log2,
                 "Excess risk of w = 0 (uses no data)",
                 "log 2 = J̃(w = 0) ≥ its excess risk: a bound above it does not rule out a model that learned "
                 "nothing"});
  return out;
}

std::string whyNoBound(const PrivacyPlan& plan) {
  if (const auto* t = std::get_if<TrainingMechanism>(&plan.choice)) {
    if (t->options.kind == mech::MechanismKind::DpLmgc)
      return t->tuneLambdas.empty() ? std::string() : "λ is tuned privately: the bounds need a fixed λ";
    return "docs/algorithms.md §4 has bounds for DP-LMGC (paper 000) and multiparty aggregation (paper 004) only";
  }
  if (const auto* m = std::get_if<Multiparty>(&plan.choice))
    return m->options.model == ModelKind::LogisticRegression
               ? std::string()
               : "paper 004 states its bounds for logistic regression";
  if (!plan.isPrivate()) return "the non-private model is the bounds' reference, not their subject";
  return "docs/algorithms.md §4 has bounds for DP-LMGC (paper 000) and multiparty aggregation (paper 004) only";
}

}  // namespace dpstudio::experiment
