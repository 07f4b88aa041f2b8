#pragma once
// Decision regions of a model that reads raw rows through its own fitted preprocessing (a
// model bundle's: core/bundle/bundle_reader.h), on a plane in the RAW feature space (a
// dataset's 2-D view, view_projection.h). Each pixel's view point is lifted to a raw row on
// the plane, transformed by the preprocessing exactly as a row of a data file would be
// (ranges clipped, projection, PCA, unit rows, norm bound, random Fourier features,
// intercept: preprocess.h), and predicted by the model. This is what the model answers for
// that row, which is why the picture may differ from the trained-model view: that view's
// plane lives after the preprocessing (model_view.h), where clipping and scaling are
// already done, while here the clipping bends the regions wherever it acts.
//
// No shortcut of decision_map.h applies (the preprocessing is not affine on the plane once
// something is clipped), so every pixel is evaluated: one pixel row per batch, rows in
// parallel. Rows are independent and each is computed the same way whatever thread runs it,
// so the labels do not depend on the thread count. It stops between rows when `progress`
// is cancelled.

#include <Eigen/Core>

#include "core/data/preprocess.h"
#include "core/learn/decision_map.h"
#include "core/models/model.h"
#include "core/util/progress.h"
#include "core/util/result.h"

namespace dpstudio {

// rawView: a plane in the preprocessing's input space (preprocessor.inputDim features), with
// no feature map of its own. Errors: dimensions that do not fit (Usage); Cancelled.
Result<RegionMap> computeRegionsThroughPreprocessing(const Preprocessor& preprocessor, const Model& model,
                                                     const Eigen::VectorXd& theta, const ViewProjection& rawView,
                                                     const ViewGrid& grid, const Progress& progress = {});

}  // namespace dpstudio
