#include "core/learn/model_view.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

#include "core/models/lmgc.h"

namespace dpstudio {

Result<ViewProjection> makeModelInputProjection(const Dataset& preprocessedTrain,
                                                const ViewSpec& spec, bool intercept) {
  const Index d = preprocessedTrain.features();
  if (!intercept || d < 2) return makeViewProjection(preprocessedTrain, spec);

  Dataset withoutConstant;
  withoutConstant.X = preprocessedTrain.X.leftCols(d - 1);
  withoutConstant.y = preprocessedTrain.y;
  withoutConstant.classNames = preprocessedTrain.classNames;
  withoutConstant.featureNames.assign(preprocessedTrain.featureNames.begin(),
                                      preprocessedTrain.featureNames.end() - 1);
  auto made = makeViewProjection(withoutConstant, spec);
  if (!made) return made.error();
  ViewProjection view = std::move(made).value();
  view.centre.conservativeResize(d);
  view.centre[d - 1] = preprocessedTrain.X.col(d - 1).mean();
  view.basis.conservativeResize(d, 2);
  view.basis.row(d - 1).setZero();
  return view;
}

namespace {

// Random Fourier features: the plane, the points and the regions' grid live in the rows as
// they are before the map; the view carries the map so that the regions reach the model
// through it. No ellipses: LMGC's ellipsoids are quadrics in φ-space, not in the plane's.
Result<ModelViewGeometry> geometryBeforeFeatureMap(const PreparedData& data, const ViewSpec& spec) {
  if (data.trainBeforeMap.rows() != data.train.rows() || data.testBeforeMap.rows() != data.test.rows())
    return Error{ErrorKind::Internal,
                 "the decision view needs the rows before the random Fourier features "
                 "(prepare the data with keepRowsBeforeMap)",
                 {}, 0, "view"};
  auto projection = makeViewProjection(data.trainBeforeMap, spec);
  if (!projection) return projection.error();
  ModelViewGeometry out;
  out.projection = std::move(projection).value();
  out.projection.featureMap = std::make_shared<const RandomFourierFeatures>(*data.preprocessor.randomFeatures);
  out.projection.interceptAfterMap = data.preprocessor.spec.intercept;
  out.trainCoords = out.projection.project(data.trainBeforeMap.X);
  out.testCoords = data.test.rows() > 0 ? out.projection.project(data.testBeforeMap.X) : Eigen::MatrixXd(0, 2);
  return out;
}

// Each row's ellipsoid: its class c with one Gaussian per class; with M, the component of c
// whose score is smallest at the row (the one that explains it).
Eigen::VectorXi rowOwners(const std::vector<ClassEllipsoid>& ellipsoids, const Eigen::MatrixXd& X,
                          const Eigen::VectorXi& y, Index components) {
  if (components == 1) return y;
  Eigen::MatrixXd scores(X.rows(), static_cast<Index>(ellipsoids.size()));
  for (std::size_t b = 0; b < ellipsoids.size(); ++b) scores.col(static_cast<Index>(b)) = ellipsoids[b].scores(X);
  Eigen::VectorXi owner(X.rows());
  for (Index i = 0; i < X.rows(); ++i) {
    Index m = 0;
    scores.row(i).segment(y[i] * components, components).minCoeff(&m);
    owner[i] = static_cast<int>(y[i] * components + m);
  }
  return owner;
}

// The median of the levels of class c's rows of X; the one-margin level when the class has
// no rows or its median is 0 (every row on the centre: nothing to draw around).
double medianClassLevel(const ClassEllipsoid& ellipsoid, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                        Index c) {
  std::vector<Index> rows;
  for (Index i = 0; i < X.rows(); ++i)
    if (y[i] == c) rows.push_back(i);
  if (rows.empty()) return kDefaultEllipseLevel;
  std::vector<double> levels(rows.size());
  const Eigen::VectorXd all = ellipsoid.levels(X(rows, Eigen::all));
  for (std::size_t k = 0; k < rows.size(); ++k) levels[k] = all[static_cast<Index>(k)];
  auto middle = levels.begin() + static_cast<std::ptrdiff_t>(levels.size() / 2);
  std::nth_element(levels.begin(), middle, levels.end());
  return *middle > 0 && std::isfinite(*middle) ? *middle : kDefaultEllipseLevel;
}

// The median over class c's drawn points u of (u − centre)ᵀ spread⁻¹ (u − centre); none when
// the class has no rows, the spread is singular or the median is 0.
std::optional<double> medianDrawnLevel(const ViewEllipse& shadow, const Eigen::MatrixXd& coords,
                                       const Eigen::VectorXi& y, Index c) {
  const double det = shadow.spread.determinant();
  if (!(det > 1e-300 * std::max(shadow.spread.squaredNorm(), 1e-300))) return std::nullopt;
  const Eigen::Matrix2d inverse = shadow.spread.inverse();
  std::vector<double> levels;
  for (Index i = 0; i < coords.rows(); ++i) {
    if (y[i] != c) continue;
    const Eigen::Vector2d v = coords.row(i).transpose() - shadow.centre;
    levels.push_back(v.dot(inverse * v));
  }
  if (levels.empty()) return std::nullopt;
  auto middle = levels.begin() + static_cast<std::ptrdiff_t>(levels.size() / 2);
  std::nth_element(levels.begin(), middle, levels.end());
  if (!(*middle > 0) || !std::isfinite(*middle)) return std::nullopt;
  return *middle;
}

// Every class's contour on the view (ModelViewGeometry::ellipses), on `geometry`'s plane.
// Half of the class counts the rows where they are drawn. A section is the score on the
// plane: its level is the median over the rows lifted back onto the plane (the rows' own
// median can be far above anything the score reaches near them on the plane, and the section
// then lay outside the data: digits, 7 of 10 on the PCA plane). A shadow's level is the
// median of the drawn rows in the shadow's own metric: its shape is the class's Gaussian's
// marginal on the plane, and the d-dimensional median drew it about √d times the class's
// drawn spread (wine on a random plane: one ellipse round every point).
// `owner` gives each training row's ellipsoid: its class, or with a mixture its class's
// component of smallest score.
Result<std::vector<ViewEllipse>> ellipsesOnView(const std::vector<ClassEllipsoid>& ellipsoids,
                                                const PreparedData& data, const Eigen::VectorXi& owner,
                                                const ModelViewGeometry& geometry, EllipseLevelRule levels,
                                                double extent, bool sectionFirst) {
  const bool halfOfClass = levels == EllipseLevelRule::HalfOfClass;
  const Eigen::MatrixXd onPlane = halfOfClass && geometry.ellipsesAreShadows
                                      ? geometry.projection.lift(geometry.trainCoords)
                                      : Eigen::MatrixXd();
  std::vector<ViewEllipse> out;
  for (std::size_t c = 0; c < ellipsoids.size(); ++c) {
    const auto cls = static_cast<Index>(c);
    double level = kDefaultEllipseLevel;
    if (halfOfClass) {
      level = medianClassLevel(ellipsoids[c], data.train.X, owner, cls);
      if (geometry.ellipsesAreShadows)
        if (auto unit = shadowOnView(ellipsoids[c], 1.0, geometry.projection); unit && unit.value().bounded)
          if (auto drawn = medianDrawnLevel(unit.value(), geometry.trainCoords, owner, cls)) level = *drawn;
    }
    std::optional<double> sectionLevel;
    if (onPlane.rows() > 0) sectionLevel = medianClassLevel(ellipsoids[c], onPlane, owner, cls);
    auto ellipse = ellipseOnView(ellipsoids[c], level, geometry.projection, extent, sectionLevel, sectionFirst);
    if (!ellipse) return ellipse.error();
    out.push_back(std::move(ellipse).value());
  }
  return out;
}

}  // namespace

Result<ModelViewGeometry> makeModelViewGeometry(const PreparedData& data, const ViewSpec& spec,
                                                const Model& model, const Eigen::VectorXd& theta,
                                                EllipseLevelRule levels, EllipseClosing closing) {
  if (data.preprocessor.hasFeatureMap()) return geometryBeforeFeatureMap(data, spec);
  auto projection = makeModelInputProjection(data.train, spec, data.preprocessor.spec.intercept);
  if (!projection) return projection.error();
  ModelViewGeometry out;
  out.projection = std::move(projection).value();
  out.trainCoords = out.projection.project(data.train.X);
  out.testCoords = data.test.rows() > 0 ? out.projection.project(data.test.X) : Eigen::MatrixXd(0, 2);

  if (const auto* lmgc = dynamic_cast<const LmgcModel*>(&model)) {
    // With two inputs the plane is the whole input space (any view is a rotation of it), so
    // the level set is drawn exactly; with more it is the shadow of an ellipsoid.
    out.ellipsesAreShadows = model.inputDim() > 2;
    out.levelRule = levels;
    // Ellipses far larger than the data would cross the picture as near-parallel lines.
    double extent = 0;
    if (out.trainCoords.rows() > 0)
      extent = (out.trainCoords.colwise().maxCoeff() - out.trainCoords.colwise().minCoeff()).norm();
    const std::vector<ClassEllipsoid> ellipsoids = extractEllipsoids(*lmgc, theta);
    out.ellipsesPerClass = lmgc->components();
    const Eigen::VectorXi owner = rowOwners(ellipsoids, data.train.X, data.train.y, lmgc->components());
    const bool halfOfClass = levels == EllipseLevelRule::HalfOfClass;
    if (closing == EllipseClosing::AsTrained) {
      auto drawn = ellipsesOnView(ellipsoids, data, owner, out, levels, extent, false);
      if (!drawn) return drawn.error();
      out.ellipses = std::move(drawn).value();
      return out;
    }
    if (!halfOfClass)
      return Error{ErrorKind::Internal,
                   "closed ellipses are fitted to the data: only a non-private picture (half of each class) "
                   "may be closed",
                   {}, 0, "view"};
    out.closing = closingTermFromData(ellipsoids, data.train.X, owner);
    std::vector<ClassEllipsoid> closed;
    for (const ClassEllipsoid& e : ellipsoids) closed.push_back(closedEllipsoid(e, out.closing));
    auto drawn = ellipsesOnView(closed, data, owner, out, levels, extent, true);
    if (!drawn) return drawn.error();
    out.ellipses = std::move(drawn).value();
  }
  return out;
}

}  // namespace dpstudio
