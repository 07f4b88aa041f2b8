#include "core/learn/model_view.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <memory>

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

}  // namespace

Result<ModelViewGeometry> makeModelViewGeometry(const PreparedData& data, const ViewSpec& spec,
                                                const Model& model, const Eigen::VectorXd& theta,
                                                EllipseLevelRule levels) {
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
    // Half of the class: the shadow holds the projections of every point inside the
    // ellipsoid, so its level counts the rows themselves; a section is the score on the
    // plane, so its level counts the rows where they are drawn — lifted back onto the plane.
    // With the rows off the plane in d − 2 directions, the rows' own median can be far above
    // anything the score reaches near them on the plane, and the section then lies outside
    // the data (digits: 7 of 10 on the PCA plane).
    const bool halfOfClass = levels == EllipseLevelRule::HalfOfClass;
    const Eigen::MatrixXd onPlane =
        halfOfClass && out.ellipsesAreShadows ? out.projection.lift(out.trainCoords) : Eigen::MatrixXd();
    for (std::size_t c = 0; c < ellipsoids.size(); ++c) {
      const auto cls = static_cast<Index>(c);
      const double level = halfOfClass ? medianClassLevel(ellipsoids[c], data.train.X, data.train.y, cls)
                                       : kDefaultEllipseLevel;
      std::optional<double> sectionLevel;
      if (onPlane.rows() > 0) sectionLevel = medianClassLevel(ellipsoids[c], onPlane, data.train.y, cls);
      auto ellipse = ellipseOnView(ellipsoids[c], level, out.projection, extent, sectionLevel);
      if (!ellipse) return ellipse.error();
      out.ellipses.push_back(std::move(ellipse).value());
    }
  }
  return out;
}

}  // namespace dpstudio
