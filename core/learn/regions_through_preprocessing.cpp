#include "core/learn/regions_through_preprocessing.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "core/util/parallel.h"

namespace dpstudio {
namespace {

Error misfit(const std::string& message) { return Error{ErrorKind::Usage, message, {}, 0, "view"}; }

}  // namespace

Result<RegionMap> computeRegionsThroughPreprocessing(const Preprocessor& preprocessor, const Model& model,
                                                     const Eigen::VectorXd& theta, const ViewProjection& rawView,
                                                     const ViewGrid& grid, const Progress& progress) {
  const Index d = preprocessor.inputDim;
  if (rawView.centre.size() != d || rawView.basis.rows() != d || rawView.basis.cols() != 2)
    return misfit("the view plane has " + std::to_string(rawView.centre.size()) +
                  " features but the preprocessing reads " + std::to_string(d));
  // A plane that carries a feature map lives after a preprocessing already (model_view.h).
  if (rawView.hasFeatureMap()) return misfit("the view plane must be in the raw features, before any feature map");
  if (model.inputDim() != preprocessor.outputDim)
    return misfit("the model reads " + std::to_string(model.inputDim()) + " features but the preprocessing gives " +
                  std::to_string(preprocessor.outputDim));
  if (grid.width <= 0 || grid.height <= 0) return RegionMap{};

  RegionMap map{grid.width, grid.height, std::vector<int>(static_cast<std::size_t>(grid.width) * grid.height), false};
  std::atomic<Index> rowsDone{0};
  parallelFor(grid.height, [&](Index row) {
    if (progress.cancelled()) return;  // the remaining rows are skipped; the result is dropped
    Eigen::MatrixXd U(grid.width, 2);
    for (int column = 0; column < grid.width; ++column) {
      U(column, 0) = grid.x(column);
      U(column, 1) = grid.y(static_cast<int>(row));
    }
    // The whole pipeline on raw rows, as predict() of a bundle runs it on a data file's.
    const Eigen::VectorXi labels = model.predict(theta, preprocessor.transform(rawView.lift(U)));
    std::copy(labels.data(), labels.data() + grid.width,
              map.labels.begin() + static_cast<std::ptrdiff_t>(row) * grid.width);
    progress.report(static_cast<double>(++rowsDone) / grid.height);
  });
  if (progress.cancelled()) return Error::cancelled();
  return map;
}

}  // namespace dpstudio
