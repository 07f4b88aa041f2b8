#include "core/bundle/bundle_preprocessing.h"

#include <QJsonArray>

#include <cmath>

#include "core/bundle/manifest_fields.h"

namespace dpstudio::bundle {
namespace {

NpyArray matrixArray(const Eigen::MatrixXd& m) { return NpyArray{m, false}; }
NpyArray vectorArray(const Eigen::VectorXd& v) { return NpyArray{v, true}; }

void addArray(std::map<std::string, NpyArray>& arrays, QJsonObject& info, const std::string& name, NpyArray array,
              bool isPrivate, const QString& meaning) {
  arrays[name] = std::move(array);
  info[QString::fromStdString(name)] = QJsonObject{{"private", isPrivate}, {"meaning", meaning}};
}

Error bad(const std::string& message, const std::string& field) { return manifestError(message, field); }

// The array `name`, of shape rows × cols (cols 0: a 1-D array of `rows` values).
Result<Eigen::MatrixXd> shapedArray(const std::map<std::string, NpyArray>& arrays, const std::string& name,
                                    Index rows, Index cols) {
  const auto it = arrays.find(name);
  if (it == arrays.end()) return bad("the preprocessing needs it, but the bundle has no such array", name + ".npy");
  const NpyArray& array = it->second;
  const bool oneD = cols == 0;
  if (array.oneDimensional != oneD || array.values.rows() != rows || (!oneD && array.values.cols() != cols))
    return bad("has shape " + array.shapeText() + ", but the preprocessing needs " +
                   (oneD ? "(" + std::to_string(rows) + ",)"
                         : "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")"),
               name + ".npy");
  return array.values;
}

}  // namespace

QJsonObject preprocessingToManifest(const Preprocessor& pre, std::map<std::string, NpyArray>& arrays,
                                    QJsonObject& arrayInfo) {
  const PreprocessSpec& spec = pre.spec;
  QJsonArray ranges;
  for (const FeatureRange& r : spec.publicRanges) ranges.append(QJsonArray{r.lo, r.hi});
  QJsonArray groups;
  for (const OneHotGroup& g : spec.oneHotGroups)
    groups.append(QJsonArray{static_cast<qint64>(g.first), static_cast<qint64>(g.count)});
  QJsonObject out{
      {"input_dim", static_cast<qint64>(pre.inputDim)},
      {"output_dim", static_cast<qint64>(pre.outputDim)},
      {"steps", stringArray(pre.steps)},
      {"feature_ranges", ranges},
      {"one_hot_groups", groups},
      {"range_mapping", QString::fromStdString(rangeMappingName(spec.rangeMapping))},
      {"unit_rows", spec.unitRows},
      {"norm_bound", spec.normBound ? QJsonValue(*spec.normBound) : QJsonValue::Null},
      {"norm_bound_from_ranges", pre.normBoundFromRanges},
      {"row_scale", spec.rowScale ? QJsonValue(*spec.rowScale) : QJsonValue::Null},
      {"row_scale_from_data", pre.rowScaleFromData},
      {"intercept", spec.intercept},
      {"private", pre.notPrivate.empty()},
      {"not_private", stringArray(pre.notPrivate)},
  };
  out["projection"] = QJsonValue::Null;
  if (pre.projection.size() > 0) {
    out["projection"] = QJsonObject{{"dim", static_cast<qint64>(*spec.projectionDim)},
                                    {"seed", seedText(spec.projectionSeed)},
                                    {"array", "projection"}};
    addArray(arrays, arrayInfo, "projection", matrixArray(pre.projection), true,
             "random Gaussian projection, rows times it (data-independent)");
  }
  out["pca"] = QJsonValue::Null;
  if (pre.pcaBasis.size() > 0) {
    out["pca"] = QJsonObject{{"dim", static_cast<qint64>(*spec.pcaDim)},
                             {"private", false},
                             {"arrays", QJsonArray{"pca_mean", "pca_basis"}}};
    addArray(arrays, arrayInfo, "pca_mean", vectorArray(pre.pcaMean.transpose()), false,
             "PCA mean, subtracted before the basis (fitted on the training rows: NOT private)");
    addArray(arrays, arrayInfo, "pca_basis", matrixArray(pre.pcaBasis), false,
             "PCA basis, centred rows times it (fitted on the training rows: NOT private)");
  }
  out["random_fourier_features"] = QJsonValue::Null;
  if (pre.randomFeatures) {
    const RandomFourierFeatures& rff = *pre.randomFeatures;
    out["random_fourier_features"] = QJsonObject{{"dim", static_cast<qint64>(rff.spec.dim)},
                                                 {"gamma", rff.spec.gamma},
                                                 {"seed", seedText(rff.spec.seed)},
                                                 {"arrays", QJsonArray{"rff_omega", "rff_offsets"}}};
    addArray(arrays, arrayInfo, "rff_omega", matrixArray(rff.omega), true,
             "random Fourier feature frequencies: column j is omega_j (data-independent)");
    addArray(arrays, arrayInfo, "rff_offsets", vectorArray(rff.offsets.transpose()), true,
             "random Fourier feature offsets b_j in [0, 2 pi) (data-independent)");
  }
  return out;
}

Result<Preprocessor> preprocessingFromManifest(const QJsonObject& json, const std::map<std::string, NpyArray>& arrays) {
  const std::string where = "preprocessing";
  Preprocessor pre;
  auto inputDim = wholeNumber(json, "input_dim", 1, where);
  auto outputDim = wholeNumber(json, "output_dim", 1, where);
  if (!inputDim) return inputDim.error();
  if (!outputDim) return outputDim.error();
  pre.inputDim = static_cast<Index>(inputDim.value());
  pre.outputDim = static_cast<Index>(outputDim.value());
  pre.steps = stringList(json["steps"]);
  pre.notPrivate = stringList(json["not_private"]);
  PreprocessSpec& spec = pre.spec;
  for (const QJsonValue& range : json["feature_ranges"].toArray()) {
    const QJsonArray pair = range.toArray();
    if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
      return bad("each feature range must be [lo, hi]", where + ".feature_ranges");
    spec.publicRanges.push_back({pair[0].toDouble(), pair[1].toDouble()});
  }
  // [first, count] pairs; bundles written before schemas have none.
  for (const QJsonValue& group : json["one_hot_groups"].toArray()) {
    const QJsonArray pair = group.toArray();
    if (pair.size() != 2 || !pair[0].isDouble() || !pair[1].isDouble())
      return bad("each one-hot group must be [first column, count]", where + ".one_hot_groups");
    spec.oneHotGroups.push_back({static_cast<Index>(pair[0].toDouble()), static_cast<Index>(pair[1].toDouble())});
  }
  // Bundles written before the centred mapping have no "range_mapping": theirs is [0, 1].
  if (json.contains("range_mapping")) {
    const auto mapping = parseRangeMapping(json["range_mapping"].toString().toStdString());
    if (!mapping) return bad("must be \"centred\" or \"unit interval\"", where + ".range_mapping");
    spec.rangeMapping = *mapping;
  } else {
    spec.rangeMapping = RangeMapping::UnitInterval;
  }
  spec.unitRows = json["unit_rows"].toBool();
  if (json["norm_bound"].isDouble()) spec.normBound = json["norm_bound"].toDouble();
  pre.normBoundFromRanges = json["norm_bound_from_ranges"].toBool();
  if (json["row_scale"].isDouble()) spec.rowScale = json["row_scale"].toDouble();  // absent before 2026-12
  pre.rowScaleFromData = json["row_scale_from_data"].toBool();
  spec.intercept = json["intercept"].toBool();
  if (auto status = spec.validate(); !status)
    return bad("invalid settings: " + status.error().message, where);
  if (spec.publicRanges.size() > 1 && static_cast<Index>(spec.publicRanges.size()) != pre.inputDim)
    return bad("lists " + std::to_string(spec.publicRanges.size()) + " feature ranges for " +
                   std::to_string(pre.inputDim) + " features",
               where + ".feature_ranges");

  Index dim = pre.inputDim;
  if (json["projection"].isObject()) {
    const QJsonObject projection = json["projection"].toObject();
    auto projected = wholeNumber(projection, "dim", 1, where + ".projection");
    if (!projected) return projected.error();
    spec.projectionDim = static_cast<Index>(projected.value());
    spec.projectionSeed = seedValue(projection["seed"]);
    auto matrix = shapedArray(arrays, "projection", dim, *spec.projectionDim);
    if (!matrix) return matrix.error();
    pre.projection = std::move(matrix).value();
    dim = *spec.projectionDim;
  }
  if (json["pca"].isObject()) {
    auto k = wholeNumber(json["pca"].toObject(), "dim", 1, where + ".pca");
    if (!k) return k.error();
    spec.pcaDim = static_cast<Index>(k.value());
    auto mean = shapedArray(arrays, "pca_mean", dim, 0);
    auto basis = shapedArray(arrays, "pca_basis", dim, *spec.pcaDim);
    if (!mean) return mean.error();
    if (!basis) return basis.error();
    pre.pcaMean = mean.value().col(0).transpose();
    pre.pcaBasis = std::move(basis).value();
    dim = *spec.pcaDim;
  }
  if (json["random_fourier_features"].isObject()) {
    const QJsonObject rffJson = json["random_fourier_features"].toObject();
    auto features = wholeNumber(rffJson, "dim", 1, where + ".random_fourier_features");
    if (!features) return features.error();
    RandomFourierFeatures rff;
    rff.spec.dim = static_cast<Index>(features.value());
    rff.spec.gamma = rffJson["gamma"].toDouble(std::nan(""));
    rff.spec.seed = seedValue(rffJson["seed"]);
    if (auto status = rff.spec.validate(); !status)
      return bad("invalid random Fourier features: " + status.error().message, where + ".random_fourier_features");
    auto omega = shapedArray(arrays, "rff_omega", dim, rff.spec.dim);
    auto offsets = shapedArray(arrays, "rff_offsets", rff.spec.dim, 0);
    if (!omega) return omega.error();
    if (!offsets) return offsets.error();
    rff.omega = std::move(omega).value();
    rff.offsets = offsets.value().col(0).transpose();
    spec.randomFeatures = rff.spec;
    pre.randomFeatures = std::move(rff);
    dim = spec.randomFeatures->dim;
  }
  if (spec.intercept) ++dim;
  if (dim != pre.outputDim)
    return bad("the steps give " + std::to_string(dim) + " output dimensions, but output_dim is " +
                   std::to_string(pre.outputDim),
               where + ".output_dim");
  return pre;
}

}  // namespace dpstudio::bundle
