#pragma once
// Decision regions of a trained model on the 2-D view: the class the model predicts at
// every pixel of a grid over the view's plane (the plane through the data mean, lifted
// back to the model's input space; see view_projection.h). For d > 2 this is the model's
// decision on that plane.
//
// Speed: a model whose scores are polynomials of degree ≤ 2 in x (linear models: 1, LMGC:
// 2) restricted to a plane is a polynomial of the same degree in the plane's two
// coordinates, so the map fits each class's score exactly from six evaluations and then
// costs a few flops per pixel (512×512, 10 classes: a few milliseconds). Other models are
// evaluated point by point, one pixel row per batch, rows in parallel (exact == false). So
// is any model behind a feature map (view.featureMap: random Fourier features, whose
// cosines are no polynomial on the plane); there each row's features come from the
// angle-addition identity instead of W·D cosines (512×512, D = 200: tens of milliseconds).

#include <vector>

#include <Eigen/Core>

#include "core/data/view_projection.h"
#include "core/models/model.h"

namespace dpstudio {

struct ViewGrid {
  double xMin = 0, xMax = 1;  // view coordinates covered, left to right
  double yMin = 0, yMax = 1;  // bottom to top
  int width = 256;            // pixels
  int height = 256;

  double x(int column) const { return xMin + (xMax - xMin) * (column + 0.5) / width; }
  double y(int row) const { return yMax - (yMax - yMin) * (row + 0.5) / height; }  // row 0 on top
};

struct RegionMap {
  int width = 0;
  int height = 0;
  std::vector<int> labels;  // row-major, row 0 at the top (yMax); label in [0, C)
  bool exact = true;        // computed by the exact plane restriction

  int at(int row, int column) const { return labels[static_cast<std::size_t>(row) * width + column]; }
};

RegionMap computeDecisionRegions(const Model& model, const Eigen::VectorXd& theta,
                                 const ViewProjection& view, const ViewGrid& grid);

}  // namespace dpstudio
