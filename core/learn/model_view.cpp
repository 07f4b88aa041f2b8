#include "core/learn/model_view.h"

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

Result<ModelViewGeometry> makeModelViewGeometry(const PreparedData& data, const ViewSpec& spec,
                                                const Model& model, const Eigen::VectorXd& theta,
                                                double ellipseLevel) {
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
    for (const ClassEllipsoid& ellipsoid : extractEllipsoids(*lmgc, theta)) {
      auto shadow = shadowOnView(ellipsoid, ellipseLevel, out.projection);
      if (!shadow) return shadow.error();
      out.ellipses.push_back(std::move(shadow).value());
    }
  }
  return out;
}

}  // namespace dpstudio
