#include "core/data/view_projection.h"

#include <algorithm>

#include <Eigen/QR>

#include "core/data/pca.h"
#include "core/data/preprocess.h"
#include "core/random/rng.h"

namespace dpstudio {
namespace {

Error invalidView(std::string message) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, "view"};
}

}  // namespace

Eigen::MatrixXd ViewProjection::project(const Eigen::MatrixXd& X) const { return X * basis; }

Eigen::MatrixXd ViewProjection::lift(const Eigen::MatrixXd& U) const {
  const Eigen::RowVector2d centreCoords = (centre.transpose() * basis);
  return (U.rowwise() - centreCoords) * basis.transpose() +
         centre.transpose().replicate(U.rows(), 1);
}

Eigen::MatrixXd ViewProjection::modelInputs(const Eigen::MatrixXd& U) const {
  if (!featureMap) return lift(U);
  const Eigen::MatrixXd mapped = featureMap->apply(lift(U));
  return interceptAfterMap ? appendIntercept(mapped) : mapped;
}

std::string viewKindName(ViewKind kind) {
  switch (kind) {
    case ViewKind::Features: return "features";
    case ViewKind::RandomProjection: return "random";
    case ViewKind::Pca: return "pca";
  }
  return "features";
}

std::optional<ViewKind> parseViewKind(const std::string& name) {
  for (ViewKind kind : {ViewKind::Features, ViewKind::RandomProjection, ViewKind::Pca})
    if (viewKindName(kind) == name) return kind;
  return std::nullopt;
}

Result<ViewProjection> makeViewProjection(const Dataset& data, const ViewSpec& spec) {
  const Index d = data.features();
  if (d < 1 || data.rows() < 1) return invalidView("the dataset is empty");
  ViewProjection view;
  view.centre = data.X.colwise().mean().transpose();
  view.basis = Eigen::MatrixXd::Zero(d, 2);

  switch (spec.kind) {
    case ViewKind::Features: {
      if (spec.featureA < 0 || spec.featureA >= d || spec.featureB < 0 || spec.featureB >= d)
        return invalidView("feature index out of range");
      if (d == 1) {
        // One feature: the second axis is a constant 0 so the view still has two axes.
        view.basis(0, 0) = 1.0;
        view.axisNames[0] = data.featureNames[0];
        view.axisNames[1] = "(none)";
        break;
      }
      if (spec.featureA == spec.featureB) return invalidView("choose two different features");
      view.basis(spec.featureA, 0) = 1.0;
      view.basis(spec.featureB, 1) = 1.0;
      view.axisNames[0] = data.featureNames[static_cast<std::size_t>(spec.featureA)];
      view.axisNames[1] = data.featureNames[static_cast<std::size_t>(spec.featureB)];
      break;
    }
    case ViewKind::RandomProjection: {
      Rng rng(spec.seed);
      Eigen::MatrixXd gaussian(d, 2);
      for (Index j = 0; j < 2; ++j)
        for (Index i = 0; i < d; ++i) gaussian(i, j) = rng.normal();
      if (d == 1) {
        view.basis(0, 0) = 1.0;
      } else {
        Eigen::HouseholderQR<Eigen::MatrixXd> qr(gaussian);
        view.basis = qr.householderQ() * Eigen::MatrixXd::Identity(d, 2);
      }
      view.axisNames[0] = "random direction 1";
      view.axisNames[1] = "random direction 2";
      break;
    }
    case ViewKind::Pca: {
      const Eigen::MatrixXd centred = data.X.rowwise() - view.centre.transpose();
      view.basis.leftCols(std::min<Index>(2, d)) = principalAxes(centred, 2);
      view.axisNames[0] = "PC 1 (not private)";
      view.axisNames[1] = "PC 2 (not private)";
      view.notPrivate = true;
      break;
    }
  }
  return view;
}

}  // namespace dpstudio
