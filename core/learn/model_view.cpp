#include "core/learn/model_view.h"

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

}  // namespace

Result<ModelViewGeometry> makeModelViewGeometry(const PreparedData& data, const ViewSpec& spec,
                                                const Model& model, const Eigen::VectorXd& theta,
                                                double ellipseLevel) {
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
    // Ellipses far larger than the data would cross the picture as near-parallel lines.
    double extent = 0;
    if (out.trainCoords.rows() > 0)
      extent = (out.trainCoords.colwise().maxCoeff() - out.trainCoords.colwise().minCoeff()).norm();
    for (const ClassEllipsoid& ellipsoid : extractEllipsoids(*lmgc, theta)) {
      auto ellipse = ellipseOnView(ellipsoid, ellipseLevel, out.projection, extent);
      if (!ellipse) return ellipse.error();
      out.ellipses.push_back(std::move(ellipse).value());
    }
  }
  return out;
}

}  // namespace dpstudio
