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

// The median of class c's training rows' levels; the one-margin level when the class has no
// rows or its median is 0 (every row on the centre: nothing to draw around).
double medianClassLevel(const ClassEllipsoid& ellipsoid, const Dataset& train, Index c) {
  std::vector<Index> rows;
  for (Index i = 0; i < train.rows(); ++i)
    if (train.y[i] == c) rows.push_back(i);
  if (rows.empty()) return kDefaultEllipseLevel;
  std::vector<double> levels(rows.size());
  const Eigen::VectorXd all = ellipsoid.levels(train.X(rows, Eigen::all));
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
    for (std::size_t c = 0; c < ellipsoids.size(); ++c) {
      const double level = levels == EllipseLevelRule::HalfOfClass
                               ? medianClassLevel(ellipsoids[c], data.train, static_cast<Index>(c))
                               : kDefaultEllipseLevel;
      auto ellipse = ellipseOnView(ellipsoids[c], level, out.projection, extent);
      if (!ellipse) return ellipse.error();
      out.ellipses.push_back(std::move(ellipse).value());
    }
  }
  return out;
}

}  // namespace dpstudio
