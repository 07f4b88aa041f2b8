#pragma once
// Random Fourier features (docs/algorithms.md §2.4; paper 002 §6; Rahimi & Recht 2007) for the RBF
// kernel k(x, x') = exp(−γ‖x − x'‖²): D random cosines, so that a linear model on φ(x) is
// an approximate kernel machine in x.
//
//   ω_j ~ N(0, 2γ I_d),   b_j ~ U[0, 2π),   φ_j(x) = cos(ω_jᵀx + b_j) / √D,   j = 1..D
//
// Scale: k is the characteristic function of N(0, 2γI) (Bochner), and
// E[2·cos(ωᵀx + b)·cos(ωᵀx' + b)] = k(x, x'), so 2·φ(x)ᵀφ(x') → k(x, x') as D grows.
// Rahimi & Recht put the factor √2 into φ; docs/algorithms.md §2.4 leaves it out so that
// ‖φ(x)‖² = Σ_j cos²(·)/D ≤ 1 for EVERY x: the features meet every mechanism's ‖x‖ ≤ 1
// without a norm bound. (A linear model absorbs the constant factor into θ.)
//
// Privacy: the draws depend on (d, D, γ, seed) only, never on the data, so the map costs
// nothing; it is public and is stored with the model (the fitted Preprocessor holds it).
//
// Draws: from Rng(seed) (Boost.Random on mt19937_64: the same on every platform), feature
// by feature — ω_j's d normals, then b_j — so the first k features are the same for every
// D ≥ k.

#include <cstdint>
#include <string>

#include <Eigen/Core>

#include "core/data/dataset.h"

namespace dpstudio {

struct RandomFeaturesSpec {
  Index dim = 100;         // D ≥ 1: number of features
  double gamma = 1.0;      // γ > 0 of exp(−γ‖x − x'‖²), in the units of the rows the map reads
  std::uint64_t seed = 1;  // of the draws

  // Names the CLI option: "rff-gamma must be finite and > 0", "rff-dim must be at least 1".
  Status validate() const;
  bool operator==(const RandomFeaturesSpec&) const = default;
};

struct RandomFourierFeatures {
  RandomFeaturesSpec spec;
  Eigen::MatrixXd omega;       // d × D: column j is ω_j
  Eigen::RowVectorXd offsets;  // D: b_j ∈ [0, 2π)

  Index inputDim() const { return omega.rows(); }
  Index outputDim() const { return omega.cols(); }

  // n × d → n × D: cos(X·Ω + 1bᵀ)/√D. Rows are cut into fixed chunks (parallel.h) computed in
  // parallel, so the bits do not depend on the thread count. Thread-safe (const).
  Eigen::MatrixXd apply(const Eigen::MatrixXd& X) const;

  // "random Fourier features: D = 200, gamma = 2, seed 1 (...)", for reports.
  std::string describe() const;
};

// Draws the map for rows with inputDim columns. Errors: the spec is invalid, inputDim < 1.
Result<RandomFourierFeatures> makeRandomFourierFeatures(const RandomFeaturesSpec& spec, Index inputDim);

}  // namespace dpstudio
