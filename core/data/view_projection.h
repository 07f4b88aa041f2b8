#pragma once
// The 2-D view of a d-dimensional dataset: a plane through the data mean spanned by two
// orthonormal directions. Points are shown by their coordinates u = basisᵀx; a point u of
// the view lifts back to the plane as x = centre + basis·(u − basisᵀcentre), which is how
// decision regions of a d > 2 model are drawn on the view.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/data/random_features.h"

namespace dpstudio {

enum class ViewKind {
  Features,          // two chosen feature axes
  RandomProjection,  // a seeded random orthonormal pair: data-independent, private for free
  Pca,               // the top two principal axes: fitted on the data, NOT private
};

// "features", "random", "pca": the GUI's --view and its saved settings.
std::string viewKindName(ViewKind kind);
std::optional<ViewKind> parseViewKind(const std::string& name);

struct ViewSpec {
  ViewKind kind = ViewKind::Features;
  Index featureA = 0;
  Index featureB = 1;
  std::uint64_t seed = 1;
};

struct ViewProjection {
  Eigen::VectorXd centre;   // d: the data mean (the plane passes through it)
  Eigen::MatrixXd basis;    // d × 2, orthonormal columns
  std::string axisNames[2];
  bool notPrivate = false;  // the plane was fitted on the data (PCA)
  // Set when the model does not read the plane's points but a feature map of them (random
  // Fourier features, preprocess.h step 6; then the intercept if interceptAfterMap): the
  // plane lives in the coordinates before the map (model_view.h). Shared and immutable, so
  // copies of the view are cheap and safe on any thread.
  std::shared_ptr<const RandomFourierFeatures> featureMap;
  bool interceptAfterMap = false;

  Eigen::MatrixXd project(const Eigen::MatrixXd& X) const;  // n × d → n × 2
  Eigen::MatrixXd lift(const Eigen::MatrixXd& U) const;     // m × 2 → m × d
  // What the model reads at view points U: lift(U), then the feature map if there is one.
  Eigen::MatrixXd modelInputs(const Eigen::MatrixXd& U) const;
  bool hasFeatureMap() const { return featureMap != nullptr; }
};

Result<ViewProjection> makeViewProjection(const Dataset& data, const ViewSpec& spec);

}  // namespace dpstudio
