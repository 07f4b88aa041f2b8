#pragma once
// The theoretical bounds of docs/algorithms.md §4, "as published": each paper's formula with its own
// constants, evaluated, not re-derived. The product does not verify them; where docs/algorithms.md
// says a paper's proof does not hold, publishedBounds() says so in the bound's caveat.
//
// Paper 000 (Pathak & Raj 2010), DP-LMGC, with probability at least 1 − δ:
//   Theorem 2  J(Φ^p) − J(Φ*) ≤ 8(d+1)⁴C/(ε²λ)·log²(d/δ)
//   Theorem 3  L̃(Φ^p) − L̃(Φ*) ≤ 4√d(d+1)²C/(ελ)·log(d/δ) + 8(d+1)⁴C/(ε²λ)·log²(d/δ)
//                                 + 16/(λn)·(32 + log(1/δ))
// Paper 004 (Pathak, Rane & Raj 2010), multiparty aggregation of K logistic regressions,
// n_(1) the smallest party's rows, J(w) = (1/n)Σℓ + λ‖w‖²:
//   Theorem 4.2  ‖ŵ − w*‖ ≤ (K−1)/(n_(1)λ)                                  (always)
//   Theorem 4.3  J(ŵ_s) − J(w*) ≤ (K−1)²(λ+1)/(2n_(1)²λ²) + 2d²(λ+1)/(n_(1)²ε²λ²)·log²(d/δ)
//                                 + 2d(K−1)(λ+1)/(n_(1)²ελ²)·log(d/δ)         (w.p. ≥ 1 − δ)
//   Theorem 4.4  J̃(ŵ_s) − J̃(w*) ≤ 2(K−1)²(λ+1)/(2n_(1)²λ²) + 4d(K−1)(λ+1)/(n_(1)²ελ²)·log(d/δ)
//                                 + 4d²(λ+1)/(n_(1)²ε²λ²)·log²(d/δ) + 16/(λn)·(32 + log(1/δ))
// as printed (paper 004, §4.2). The text extraction of paper 004 lost every ε
// glyph; they are restored where the paper puts them: its eq. (4) (K = 1) reads
// 2d²(λ+1)/(n²ε²λ²)·log²(d/δ), and its remark that for ε → ∞ Theorem 4.3 becomes
// (K−1)²(λ+1)/(2n_(1)²λ²) puts ε in the denominators of both other terms (ε² where the noise
// enters squared, ε where it enters once). Theorem 4.4's first term is printed with a 2
// in numerator and denominator (twice Theorem 4.3's); it is evaluated as printed.
//
// Here δ is the bounds' failure probability, not a privacy parameter: the bounds are for
// pure ε-DP noise, and δ is the confidence a chart chooses (0.05: "with probability 0.95").
// d: features the model reads; C: classes; n: training rows; λ as each paper writes it
// (paper 000: the weight of the trace regularizer, sum scale; paper 004: of λ‖w‖², mean
// scale — in both cases the product's own λ of that mechanism).
//
// Plain functions, no Qt; every input finite and > 0 (K ≥ 1, 0 < δ < 1), else NaN.

#include <string>
#include <vector>

#include "core/experiment/privacy_plan.h"

namespace dpstudio::experiment {

// Paper 000, Theorems 2 and 3.
double lmgcEmpiricalExcessRiskBound(double d, double classes, double epsilon, double lambda, double delta);
double lmgcTrueExcessRiskBound(double d, double classes, double n, double epsilon, double lambda, double delta);
// Paper 004, Theorems 4.2, 4.3 and 4.4.
double aggregateDistanceBound(double parties, double smallestParty, double lambda);
double aggregateEmpiricalExcessRiskBound(double d, double parties, double smallestParty, double epsilon,
                                         double lambda, double delta);
double aggregateTrueExcessRiskBound(double d, double parties, double smallestParty, double n, double epsilon,
                                    double lambda, double delta);

// What a bound bounds, and what a sweep measures to draw beside it (trial_measures.h).
enum class BoundedQuantity {
  ParameterDistance,    // ‖ŵ − w*‖: multiparty's noiseless average against the all-data minimizer
  EmpiricalExcessRisk,  // J(θ) − J(θ*) on the training rows, J the learner's regularized objective
  TrueExcessRisk,       // the same risk in expectation over the data, estimated on the test rows
};
std::string quantityName(BoundedQuantity quantity);   // "distance", "empirical-excess-risk", "true-excess-risk"
std::string quantityTitle(BoundedQuantity quantity);  // "Empirical excess risk J(θ) − J(θ*)"
std::string quantitySymbol(BoundedQuantity quantity);  // short, for an axis: "J(θ) − J(θ*)"
// What the measured value is, exactly, per model (for a tooltip).
std::string quantityDefinition(BoundedQuantity quantity);

// The data a bound is evaluated for: a trial's training part.
struct BoundShape {
  Index rows = 0;      // n
  Index features = 0;  // d
  Index classes = 0;   // C
};

// One published bound for one plan on data of one shape.
struct PublishedBound {
  std::string source;   // "Paper 000, Theorem 2"
  std::string formula;  // "8(d+1)⁴C/(ε²λ)·log²(d/δ)"
  BoundedQuantity quantity = BoundedQuantity::EmpiricalExcessRisk;
  double value = 0;     // the bound; may be huge
  // What the paper's proof, or the mechanism the plan runs, does not give (empty if nothing).
  std::string caveat;
  // The level above which the bound says nothing for these data: a quantity no model of this
  // objective can exceed (distance), or what the model θ = 0, which uses no data, already
  // achieves (excess risk: a bound above it does not rule out a useless model). Data-
  // independent (see vacuityLevel in the .cpp for each).
  double vacuousAbove = 0;
  std::string vacuousLabel;    // short, for a legend: "Largest possible distance 2√(log 2/λ)"
  std::string vacuousMeaning;  // why: "every minimizer of J has ‖w‖ ≤ √(log 2/λ), so no two are farther apart"
};

// The bounds of docs/algorithms.md §4 that apply to `plan` on data of `shape`, at confidence 1 − δ:
// DP-LMGC (either calibration, λ fixed) → paper 000 Theorems 2 and 3; multiparty with
// logistic regression → paper 004 Theorems 4.2, 4.3 and 4.4. Empty for any other plan (and
// for a shape without rows, features or classes).
std::vector<PublishedBound> publishedBounds(const PrivacyPlan& plan, const BoundShape& shape, double delta);

// Why no bound applies to a plan (for a chart's note); empty when some bound does.
std::string whyNoBound(const PrivacyPlan& plan);

}  // namespace dpstudio::experiment
