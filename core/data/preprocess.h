#pragma once
// Preprocessing, fitted on the training part and applied identically to every other part
// (test data, points queried later, the decision view's grid). docs/algorithms.md §0: every privacy
// proof assumes ‖x‖ ≤ 1, which the public norm bound R enforces. Steps run in this order:
//   1. declared public feature ranges   [lo, hi] → [−½, ½] (centred on the range's midpoint,
//                                       public like the range), values outside clipped;
//                                       bundles written before 2026-12 map to [0, 1]
//   2. random projection to D dims      data-independent: private for free
//   3. PCA to k dims                    fitted on the data: marks the result NOT private
//   4. scaling every row to norm 1      per-example: no privacy cost
//   5. the public norm bound R          clip ‖x‖ to R, then divide by R, so ‖x‖ ≤ 1. Declared
//                                       ranges without an R of the user's: R is derived from
//                                       them (derivedNormBound), never from the rows. Or,
//                                       non-private only (scaleToData), rows divided by
//                                       their RMS norm, unclipped (rowScale)
//   6. random Fourier features          the feature map of random_features.h: D cosines,
//                                       ‖φ(x)‖ ≤ 1 by construction; data-independent
//   7. an intercept feature             docs/algorithms.md §2.1: rows scaled by 1/√2, then 1/√2
//                                       appended, so a row of norm ≤ 1 keeps norm ≤ 1
// Steps 6–7 are the "feature map": the model reads its output, but the decision view draws
// the rows as they are before it (model_view.h), since a plane in φ-space means nothing.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/random_features.h"

namespace dpstudio {

struct FeatureRange {
  double lo = 0.0;
  double hi = 1.0;
  bool operator==(const FeatureRange&) const = default;
};

// Where step 1 maps a declared range. Centred is the default: a feature's declared
// midpoint becomes 0, so uncentred data (pixels in 0…255, counts) do not push every row
// towards one corner of the unit ball, where the norm bound leaves the model little room
// (docs/algorithms.md §0.2). UnitInterval is how bundles written before it read.
enum class RangeMapping { Centred, UnitInterval };

// Columns [first, first + count) of which every row has exactly one non-zero: a categorical
// feature's indicators, declared by a schema (data_schema.h). Public structure: the derived
// norm bound counts the group as one feature instead of `count`.
struct OneHotGroup {
  Index first = 0;
  Index count = 0;
  bool operator==(const OneHotGroup&) const = default;
};
std::string rangeMappingName(RangeMapping mapping);  // "centred", "unit interval"
std::optional<RangeMapping> parseRangeMapping(const std::string& name);

struct PreprocessSpec {
  // Public ranges declared by the user (not read off the data): one range for every
  // feature, or one per feature. Empty: no range scaling.
  std::vector<FeatureRange> publicRanges;
  RangeMapping rangeMapping = RangeMapping::Centred;
  // Indicator groups among the columns (per-feature ranges only), in column order, disjoint.
  std::vector<OneHotGroup> oneHotGroups;
  std::optional<Index> projectionDim;  // random Gaussian projection to this many dims
  std::uint64_t projectionSeed = 1;
  std::optional<Index> pcaDim;         // PCA to this many dims (not private)
  bool unitRows = false;
  std::optional<double> normBound;     // R > 0
  // NOT private: with no R, no unit rows and no declared ranges, every row is divided by the
  // training rows' root-mean-square norm after steps 1–3, read off the data (rowScale,
  // Preprocessor::rowScaleFromData). For a non-private LMGC, whose regularizer is not
  // scale-invariant: on raw features its problem is badly scaled and the solver crawls
  // (digits, features 0…16: 3000 iterations unconverged against tens on rows of norm ~1).
  // Not the largest norm: one outlier (shuttle's 26 740 against a median of 123) would
  // shrink every other row and the regularizer would swamp the loss.
  bool scaleToData = false;
  std::optional<double> rowScale;      // s > 0: rows divided by s after steps 1–3, not clipped
  bool intercept = false;
  // Random Fourier features of the rows after step 5 (γ is in those rows' units).
  std::optional<RandomFeaturesSpec> randomFeatures;

