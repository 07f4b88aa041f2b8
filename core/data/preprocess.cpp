#include "core/data/preprocess.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <vector>

#include "core/data/pca.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

Error invalid(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

std::string number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace

std::string rangeMappingName(RangeMapping mapping) {
  return mapping == RangeMapping::Centred ? "centred" : "unit interval";
}

std::optional<RangeMapping> parseRangeMapping(const std::string& name) {
  if (name == "centred") return RangeMapping::Centred;
  if (name == "unit interval") return RangeMapping::UnitInterval;
  return std::nullopt;
}

namespace {

// A declared value v of a column with range r, as step 1 maps it (clipped).
double mappedValue(const PreprocessSpec& spec, const FeatureRange& r, double v) {
  const double shift = spec.rangeMapping == RangeMapping::Centred ? 0.5 : 0.0;
  return std::clamp((v - r.lo) / (r.hi - r.lo) - shift, -shift, 1.0 - shift);
}

// The squared extent (largest ‖x‖²) or, for PCA, the squared diameter (largest ‖x − x′‖²)
// of the rows step 1 can produce, column by column, a one-hot group as one term.
double squaredBoxSize(const PreprocessSpec& spec, Index inputDim) {
  const bool diameter = spec.pcaDim.has_value();
  const double width = 1.0, extent = spec.rangeMapping == RangeMapping::Centred ? 0.5 : 1.0;
  const double perColumn = diameter ? width * width : extent * extent;
  double total = perColumn * static_cast<double>(inputDim);
  for (const OneHotGroup& g : spec.oneHotGroups) {
    std::vector<double> off, on;  // each indicator's mapped 0 and 1
    for (Index j = g.first; j < g.first + g.count; ++j) {
      const FeatureRange& r = spec.publicRanges[static_cast<std::size_t>(j)];
      off.push_back(mappedValue(spec, r, 0.0));
      on.push_back(mappedValue(spec, r, 1.0));
    }
    double group = 0;
    if (diameter) {
      // Two rows of the group differ in two indicators (or none); a group of one in one.
      std::vector<double> jumps;
      for (std::size_t k = 0; k < on.size(); ++k) jumps.push_back((on[k] - off[k]) * (on[k] - off[k]));
      std::sort(jumps.rbegin(), jumps.rend());
      group = jumps[0] + (jumps.size() > 1 ? jumps[1] : 0.0);
    } else {
      double offSum = 0;
      for (double v : off) offSum += v * v;
      for (std::size_t k = 0; k < on.size(); ++k) group = std::max(group, offSum - off[k] * off[k] + on[k] * on[k]);
    }
    total += group - perColumn * static_cast<double>(g.count);
  }
  return std::max(0.0, total);
}

}  // namespace

std::optional<double> derivedNormBound(const PreprocessSpec& spec, Index inputDim, const Eigen::MatrixXd& projection) {
  if (spec.publicRanges.empty() || inputDim < 1) return std::nullopt;
  // PCA's mean lies in the same set, so x − μ is bounded by the set's diameter.
  double bound = std::sqrt(squaredBoxSize(spec, inputDim));
  if (projection.size() > 0) {
    // ‖P‖₂² is the largest eigenvalue of the smaller Gram matrix, PᵀP or PPᵀ.
    const Eigen::MatrixXd gram = projection.rows() >= projection.cols() ? Eigen::MatrixXd(projection.transpose() * projection)
                                                                        : Eigen::MatrixXd(projection * projection.transpose());
    bound *= std::sqrt(std::max(0.0, symmetricEigenvalues(gram).maxCoeff()));
  }
  return bound;
}

Status PreprocessSpec::validate() const {
  for (const auto& range : publicRanges) {
    if (!std::isfinite(range.lo) || !std::isfinite(range.hi) || !(range.hi > range.lo))
      return invalid("each public feature range must be finite with hi > lo", "feature-range");
  }
  if (!oneHotGroups.empty() && publicRanges.size() < 2)
    return invalid("one-hot groups need a range for each feature", "feature-ranges");
  Index next = 0;
  for (const OneHotGroup& g : oneHotGroups) {
    if (g.first < next || g.count < 1 || g.first + g.count > static_cast<Index>(publicRanges.size()))
      return invalid("one-hot groups must be disjoint, in column order and inside the features", "feature-ranges");
    next = g.first + g.count;
  }
  if (projectionDim && *projectionDim < 1)
    return invalid("the projection dimension must be at least 1", "project");
  if (pcaDim && *pcaDim < 1) return invalid("the PCA dimension must be at least 1", "pca");
  if (normBound && !(std::isfinite(*normBound) && *normBound > 0))
    return invalid("the norm bound must be finite and > 0", "norm-bound");
  if (rowScale && !(std::isfinite(*rowScale) && *rowScale > 0))
    return invalid("the row scale must be finite and > 0", "row-scale");
  if (randomFeatures) return randomFeatures->validate();
  return Ok{};
}

Index countOutsideRanges(const std::vector<FeatureRange>& ranges, const Eigen::MatrixXd& X) {
  if (ranges.empty() || (ranges.size() > 1 && static_cast<Index>(ranges.size()) != X.cols())) return 0;
  Index outside = 0;
  for (Index j = 0; j < X.cols(); ++j) {
    const FeatureRange& r = ranges.size() == 1 ? ranges[0] : ranges[static_cast<std::size_t>(j)];
    outside += ((X.col(j).array() < r.lo) || (X.col(j).array() > r.hi)).count();
  }
  return outside;
}

// Row operations as column sweeps: X is column-major, and X.row(i) /= s walks a row with a
// stride of n doubles (a cache miss per value on MNIST); the elementwise column-wise form
// computes the same quotient for every entry.
namespace {

// Row operations run on blocks of rows, in parallel: a block of a column-major matrix is 784
// contiguous runs of kBlockRows values on MNIST (~1.6 MB), so the repeated passes of
// shrinkRowsIntoUnitBall stay in cache instead of sweeping 376 MB each (those passes took
// 2.3 s of an MNIST run). Each row's result depends on the row alone: the same bits for
// any thread count.
constexpr Index kBlockRows = 256;
using RowBlock = Eigen::Ref<Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

Index rowBlockCount(const Eigen::MatrixXd& X) { return (X.rows() + kBlockRows - 1) / kBlockRows; }

// body(b, block b) for every block of rows.
template <class Body>
void forEachRowBlock(Eigen::MatrixXd& X, const Body& body) {
  parallelFor(rowBlockCount(X), [&](Index b) {
    const Index begin = b * kBlockRows;
    body(b, RowBlock(X.middleRows(begin, std::min(kBlockRows, X.rows() - begin))));
  });
}

// x/‖x‖ has a norm within an ulp or two of 1, on either side, depending on how the norm is
// summed: shrink by an ulp until the rowwise, row-by-row and squared norms all say ≤ 1 (a
// row's norm() is sqrt(squaredNorm()), which exceeds 1 only when the squared norm does).
// Only rows whose first norm is within rounding of 1 (`near`) can disagree between
// summation orders. Per-row factors are applied as column sweeps (×1 leaves the other rows'
// bits alone).
// Rows: the whole matrix or a RowBlock — the norms are those of that very expression.
template <class Rows>
void shrinkRowsIntoUnitBall(Rows& X, const std::vector<Index>& near) {
  constexpr double kShrink = 1.0 - std::numeric_limits<double>::epsilon();
  for (int pass = 0; pass < 64 && !near.empty(); ++pass) {
    const Eigen::VectorXd norms = X.rowwise().norm();
    const Eigen::VectorXd squared = sequentialRowSquaredNorms(X);
    Eigen::ArrayXd factors = Eigen::ArrayXd::Ones(X.rows());
    bool again = false;
    for (Index i : near)
      if (norms[i] > 1.0 || squared[i] > 1.0) {
        factors[i] = kShrink;
        again = true;
      }
    if (!again) break;
    X.array().colwise() *= factors;
  }
}

// clipRowsToUnitBall on one block; returns how many rows had ‖x‖ > 1.
Index clipBlockToUnitBall(RowBlock X) {
  const Eigen::VectorXd first = X.rowwise().norm();
  const Eigen::VectorXd sequential = sequentialRowSquaredNorms(X);
  std::vector<Index> near;
  Eigen::ArrayXd divisors = Eigen::ArrayXd::Ones(X.rows());
  Index clipped = 0;
  for (Index i = 0; i < X.rows(); ++i) {
    if (!(first[i] > 1.0 - 1e-9)) continue;
    near.push_back(i);
    const double norm = std::max(first[i], std::sqrt(sequential[i]));
    if (norm > 1.0) {
      divisors[i] = norm;
      ++clipped;
    }
  }
  if (clipped > 0) X.array().colwise() /= divisors;
  shrinkRowsIntoUnitBall(X, near);  // the block's own norms; the whole matrix's are checked after
  return clipped;
}

}  // namespace

void scaleRowsToUnitNorm(Eigen::MatrixXd& X) {
  forEachRowBlock(X, [](Index, RowBlock B) {
    const Eigen::ArrayXd norms = B.rowwise().norm().array();
    const Eigen::ArrayXd divisors = (norms > 0).select(norms, 1.0);  // x/1 = x: zero rows stay
    B.array().colwise() /= divisors;
  });
  clipRowsToUnitBall(X);
}

void applyNormBound(Eigen::MatrixXd& X, double bound) {
  forEachRowBlock(X, [bound](Index, RowBlock B) {
    const Eigen::VectorXd norms = B.rowwise().norm();
    Eigen::ArrayXd scales(B.rows());
    for (Index i = 0; i < B.rows(); ++i) scales[i] = norms[i] > bound ? 1.0 / norms[i] : 1.0 / bound;
    B.array().colwise() *= scales;
  });
  clipRowsToUnitBall(X);
}

Index clipRowsToUnitBall(Eigen::MatrixXd& X) {
  std::vector<Index> clippedPerBlock(static_cast<std::size_t>(rowBlockCount(X)), 0);
  forEachRowBlock(X, [&](Index b, RowBlock B) { clippedPerBlock[static_cast<std::size_t>(b)] = clipBlockToUnitBall(B); });
  // The check that counts: the norms as the whole matrix computes them. Eigen's rowwise norm
  // may sum a row in another order inside a block (its vectorized reduction depends on where
  // the row falls in a packet), so a row the blocks left at 1 + ulp is shrunk here.
  const Eigen::VectorXd norms = X.rowwise().norm();
  const Eigen::VectorXd squared = sequentialRowSquaredNorms(X);
  std::vector<Index> above;
  for (Index i = 0; i < X.rows(); ++i)
    if (norms[i] > 1.0 || squared[i] > 1.0) above.push_back(i);
  if (!above.empty()) shrinkRowsIntoUnitBall(X, above);
  Index clipped = 0;
  for (Index count : clippedPerBlock) clipped += count;
  return clipped;
}

Eigen::MatrixXd appendIntercept(const Eigen::MatrixXd& X) {
  const double r = std::sqrt(0.5);
  Eigen::MatrixXd out(X.rows(), X.cols() + 1);
  out.leftCols(X.cols()) = r * X;
  out.col(X.cols()).setConstant(r);
  return out;
}

Eigen::MatrixXd randomProjectionMatrix(Index inputDim, Index outputDim, std::uint64_t seed) {
  Rng rng(seed);
  Eigen::MatrixXd P(inputDim, outputDim);
  const double scale = 1.0 / std::sqrt(static_cast<double>(outputDim));
  for (Index j = 0; j < outputDim; ++j)
    for (Index i = 0; i < inputDim; ++i) P(i, j) = scale * rng.normal();
  return P;
}

Result<Preprocessor> fitPreprocessor(const PreprocessSpec& spec, const Dataset& train) {
  if (auto status = spec.validate(); !status) return status.error();
  const Index d = train.features();
  if (spec.publicRanges.size() > 1 && static_cast<Index>(spec.publicRanges.size()) != d)
    return invalid("give one public range for all features or one per feature (" +
                       std::to_string(d) + ")",
                   "feature-range");
  Preprocessor pre;
  pre.spec = spec;
  pre.inputDim = d;
  Index dim = d;
  if (!spec.publicRanges.empty()) {
    const std::string target = spec.rangeMapping == RangeMapping::Centred ? "[-1/2, 1/2] (centred on its midpoint)"
                                                                          : "[0, 1]";
    pre.steps.push_back(spec.publicRanges.size() == 1
                            ? "public feature range [" + number(spec.publicRanges[0].lo) + ", " +
                                  number(spec.publicRanges[0].hi) + "] mapped to " + target
                            : "per-feature public ranges, each mapped to " + target);
    if (!spec.oneHotGroups.empty())
      pre.steps.push_back(std::to_string(spec.oneHotGroups.size()) +
                          " declared categorical features: each one-hot group counted once in the norm bound");
  }
  if (spec.projectionDim) {
    pre.projection = randomProjectionMatrix(dim, *spec.projectionDim, spec.projectionSeed);
    dim = *spec.projectionDim;
    pre.steps.push_back("random Gaussian projection to " + std::to_string(dim) +
                        " dimensions (seed " + std::to_string(spec.projectionSeed) + ")");
  }
  if (spec.pcaDim) {
    if (*spec.pcaDim > dim)
      return invalid("the PCA dimension exceeds the number of features", "pca");
    Preprocessor upToHere = pre;  // ranges and projection only: PCA comes before the row steps
    upToHere.spec.unitRows = false;
    upToHere.spec.normBound.reset();
    upToHere.outputDim = dim;
    // Before the feature map: PCA must not see the intercept column (or φ).
    Eigen::MatrixXd Z = upToHere.transformBeforeFeatureMap(train.X);
    pre.pcaMean = Z.colwise().mean();
    Z.rowwise() -= pre.pcaMean;
    pre.pcaBasis = principalAxes(Z, *spec.pcaDim);
    dim = *spec.pcaDim;
    const std::string step = "PCA to " + std::to_string(dim) + " dimensions, fitted on the training data";
    pre.steps.push_back(step);
    pre.notPrivate.push_back(step + ": the basis and mean are computed from private data");
  }
  if (spec.unitRows) pre.steps.push_back("every row scaled to unit norm");
  if (!spec.unitRows && !spec.normBound) {
    if (auto derived = derivedNormBound(spec, d, pre.projection)) {
      pre.spec.normBound = *derived;
      pre.normBoundFromRanges = true;
    }
  }
  if (spec.scaleToData && !spec.unitRows && !pre.spec.normBound && !spec.rowScale) {
    const Preprocessor& upToHere = pre;  // no R, no scale yet and no unit rows: steps 1–3
    const double squared =
        train.rows() > 0 ? upToHere.transformBeforeFeatureMap(train.X).rowwise().squaredNorm().mean() : 0.0;
    const double scale = std::sqrt(squared);
    if (std::isfinite(scale) && scale > 0) {
      pre.spec.rowScale = scale;
      pre.rowScaleFromData = true;
      const std::string step = "rows divided by s = " + number(scale) + ", the training rows' root-mean-square norm";
      pre.steps.push_back(step);
      pre.notPrivate.push_back(step + ": read off the private data");
    }
  } else if (spec.rowScale) {
    pre.steps.push_back("rows divided by s = " + number(*spec.rowScale));
  }
  if (pre.normBoundFromRanges)
    pre.steps.push_back("norm bound R = " + number(*pre.spec.normBound) +
                        " derived from the declared ranges (the largest norm a row can have): rows divided by R");
  else if (spec.normBound)
    pre.steps.push_back("public norm bound R = " + number(*spec.normBound) +
                        ": rows clipped to norm R, then divided by R");
  if (spec.randomFeatures) {
    auto map = makeRandomFourierFeatures(*spec.randomFeatures, dim);
    if (!map) return map.error();
    pre.randomFeatures = std::move(map).value();
    dim = spec.randomFeatures->dim;
    pre.steps.push_back(pre.randomFeatures->describe());
  }
  if (spec.intercept) {
    pre.steps.push_back("intercept: rows scaled by 1/sqrt(2), constant 1/sqrt(2) appended");
    ++dim;
  }
  pre.outputDim = dim;
  return pre;
}

namespace {

// The steps that fitPreprocessor() lists last and applyFeatureMap() runs: 6 and 7.
std::size_t featureMapSteps(const Preprocessor& pre) {
  return (pre.randomFeatures ? 1u : 0u) + (pre.spec.intercept ? 1u : 0u);
}

}  // namespace

Index Preprocessor::dimBeforeFeatureMap() const {
  if (randomFeatures) return randomFeatures->inputDim();
  return outputDim - (spec.intercept ? 1 : 0);
}

Eigen::MatrixXd Preprocessor::transform(const Eigen::MatrixXd& X) const {
  return applyFeatureMap(transformBeforeFeatureMap(X));
}

Eigen::MatrixXd Preprocessor::transformBeforeFeatureMap(Eigen::MatrixXd Z) const {
  // (x − lo)/(hi − lo) − shift, clipped to the mapped interval [−shift, 1 − shift].
  const double shift = spec.rangeMapping == RangeMapping::Centred ? 0.5 : 0.0;
  if (spec.publicRanges.size() == 1) {
    const auto& r = spec.publicRanges[0];
    Z.array() = ((Z.array() - r.lo) / (r.hi - r.lo) - shift).cwiseMax(-shift).cwiseMin(1.0 - shift);
  } else if (!spec.publicRanges.empty()) {
    for (Index j = 0; j < Z.cols(); ++j) {
      const auto& r = spec.publicRanges[static_cast<std::size_t>(j)];
      Z.col(j) = ((Z.col(j).array() - r.lo) / (r.hi - r.lo) - shift).cwiseMax(-shift).cwiseMin(1.0 - shift).matrix();
    }
  }
  if (projection.size() > 0) Z = Z * projection;
  if (pcaBasis.size() > 0) Z = (Z.rowwise() - pcaMean) * pcaBasis;
  if (spec.rowScale) Z /= *spec.rowScale;
  if (spec.unitRows) scaleRowsToUnitNorm(Z);
  if (spec.normBound) applyNormBound(Z, *spec.normBound);
  return Z;
}

Eigen::MatrixXd Preprocessor::applyFeatureMap(Eigen::MatrixXd Z) const {
  if (!randomFeatures && !spec.intercept) return Z;
  if (randomFeatures) Z = randomFeatures->apply(Z);
  return spec.intercept ? appendIntercept(Z) : Z;
}

Result<Dataset> Preprocessor::apply(const Dataset& data) const {
  auto beforeMap = applyBeforeFeatureMap(data);
  if (!beforeMap) return beforeMap.error();
  return applyFeatureMap(std::move(beforeMap).value());
}

Result<Dataset> Preprocessor::applyBeforeFeatureMap(Dataset data) const {
  if (data.features() != inputDim)
    return Error::badData("the data have " + std::to_string(data.features()) +
                              " features but the preprocessing was fitted on " +
                              std::to_string(inputDim),
                          data.provenance.source);
  Dataset out = std::move(data);
  out.X = transformBeforeFeatureMap(std::move(out.X));
  if (projection.size() > 0 || pcaBasis.size() > 0) {
    out.featureNames.clear();
    const std::string prefix = pcaBasis.size() > 0 ? "pc" : "proj";
    for (Index j = 0; j < out.X.cols(); ++j) out.featureNames.push_back(prefix + std::to_string(j + 1));
  }
  out.provenance.steps.insert(out.provenance.steps.end(), steps.begin(),
                              steps.end() - static_cast<std::ptrdiff_t>(featureMapSteps(*this)));
  out.provenance.notPrivate.insert(out.provenance.notPrivate.end(), notPrivate.begin(),
                                   notPrivate.end());
  return out;
}

Dataset Preprocessor::applyFeatureMap(Dataset beforeMap) const {
  Dataset out = std::move(beforeMap);
  out.X = applyFeatureMap(std::move(out.X));
  if (randomFeatures) {
    out.featureNames.clear();
    for (Index j = 0; j < randomFeatures->outputDim(); ++j) out.featureNames.push_back("rff" + std::to_string(j + 1));
  }
  if (spec.intercept) out.featureNames.push_back("(intercept)");
  out.provenance.steps.insert(out.provenance.steps.end(),
                              steps.end() - static_cast<std::ptrdiff_t>(featureMapSteps(*this)), steps.end());
  return out;
}

}  // namespace dpstudio
