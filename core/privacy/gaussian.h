#pragma once
// Calibration of Gaussian noise N(0, σ²I) for a function of ℓ2-sensitivity Δ
// (docs/algorithms.md §1.1). All functions are pure and thread-safe. Parameters are validated:
// epsilon finite > 0, delta in (0, 1), sensitivity finite > 0; errors are
// ErrorKind::InvalidPrivacy and name the parameter.

#include "core/util/result.h"

namespace dpstudio::privacy {

// The exact privacy profile of the Gaussian mechanism (Balle & Wang 2018, Thm 8):
// δ(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ), the smallest δ for which N(0, σ²) is
// (ε, δ)-DP. Returned as log δ(σ), never forming e^ε or a tiny Φ on its own (ε = 1000 and
// δ = 1e-300 are fine): with a = Δ/(2σ), b = εσ/Δ, either
// log Φ(a−b) + log(−expm1(ε + log Φ(−a−b) − log Φ(a−b))) (a ≥ b), or, using e^ε·φ(a+b) =
// φ(b−a), log φ(b−a) + log(M(b−a) − M(b+a)) with the Mills ratio M (a < b), which avoids
// the cancellation of ε against the log Φ difference. Relative accuracy of δ ~1e-13 or
// better over ε in [1e-4, 1000], δ in [1e-300, 0.9] (checked against 60-digit arithmetic
// through the σ it yields). −∞ when δ(σ) rounds to 0. Not validated: σ, ε, Δ > 0.
double logGaussianDelta(double sigma, double epsilon, double sensitivity);

// δ(σ) itself (may underflow to 0 for very large σ), validated.
Result<double> gaussianDelta(double sigma, double epsilon, double sensitivity);

// The analytic calibration: the smallest σ with δ(σ) ≤ delta, by bisection on log σ to a
// relative bracket width of 1e-14. The returned σ is the bracket's upper end, so it
// satisfies the condition as evaluated (logGaussianDelta(σ) ≤ log delta) and σ·(1 − 1e-9)
// does not; it is within 1e-12 (relative) of the exact σ over the range above.
Result<double> analyticGaussianSigma(double epsilon, double delta, double sensitivity);

// The same σ by paper 003's Algorithm 2 (Balle & Wang 2018, Alg. 1): σ = α·Δ/√(2ε), with
// δ0 = Φ(0) − e^ε·Φ(−√(2ε)) and
//  - δ ≥ δ0: v* = sup{v ≥ 0 : Φ(√(εv)) − e^ε·Φ(−√(ε(v+2))) ≤ δ}, α = √(1+v*/2) − √(v*/2);
//  - δ < δ0: u* = inf{u ≥ 0 : Φ(−√(εu)) − e^ε·Φ(−√(ε(u+2))) ≤ δ}, α = √(1+u*/2) + √(u*/2)
//    (the paper's text is cut off here; this is Balle & Wang's branch).
// Bisection on v or u, keeping the side that satisfies the condition. Exists to be tested
// against analyticGaussianSigma; mechanisms use that one.
Result<double> analyticGaussianAlpha(double epsilon, double delta);
Result<double> analyticGaussianSigmaAlpha(double epsilon, double delta, double sensitivity);

// The classical calibration σ = Δ·√(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1), for
// comparison only: its proof needs ε < 1, so epsilon ≥ 1 is rejected (the analytic σ is
// smaller anyway).
Result<double> classicalGaussianSigma(double epsilon, double delta, double sensitivity);

}  // namespace dpstudio::privacy