  Status validate() const;
  bool operator==(const PreprocessSpec&) const = default;
};

// A fitted pipeline; transform() applies it to any matrix with inputDim columns.
struct Preprocessor {
  PreprocessSpec spec;
  Index inputDim = 0;
  Index outputDim = 0;
  Eigen::MatrixXd projection;  // inputDim × D, or empty
  Eigen::RowVectorXd pcaMean;  // empty unless PCA
  Eigen::MatrixXd pcaBasis;    // (dim after projection) × k, orthonormal columns, or empty
  std::optional<RandomFourierFeatures> randomFeatures;  // the drawn map (step 6), if asked for
  std::vector<std::string> steps;       // for people, in order
  std::vector<std::string> notPrivate;  // data-dependent steps (PCA)
  // True when spec.normBound was derived from the declared ranges (the user gave none):
  // the largest norm a row can have after steps 1–3 (derivedNormBound).
  bool normBoundFromRanges = false;
  // True when spec.rowScale was read off the training rows (PreprocessSpec::scaleToData).
  bool rowScaleFromData = false;

  Eigen::MatrixXd transform(const Eigen::MatrixXd& X) const;
  Result<Dataset> apply(const Dataset& data) const;

  // The same pipeline in two halves: transform(X) == applyFeatureMap(transformBeforeFeatureMap(X)).
  // The first half stops after step 5; the second runs steps 6–7 (identity without them).
  bool hasFeatureMap() const { return randomFeatures.has_value(); }
  Index dimBeforeFeatureMap() const;
  // By value: a caller that hands over its rows (std::move) has them transformed in place,
  // so a 60 000-row MNIST is not held twice while it is prepared; an lvalue is copied.
  Eigen::MatrixXd transformBeforeFeatureMap(Eigen::MatrixXd X) const;
  Eigen::MatrixXd applyFeatureMap(Eigen::MatrixXd Z) const;  // no map: Z itself, not a copy
  Result<Dataset> applyBeforeFeatureMap(Dataset data) const;
  Dataset applyFeatureMap(Dataset beforeMap) const;  // takes applyBeforeFeatureMap's output
};

// Fits the pipeline on the training rows. With declared ranges and neither a norm bound nor
// unit rows, the fitted spec's normBound is derivedNormBound() of it (normBoundFromRanges),
// so the rows meet every mechanism's ‖x‖ ≤ 1 with no R for the user to compute.
Result<Preprocessor> fitPreprocessor(const PreprocessSpec& spec, const Dataset& train);

// The largest norm a row can have after steps 1–3, from public quantities only: every
// mapped feature lies in an interval of width 1 ([−½, ½] centred, [0, 1] otherwise), so
// ‖x‖ ≤ √d/2 centred and √d otherwise; a one-hot group adds its largest row (one indicator
// at its mapped 1, the others at their mapped 0) instead of one term per column; a
// projection P multiplies that by its largest singular value ‖P‖₂ (P is data-independent);
// PCA subtracts a mean inside the same set, so ‖x − μ‖ is at most its diameter (a group:
// two indicators swapped), and an orthonormal basis does not lengthen it. Nullopt without
// declared ranges. `projection` is the drawn matrix, or empty.
std::optional<double> derivedNormBound(const PreprocessSpec& spec, Index inputDim, const Eigen::MatrixXd& projection);

// Values of X outside their declared ranges (one range for all columns, or one per column),
// which step 1 clips; 0 without ranges. Ranges that do not fit X's columns count nothing.
Index countOutsideRanges(const std::vector<FeatureRange>& ranges, const Eigen::MatrixXd& X);

// The individual transforms, each on the rows of X in place.
// Both end with clipRowsToUnitBall, so that the rows they scale to norm 1 are inside the unit
// ball as every norm the mechanisms compute says (x/‖x‖ can land an ulp above 1): a
// mechanism then trains on them as they are, with no clipped copy (sweeps on MNIST copied
// and re-clipped 60 000 rows in every trial).
void scaleRowsToUnitNorm(Eigen::MatrixXd& X);           // zero rows stay zero
void applyNormBound(Eigen::MatrixXd& X, double bound);  // clip to ‖x‖ ≤ R, divide by R
// Scales every row with ‖x‖ > 1 to ‖x‖ ≤ 1 exactly, as every norm Eigen computes for it says
// (rowwise, row by row, squared); returns how many rows had ‖x‖ > 1.
Index clipRowsToUnitBall(Eigen::MatrixXd& X);
// A d × D matrix with N(0, 1/D) entries, drawn from Rng(seed) in column order.
// docs/algorithms.md §2.1's intercept: [x/√2, 1/√2].
Eigen::MatrixXd appendIntercept(const Eigen::MatrixXd& X);
Eigen::MatrixXd randomProjectionMatrix(Index inputDim, Index outputDim, std::uint64_t seed);

}  // namespace dpstudio
